#!/usr/bin/env bash
# VPOC on a CUDA machine: builds the CLI, the CUDA module and the libtorch module, runs the CPU/GPU equality
# check, the CLI on sample data (cpu vs gpu), and the benchmark; writes what it measured to $OUT/vpoc.txt.
# SRC (default .) is the source tree, B the build folder, JOBS the build jobs, SOURCE_REV the commit SRC holds
# (when SRC is an exported tree without .git).
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
SRC=${SRC:-.}
B=${B:-build-device-vpoc}
JOBS=${JOBS:-$(nproc)}
LOG="$OUT/vpoc.txt"
PREFIX="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null)"
[ -n "${STACKSCOPE_DEVICE_PREFIX:-}" ] && PREFIX="$PREFIX;$STACKSCOPE_DEVICE_PREFIX"
{
  echo "== vpoc device run $(date -u +%FT%TZ) on $(hostname), $(nproc) CPUs, source ${SOURCE_REV:-$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo "unknown (set SOURCE_REV)")}"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader || true
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' || true
  t0=$(date +%s)
  cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_GUI=OFF -DSTACKSCOPE_HIP=OFF \
        -DCMAKE_CUDA_ARCHITECTURES=90-real -DCMAKE_PREFIX_PATH="$PREFIX" > "$OUT/vpoc-cmake.log" 2>&1 \
    || { echo "cmake failed:"; tail -30 "$OUT/vpoc-cmake.log"; exit 1; }
  ninja -C "$B" -j"$JOBS" stackscope-cli stackscope_vpoc_cuda stackscope_torch vpoc_gpu_check > "$OUT/vpoc-build.log" 2>&1 \
    || { echo "build failed:"; grep -E "error|FAILED" "$OUT/vpoc-build.log" | head -40; exit 1; }
  echo "build: $(( $(date +%s) - t0 )) s"
  echo "== CPU/GPU equality (tests/gpu/vpoc_gpu_check via ctest; must say PASS, not SKIP)"
  (cd "$B" && ctest -R vpoc_gpu_check --output-on-failure -V 2>&1 | grep -E "GPU:|differ|PASS|FAIL|SKIP|tests passed|Passed|Failed|Not Run") ; echo "rc=$?"
  echo "== CLI on sample data, cpu vs gpu"
  "$B/bin/stackscope-cli" sample-data --out "$OUT/vpoc-sample.csv" --days 60 --trades
  "$B/bin/stackscope-cli" vpoc --input "$OUT/vpoc-sample.csv" --backend cpu --json > "$OUT/vpoc-cpu.json"; echo "cpu rc=$?"
  "$B/bin/stackscope-cli" vpoc --input "$OUT/vpoc-sample.csv" --backend gpu --vram-budget 64 --json > "$OUT/vpoc-gpu.json"; echo "gpu rc=$?"
  python3 - "$OUT/vpoc-cpu.json" "$OUT/vpoc-gpu.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
print("backends:", a["backend"], b["backend"], "| sessions:", len(a["sessions"]), "| identical:", a["sessions"] == b["sessions"])
PY
  rm -f "$OUT/vpoc-sample.csv"
  echo "== bench vpoc (2^27 trades; CPU on 1, 2 and all threads; libtorch index_add_/bincount on cuda)"
  echo "command: stackscope-cli bench vpoc --trades-log2 27 --threads 1,2,all --json"
  "$B/bin/stackscope-cli" bench vpoc --trades-log2 27 --threads 1,2,all --json; echo "rc=$?"
  echo "== CPU 1 vs 2 threads, three separate processes (the 1-thread time varies from process to process)"
  for i in 1 2 3; do
    "$B/bin/stackscope-cli" bench vpoc --trades-log2 27 --threads 1,2 --repeats 10 --no-gpu --no-torch | grep -E "threads"
  done
} 2>&1 | tee "$LOG"
