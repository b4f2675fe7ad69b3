#!/usr/bin/env bash
# Training speed against the strongest Python a user would write (issue 18): StackScope's trainer vs Python eager,
# a whole-step CUDA graph and torch.compile(reduce-overhead), same data and model, at batch 256 and 8, on the GPU
# and on the CPU. Writes $OUT/train_baselines.txt. Usage (repo root): tests/device/train_baselines.sh
set -u -o pipefail
OUT=${OUT:-/tmp/stackscope-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/train_baselines.txt") 2>&1
BUILD=${BUILD:-/tmp/build-margins}
W=/tmp/train-baselines
PREFIX="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)');${STACKSCOPE_DEVICE_PREFIX:-$PWD/.deps/usr}"
export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
echo "== train baselines $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c 'import torch; print("torch", torch.__version__)'
if [ -z "${STACKSCOPE_CLI:-}" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DSTACKSCOPE_GUI=OFF -DSTACKSCOPE_TESTS=OFF -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_PREFIX_PATH=$PREFIX" >"$OUT/tb-cmake.log" 2>&1 || { tail -30 "$OUT/tb-cmake.log"; exit 1; }
  ninja -C "$BUILD" stackscope-cli stackscope_torch >"$OUT/tb-build.log" 2>&1 || { grep error "$OUT/tb-build.log" | head; exit 1; }
fi
CLI=${STACKSCOPE_CLI:-$BUILD/bin/stackscope-cli}
PY=tests/bench/train_python.py
echo "== GPU, batch 256, 10 epochs"
timeout 300 "$CLI" bench train --days 60 --epochs 10 --python $PY --work $W/b256 --json > $W-b256.json; echo "rc=$?"
grep -E '^(StackScope|Python)' $W-b256.json
echo "== GPU, batch 256, 10 epochs, libtorch step (CUDA graph, no fused kernel), StackScope only"
timeout 300 "$CLI" bench train --days 60 --epochs 10 --no-fused-step --work $W/b256-graph --json > $W-b256g.json; echo "rc=$?"
grep -E '^(StackScope|Python)' $W-b256g.json
echo "== GPU, batch 8, 1 epoch"
timeout 300 "$CLI" bench train --days 60 --epochs 1 --batch-size 8 --python $PY --work $W/b8 --json > $W-b8.json; echo "rc=$?"
grep -E '^(StackScope|Python)' $W-b8.json
[ "${SKIP_CPU:-0}" = 1 ] && exit 0
echo "== CPU, batch 256, 2 epochs"
timeout 300 "$CLI" bench train --days 60 --epochs 2 --device cpu --python $PY --python-modes eager,compile --work $W/cpu --json > $W-cpu.json; echo "rc=$?"
grep -E '^(StackScope|Python)' $W-cpu.json
