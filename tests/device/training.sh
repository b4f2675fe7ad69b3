#!/usr/bin/env bash
# Training on a CUDA machine: builds the CLI and the libtorch module, runs the seed's command line on GPU 0,
# JSON progress, bf16, resume, data parallel when there are two GPUs, and `bench train` against the Python
# eager baseline (tests/bench/train_python.py) in the same run; writes what it measured to $OUT/training.txt.
# SRC (default .) is the source tree, B the build folder, SOURCE_REV the commit SRC holds.
SRC=${SRC:-.}
JOBS=${JOBS:-$(nproc)}
EPOCHS=${EPOCHS:-10}
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" # beside this script: SRC may be another tree
device_begin training "training device run"
echo "$(nproc) CPUs, source ${SOURCE_REV:-unknown}"
W=$(mktemp -d)
t0=$(date +%s)
device_build "${B:-build-device-training}" training -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_HIP=OFF \
  -DCMAKE_CUDA_ARCHITECTURES=90-real -- stackscope-cli stackscope_torch
echo "build: $(( $(date +%s) - t0 )) s"
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
