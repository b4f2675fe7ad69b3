#!/usr/bin/env bash
# Training on a CUDA machine: builds the CLI and the libtorch module, runs the seed's command line on GPU 0,
# JSON progress, bf16, resume, data parallel when there are two GPUs, and `bench train` against the Python
# eager baseline (tests/bench/train_python.py) in the same run; writes what it measured to $OUT/training.txt.
# SRC (default .) is the source tree, B the build folder, SOURCE_REV the commit SRC holds.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
SRC=${SRC:-.}
B=${B:-build-device-training}
JOBS=${JOBS:-$(nproc)}
EPOCHS=${EPOCHS:-10}
LOG="$OUT/training.txt"
PREFIX="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null)"
[ -n "${STACKSCOPE_DEVICE_PREFIX:-}" ] && PREFIX="$PREFIX;$STACKSCOPE_DEVICE_PREFIX"
W=$(mktemp -d)
{
  echo "== training device run $(date -u +%FT%TZ) on $(hostname), $(nproc) CPUs, source ${SOURCE_REV:-unknown}"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' || true
  t0=$(date +%s)
  cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_GUI=OFF -DSTACKSCOPE_HIP=OFF \
        -DCMAKE_CUDA_ARCHITECTURES=90-real -DCMAKE_PREFIX_PATH="$PREFIX" > "$OUT/training-cmake.log" 2>&1 \
    || { echo "cmake failed:"; tail -30 "$OUT/training-cmake.log"; exit 1; }
  ninja -C "$B" -j"$JOBS" stackscope-cli stackscope_torch > "$OUT/training-build.log" 2>&1 \
    || { echo "build failed:"; grep -E "error|FAILED" "$OUT/training-build.log" | head -40; exit 1; }
  echo "build: $(( $(date +%s) - t0 )) s"
  CLI="$B/bin/stackscope-cli"
  "$CLI" sample-data --out "$W/bars3.csv" --days 3 > /dev/null
  echo "== the seed's command line (GPU 0)"
  "$CLI" train --data "$W/bars3.csv" --output "$W/TRAINING" --epochs 3 --batch_size 8 --learning_rate 0.0002 \
        --hidden_layers 32,16 --no_distributed --device_ids 0; echo "rc=$?"
  python3 -c "import json; m=json.load(open('$W/TRAINING/model_metadata.json')); print('metadata:', m['status'], m['devices'], m['versions'], 'epochs', len(m['epochs']), 'best', m['best_epoch'], m['execution'])"
  echo "== --json-progress on gpu:0 (first and last lines)"
  "$CLI" train --input "$W/bars3.csv" --output "$W/json" --epochs 2 --device gpu:0 --step-interval 20 --json-progress > "$W/json.txt"; echo "rc=$?"
  head -3 "$W/json.txt"; tail -2 "$W/json.txt"
  echo "== bf16 autocast on gpu:0"
  "$CLI" train --input "$W/bars3.csv" --output "$W/bf16" --epochs 2 --device gpu:0 --precision bf16; echo "rc=$?"
  echo "== unknown GPU (exit 2 expected)"
  "$CLI" train --input "$W/bars3.csv" --output "$W/bad" --device gpu:9; echo "rc=$? (output exists: $([ -e "$W/bad" ] && echo yes || echo no))"
  echo "== resume on the GPU: 2 epochs + resume to 4 vs 4 at once (val losses)"
  "$CLI" train --input "$W/bars3.csv" --output "$W/whole" --epochs 4 --device gpu:0 --patience 0 > /dev/null
  "$CLI" train --input "$W/bars3.csv" --output "$W/part" --epochs 2 --device gpu:0 --patience 0 > /dev/null
  "$CLI" train --input "$W/bars3.csv" --output "$W/part" --epochs 4 --device gpu:0 --patience 0 --resume > /dev/null; echo "rc=$?"
  python3 -c "
import json
a=json.load(open('$W/whole/model_metadata.json'))['epochs']; b=json.load(open('$W/part/model_metadata.json'))['epochs']
print('uninterrupted', [round(e['val_loss'],7) for e in a]); print('resumed      ', [round(e['val_loss'],7) for e in b])"
  ngpu=$(nvidia-smi -L | wc -l)
  if [ "$ngpu" -ge 2 ]; then
    echo "== data parallel gpu:0,1 (one process per GPU, NCCL) vs gpu:0"
    "$CLI" train --input "$W/bars3.csv" --output "$W/dp" --epochs 3 --device gpu:0,1 --batch-size 256; echo "rc=$?"
    "$CLI" train --input "$W/bars3.csv" --output "$W/sp" --epochs 3 --device gpu:0 --batch-size 256 --no-cuda-graphs; echo "rc=$?"
  fi
  echo "== bench train: StackScope (CUDA graph) vs Python eager, batch 256, $EPOCHS epochs"
  "$CLI" bench train --days 60 --epochs "$EPOCHS" --python "$SRC/tests/bench/train_python.py" --work "$W/bench" --json; echo "rc=$?"
  echo "== bench train without CUDA graphs (same data)"
  "$CLI" bench train --days 60 --epochs "$EPOCHS" --no-cuda-graphs --work "$W/bench2"; echo "rc=$?"
  echo "== bench train on the CPU (this machine's cores), 2 epochs"
  "$CLI" bench train --days 60 --epochs 2 --device cpu --python "$SRC/tests/bench/train_python.py" --work "$W/bench3"; echo "rc=$?"
} > "$LOG" 2>&1
cat "$LOG"
