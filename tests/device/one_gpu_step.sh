#!/usr/bin/env bash
# One GPU, the libtorch training step (issues 15 and 18): the scaling model (--hidden 2048,2048,2048) at the global
# batch 4096 and at half of it (2048: what each of two ranks computes, without the all-reduce), the default model's
# libtorch step (--no-fused-step, CUDA graph) at batch 256, and in the same run the Python loops on the same GPU
# (tests/bench/train_ddp.py eager and whole-step CUDA graph, Adam(fused=True)). Writes $OUT/one_gpu_step.txt.
# Usage (repo root): tests/device/one_gpu_step.sh     EPOCHS=N (default 5)
. tests/device/common.sh
device_begin one_gpu_step "one GPU, libtorch step"
W=/tmp/one-gpu-step
rm -rf "$W"; mkdir -p "$W"
device_build "${BUILD:-/tmp/build-one-gpu}" og -DSTACKSCOPE_TESTS=OFF -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_HIP=OFF \
  -DCMAKE_CUDA_ARCHITECTURES=90-real -- stackscope-cli stackscope_torch
"$CLI" sample-data --out "$W/bars.csv" --days 250 >/dev/null
run() {  # name batch -- args
  local name=$1 batch=$2; shift 3
  local t0=$(date +%s.%N)
  timeout 200 "$CLI" train --input "$W/bars.csv" --patience 0 --json-progress --output "$W/$name" "$@" \
    > "$W/$name.jsonl" 2> "$W/$name.err"
  local rc=$?
  [ $rc -eq 0 ] || tail -8 "$W/$name.err"
  "$PY" tests/device/train_summary.py "$name" "$W/$name" "$W/$name.jsonl" $rc --batch "$batch" \
    --wall "$("$PY" -c "import time; print('%.1f' % (time.time() - $t0))")"
}
E=${EPOCHS:-5}
echo "== StackScope, --hidden 2048,2048,2048, one GPU (CUDA graph of the step)"
run big-4096 4096 -- --hidden 2048,2048,2048 --batch-size 4096 --epochs "$E" --device gpu:0
run big-2048 2048 -- --hidden 2048,2048,2048 --batch-size 2048 --epochs "$E" --device gpu:0
run big-4096-eager 4096 -- --hidden 2048,2048,2048 --batch-size 4096 --epochs "$E" --device gpu:0 --no-cuda-graphs
echo "== Python, same model, one GPU (Adam(fused=True)), batch 4096 then 2048"
for b in 4096 2048; do
  for mode in eager graph; do
    timeout 200 "$PY" tests/bench/train_ddp.py --mode $mode --hidden 2048,2048,2048 --batch-size $b 2>"$W/py-$mode-$b.err" \
      | grep steps_per_s || tail -5 "$W/py-$mode-$b.err"
  done
done
echo "== default model, batch 256, libtorch step (--no-fused-step), 10 epochs of 60 days"
timeout 200 "$CLI" bench train --days 60 --epochs 10 --no-fused-step --work "$W/b256" --json > "$W/b256.json"; echo "rc=$?"
grep -E '^(StackScope|Python)' "$W/b256.json" || head -c 1500 "$W/b256.json"
