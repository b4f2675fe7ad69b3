#!/usr/bin/env bash
# Several GPUs through c10d (issues 15 and 37), GPUS=2 or 4 (default: every GPU, at most 4): the big model (--hidden
# 2048,2048,2048, batch 4096) on one GPU, on one GPU at the per-rank batch (the ceiling: what each rank computes, no
# collectives), on N ranks with the step and its NCCL all-reduces in one CUDA graph, eagerly (--no-cuda-graphs), and
# PyTorch's DistributedDataParallel (tests/bench/train_ddp.py), all in this run; then the default model on one GPU
# and on 2 ranks (the ranks' note compares them); then the failure paths on GPUs: SIGSTOP of a rank (named with its
# last collective within --dist-timeout + 5 s), kill -9 of a rank of GPUS then --resume (the losses must equal the
# uninterrupted run's), and a two-"node" layout on one host (2 torchrun agents, c10d rendezvous).
# Writes $OUT/multi_gpu.txt. ONLY_SCALING=1 stops after the big model; SKIP_SCALING=1 and SKIP_KILL=1 leave those out. Usage (repo root): GPUS=4 tests/device/multi_gpu.sh
. tests/device/common.sh
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 # never NVLink multicast here
device_begin multi_gpu "several GPUs"
nvidia-smi topo -m 2>/dev/null | head -6
HAVE=$(nvidia-smi -L 2>/dev/null | wc -l)
GPUS=${GPUS:-$(( HAVE < 4 ? HAVE : 4 ))}
[ "$HAVE" -ge "$GPUS" ] && [ "$GPUS" -ge 2 ] || { echo "FAIL: GPUS=$GPUS but $HAVE GPU(s) here"; exit 1; }
W=/tmp/multi-gpu
rm -rf "$W"; mkdir -p "$W"
device_build "${BUILD:-/tmp/build-multi-gpu}" mg -DSTACKSCOPE_TESTS=OFF -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_NCCL=ON \
  -DSTACKSCOPE_HIP=OFF -DCMAKE_CUDA_ARCHITECTURES=90-real -- stackscope-cli stackscope_torch
echo "== build done $(date -u +%T)"
# The binaries, for a later call on a warm or fresh machine (carry them back as STACKSCOPE_CLI).
[ -z "${STACKSCOPE_CLI:-}" ] && tar -czf "$OUT/bin.tgz" -C "${BUILD:-/tmp/build-multi-gpu}" bin/stackscope-cli lib/stackscope \
  && ls -la "$OUT/bin.tgz"
"$CLI" sample-data --out "$W/bars.csv" --days ${DAYS:-250} >/dev/null
list() { seq -s, 0 $(( $1 - 1 )); } # list 4 -> 0,1,2,3

run() {  # name output-dir batch -- args
  local name=$1 out=$2 batch=$3; shift 4
  local t0=$(date +%s.%N)
  timeout ${RUN_LIMIT:-150} "$CLI" train --input "$W/bars.csv" --patience 0 --json-progress --output "$out" "$@" \
    > "$out.jsonl" 2> "$out.err"
  local rc=$?
  [ $rc -eq 0 ] || tail -12 "$out.err"
  grep -h "destroy_process_group" "$out.err" | head -2
  grep -h '"note"' "$out.jsonl" | grep -E "graph|processes run" | cut -c1-400
  python3 tests/device/train_summary.py "$name" "$out" "$out.jsonl" $rc --batch "$batch" \
    --wall "$(python3 -c "import time; print('%.1f' % (time.time() - $t0))")"
}
EP=${EPOCHS:-12}
BIG=(--hidden 2048,2048,2048 --epochs $EP)
if [ "${SKIP_SCALING:-0}" != 1 ]; then
echo "== big model (hidden 2048,2048,2048, global batch 4096), $EP epochs, $GPUS GPUs $(date -u +%T)"
run big-1gpu "$W/big1" 4096 -- "${BIG[@]}" --batch-size 4096 --device gpu:0
for n in 2 $([ "$GPUS" -ge 4 ] && echo 4); do
  run big-1gpu-ceiling-$n "$W/ceil$n" $(( 4096 / n )) -- "${BIG[@]}" --batch-size $(( 4096 / n )) --device gpu:0
  run big-${n}rank-graph "$W/big$n" 4096 -- "${BIG[@]}" --batch-size 4096 --device gpu:$(list $n)
  run big-${n}rank-eager "$W/big${n}e" 4096 -- "${BIG[@]}" --batch-size 4096 --device gpu:$(list $n) --no-cuda-graphs
  timeout 120 python3 tests/bench/train_ddp.py --mode ddp --gpus $n --hidden 2048,2048,2048 --batch-size 4096 \
    2>"$W/ddp$n.err" | grep steps_per_s || tail -5 "$W/ddp$n.err"
done
python3 - "$W" <<'PY'
import json, sys, os
w = sys.argv[1]
def losses(d):
    try:
        return [e["val_loss"] for e in json.load(open(os.path.join(w, d, "model_metadata.json")))["epochs"]]
    except (OSError, ValueError, KeyError):
        return []
one = losses("big1")
for d in ("big2", "big2e", "big4", "big4e"):
    other = losses(d)
    if one and other:
        rel = [abs(a - b) / abs(b) for a, b in zip(other, one)]
        print("LOSS %-6s epoch 1 relative difference to one GPU %.3g (epochs 1-3: %s)" % (
            d, rel[0], ", ".join("%.3g" % r for r in rel[:3])))
