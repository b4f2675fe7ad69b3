#!/usr/bin/env bash
# Several GPUs through c10d (issue 15's scaling goal): a model big enough to need it (--hidden 2048,2048,2048,
# batch 4096) on one GPU, then one rank per GPU on GPUs 0 and 1 (NCCL, then Gloo), same global batch; steps/s and
# every epoch's validation loss of each; then the default model the same way. Needs 2 GPUs and a build with
# -DSTACKSCOPE_NCCL=ON for the NCCL rows (the script builds one unless STACKSCOPE_CLI is set).
# ONLY_SCALING=1: the big model on one GPU and on two only (with the half-batch row and the Python DDP baseline,
# tests/bench/train_ddp.py). Writes $OUT/two_gpu.txt.
# Usage (repo root): tests/device/two_gpu.sh
. tests/device/common.sh
device_begin two_gpu "two GPUs"
nvidia-smi topo -m 2>/dev/null | head -5
W=/tmp/two-gpu
rm -rf "$W"; mkdir -p "$W"
device_build "${BUILD:-/tmp/build-two-gpu}" tg -DSTACKSCOPE_TESTS=OFF -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_NCCL=ON \
  -DSTACKSCOPE_HIP=OFF -DCMAKE_CUDA_ARCHITECTURES=90-real -- stackscope-cli stackscope_torch
[ -n "${STACKSCOPE_CLI:-}" ] || grep -E "NCCL|nccl" "$OUT/tg-cmake.log"
"$CLI" sample-data --out "$W/bars.csv" --days ${DAYS:-250} >/dev/null

run() {  # name output-dir batch -- args
  local name=$1 out=$2 batch=$3; shift 4
  local t0=$(date +%s.%N)
  timeout 400 "$CLI" train --input "$W/bars.csv" --patience 0 --json-progress --output "$out" "$@" > "$out.jsonl" 2> "$out.err"
  local rc=$?
  [ $rc -eq 0 ] || tail -8 "$out.err"
  python3 tests/device/train_summary.py "$name" "$out" "$out.jsonl" $rc --batch "$batch" \
    --wall "$(python3 -c "import time; print('%.1f' % (time.time() - $t0))")"
}
BIG=(--hidden 2048,2048,2048 --batch-size 4096 --epochs ${EPOCHS:-20})
echo "== big model (hidden 2048,2048,2048, batch 4096): one GPU, then 2 ranks (NCCL), then 2 ranks (Gloo)"
run big-1gpu "$W/big1" 4096 -- "${BIG[@]}" --device gpu:0
[ "${ONLY_SCALING:-0}" = 1 ] || run big-1gpu-eager "$W/big1e" 4096 -- "${BIG[@]}" --device gpu:0 --no-cuda-graphs
NCCL_DEBUG=${NCCL_DEBUG:-WARN} run big-2gpu-nccl "$W/big2" 4096 -- "${BIG[@]}" --device gpu:0,1 --dist-backend nccl
echo "== the same model on one GPU at half the batch (2048): what each rank computes, without the all-reduce"
run big-1gpu-half "$W/bigh" 2048 -- --hidden 2048,2048,2048 --batch-size 2048 --epochs ${EPOCHS:-20} --device gpu:0
echo "== Python, same run: one GPU eager and CUDA-graphed, then DistributedDataParallel on GPUs 0 and 1 (NCCL)"
for mode in eager graph ddp; do
  timeout 300 python3 tests/bench/train_ddp.py --mode $mode --gpus 2 --hidden 2048,2048,2048 --batch-size 4096 \
    2>"$W/py-$mode.err" | grep steps_per_s || tail -5 "$W/py-$mode.err"
done
[ "${ONLY_SCALING:-0}" = 1 ] && exit 0
echo "== Gloo where the build has none (a wheel ships no gloo headers): refused at once with exit 2, or trained"
run big-2gpu-gloo "$W/big2g" 4096 -- "${BIG[@]}" --device gpu:0,1 --dist-backend gloo
echo "== default model (32,16), batch 256, 3 epochs: one GPU vs 2 ranks (NCCL)"
run small-1gpu "$W/s1" 256 -- --epochs 3 --device gpu:0
run small-2gpu-nccl "$W/s2" 256 -- --epochs 3 --device gpu:0,1 --dist-backend nccl
