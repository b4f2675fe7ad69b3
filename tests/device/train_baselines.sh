#!/usr/bin/env bash
# Training speed against the strongest Python a user would write (issue 18): StackScope's trainer vs Python eager,
# a whole-step CUDA graph and torch.compile(reduce-overhead), same data and model, at batch 256 and 8, on the GPU
# and on the CPU. Writes $OUT/train_baselines.txt. Usage (repo root): tests/device/train_baselines.sh
. tests/device/common.sh
device_begin train_baselines "train baselines"
W=/tmp/train-baselines
device_build "${BUILD:-/tmp/build-margins}" tb -DSTACKSCOPE_TESTS=OFF -DCMAKE_BUILD_TYPE=Release -- stackscope-cli stackscope_torch
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