PY
fi
[ "${ONLY_SCALING:-0}" = 1 ] && exit 0

echo "== default model (32,16), batch 256, 2 epochs: one GPU (fused kernel) vs 2 ranks $(date -u +%T)"
run small-1gpu "$W/s1" 256 -- --epochs 2 --device gpu:0
run small-2rank "$W/s2" 256 -- --epochs 2 --device gpu:0,1

echo "== SIGSTOP of rank 1 (2 ranks, graphed, --dist-timeout 10) $(date -u +%T)"
stop_rank() { # launcher-pid rank signal: the child of the launcher whose environment says RANK=rank
  for p in $(pgrep -P "$1"); do
    tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "RANK=$2" && { kill -"$3" "$p"; echo "sent SIG$3 to rank $2 (pid $p)"; return; }
  done
  echo "rank $2 not found"
}
wait_epochs() { # output-dir n launcher-pid: until model_metadata.json lists n epochs (at most 60 s, or the launcher ends)
  for _ in $(seq 600); do
    kill -0 "$3" 2>/dev/null || { echo "the run ended before epoch $2:"; return 1; }
    python3 -c "import json,sys; sys.exit(0 if len(json.load(open('$1/model_metadata.json'))['epochs']) >= $2 else 1)" \
      2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}
"$CLI" train --input "$W/bars.csv" --patience 0 --output "$W/hang" --hidden 2048,2048,2048 --epochs 400 --batch-size 4096 \
  --device gpu:0,1 --dist-timeout 10 > "$W/hang.out" 2> "$W/hang.err" &
L=$!
wait_epochs "$W/hang" 1 $L && sleep 1
stop_rank $L 1 STOP
T0=$(date +%s.%N)
timeout 60 tail -s 0.1 --pid=$L -f /dev/null
for p in $(pgrep -P $L); do kill -9 $p; done; kill -9 $L 2>/dev/null # only if the launcher outlived the 60 s
echo "RESULT sigstop: the run ended $(python3 -c "import time; print('%.2f' % (time.time() - $T0))") s after the stop (timeout 10 s)"
cat "$W/hang.err" | cut -c1-600 | head -20
ls "$W/hang" | grep flight

if [ "${SKIP_KILL:-0}" != 1 ]; then
echo "== kill -9 of rank 1 of $GPUS, then --resume: losses against the uninterrupted $GPUS-rank run (big$GPUS, $EP epochs) $(date -u +%T)"
"$CLI" train --input "$W/bars.csv" --patience 0 --output "$W/killed" "${BIG[@]}" --batch-size 4096 --device gpu:$(list $GPUS) \
  > "$W/killed.out" 2> "$W/killed.err" &
L=$!
wait_epochs "$W/killed" 3 $L
stop_rank $L 1 KILL
wait "$L"; echo "launcher exit $?"; grep -E "rank 1|flight recorder" "$W/killed.err" | cut -c1-300 | head -5
run resumed "$W/killed" 4096 -- "${BIG[@]}" --batch-size 4096 --device gpu:$(list $GPUS) --resume
python3 - "$W" "big$GPUS" <<'PY'
import json, sys, os
w = sys.argv[1]
a = [e["val_loss"] for e in json.load(open(os.path.join(w, sys.argv[2], "model_metadata.json")))["epochs"]]
b = [e["val_loss"] for e in json.load(open(os.path.join(w, "killed", "model_metadata.json")))["epochs"]]
same = sum(1 for x, y in zip(a, b) if x == y)
print("RESUME epochs %d vs %d; identical val_loss in %d of %d; max relative difference %.3g" % (
    len(b), len(a), same, min(len(a), len(b)), max((abs(x - y) / abs(x) for x, y in zip(a, b)), default=float("nan"))))
PY

fi
echo "== two 'nodes' on one host: 2 torchrun agents x $(( GPUS / 2 )) rank(s), c10d rendezvous $(date -u +%T)"
PER=$(( GPUS / 2 ))
AGENTS=()
for node in 0 1; do
  CUDA_VISIBLE_DEVICES=$(seq -s, $(( node * PER )) $(( node * PER + PER - 1 ))) timeout -k 5 ${NODES_LIMIT:-90} \
    python3 -m torch.distributed.run \
    --nnodes 2 --nproc-per-node $PER --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29655 --rdzv-id ss37 --no-python \
    "$CLI" train --input "$W/bars.csv" --patience 0 --json-progress --output "$W/nodes" --hidden 2048,2048,2048 \
    --epochs 4 --batch-size 4096 --device gpu:$(list $PER) > "$W/node$node.jsonl" 2> "$W/node$node.err" &
  AGENTS+=($!)
done
wait "${AGENTS[@]}" # by pid: a bare `wait` also waits for the tee of device_begin, which never ends
for node in 0 1; do echo "-- agent $node stderr (last lines)"; grep -v "^\s*$" "$W/node$node.err" | tail -8 | cut -c1-300; done
cat "$W"/node0.jsonl "$W"/node1.jsonl | grep -h '"finished"' | head -2 | cut -c1-300
cat "$W"/node0.jsonl "$W"/node1.jsonl > "$W/nodes.jsonl"
python3 tests/device/train_summary.py two-nodes "$W/nodes" "$W/nodes.jsonl" 0 --batch 4096
echo "== done $(date -u +%T)"
