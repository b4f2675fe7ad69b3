#!/usr/bin/env bash
# VPOC on a CUDA machine: builds the CLI and the CUDA module, runs the CPU/GPU equality check, the CLI on
# sample data with --backend gpu, and the benchmark; writes what it measured to $OUT/vpoc.txt.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
B=${B:-build-device-vpoc}
LOG="$OUT/vpoc.txt"
PREFIX="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null)"
[ -n "${STACKSCOPE_DEVICE_PREFIX:-}" ] && PREFIX="$PREFIX;$STACKSCOPE_DEVICE_PREFIX"
{
  echo "== vpoc device run $(date -u +%FT%TZ) on $(hostname)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_GUI=OFF -DSTACKSCOPE_HIP=OFF \
        -DCMAKE_CUDA_ARCHITECTURES=90-real -DCMAKE_PREFIX_PATH="$PREFIX" > "$OUT/vpoc-cmake.log" 2>&1 \
    || { echo "cmake failed:"; tail -30 "$OUT/vpoc-cmake.log"; exit 1; }
  ninja -C "$B" stackscope-cli stackscope_vpoc_cuda vpoc_gpu_check > "$OUT/vpoc-build.log" 2>&1 \
    || { echo "build failed:"; grep -E "error|FAILED" "$OUT/vpoc-build.log" | head -40; exit 1; }
  echo "== CPU/GPU equality (tests/gpu/vpoc_gpu_check)"
  (cd "$B" && ctest -R vpoc_gpu_check --output-on-failure) ; echo "rc=$?"
  echo "== CLI on sample data, cpu vs gpu"
  "$B/bin/stackscope-cli" sample-data --out "$OUT/vpoc-sample.csv" --days 60 --trades
  "$B/bin/stackscope-cli" vpoc --input "$OUT/vpoc-sample.csv" --backend cpu --json > "$OUT/vpoc-cpu.json"; echo "cpu rc=$?"
  "$B/bin/stackscope-cli" vpoc --input "$OUT/vpoc-sample.csv" --backend gpu --vram-budget 64 --json > "$OUT/vpoc-gpu.json"; echo "gpu rc=$?"
  python3 - "$OUT/vpoc-cpu.json" "$OUT/vpoc-gpu.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
print("backends:", a["backend"], b["backend"], "| sessions:", len(a["sessions"]), "| identical:", a["sessions"] == b["sessions"])
PY
  echo "== bench vpoc (2^27 trades)"
  "$B/bin/stackscope-cli" bench vpoc --trades-log2 27 --json; echo "rc=$?"
} 2>&1 | tee "$LOG"
