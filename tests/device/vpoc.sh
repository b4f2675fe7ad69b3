#!/usr/bin/env bash
# VPOC on a CUDA machine: builds the CLI, the CUDA module and the libtorch module, runs the CPU/GPU equality
# check, the CLI on sample data (cpu vs gpu), and the benchmark; writes what it measured to $OUT/vpoc.txt.
# SRC (default .) is the source tree, B the build folder, JOBS the build jobs, SOURCE_REV the commit SRC holds
# (when SRC is an exported tree without .git).
SRC=${SRC:-.}
JOBS=${JOBS:-$(nproc)}
B=${B:-build-device-vpoc}
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" # beside this script: SRC may be another tree
device_begin vpoc "vpoc device run"
echo "$(nproc) CPUs, source ${SOURCE_REV:-$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo "unknown (set SOURCE_REV)")}"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader || true
t0=$(date +%s)
# Always built (STACKSCOPE_CLI is ignored): the GPU check is a test of the build.
STACKSCOPE_CLI= device_build "$B" vpoc -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_HIP=OFF -DCMAKE_CUDA_ARCHITECTURES=90-real \
  -- stackscope-cli stackscope_vpoc_cuda stackscope_torch vpoc_gpu_check
echo "build: $(( $(date +%s) - t0 )) s"
echo "== CPU/GPU equality (tests/gpu/vpoc_gpu_check via ctest; must say PASS, not SKIP)"
(cd "$B" && ctest -R vpoc_gpu_check --output-on-failure -V 2>&1 | grep -E "GPU:|differ|PASS|FAIL|SKIP|tests passed|Passed|Failed|Not Run") ; echo "rc=$?"
echo "== CLI on sample data, cpu vs gpu"
"$CLI" sample-data --out "$OUT/vpoc-sample.csv" --days 60 --trades
"$CLI" vpoc --input "$OUT/vpoc-sample.csv" --backend cpu --json > "$OUT/vpoc-cpu.json"; echo "cpu rc=$?"
"$CLI" vpoc --input "$OUT/vpoc-sample.csv" --backend gpu --vram-budget 64 --json > "$OUT/vpoc-gpu.json"; echo "gpu rc=$?"
python3 - "$OUT/vpoc-cpu.json" "$OUT/vpoc-gpu.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
print("backends:", a["backend"], b["backend"], "| sessions:", len(a["sessions"]), "| identical:", a["sessions"] == b["sessions"])
PY
rm -f "$OUT/vpoc-sample.csv"
echo "== bench vpoc (2^27 trades; CPU on 1, 2 and all threads; libtorch index_add_/bincount on cuda)"
echo "command: stackscope-cli bench vpoc --trades-log2 27 --threads 1,2,all --json"
"$CLI" bench vpoc --trades-log2 27 --threads 1,2,all --json; echo "rc=$?"
echo "== CPU 1 vs 2 threads, three separate processes (the 1-thread time varies from process to process)"
for i in 1 2 3; do
  "$CLI" bench vpoc --trades-log2 27 --threads 1,2 --repeats 10 --no-gpu --no-torch | grep -E "threads"
done
