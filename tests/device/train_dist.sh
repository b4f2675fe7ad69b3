#!/usr/bin/env bash
# Training over several processes through c10d on one GPU (issue 15): the single-process run, NCCL with world
# size 1, Gloo with 2 ranks sharing the GPU; steps/s and per-epoch validation losses of each, then the c10d
# collective probes with NCCL_DEBUG=INFO. Writes $OUT/train_dist.txt. Usage (repo root): tests/device/train_dist.sh
. tests/device/common.sh
device_begin train_dist "train dist"
W=/tmp/train-dist
rm -rf "$W"; mkdir -p "$W"
device_build "${BUILD:-/tmp/build-dist}" td -DSTACKSCOPE_TESTS=OFF -DCMAKE_BUILD_TYPE=Release -- stackscope-cli stackscope_torch
[ -n "${STACKSCOPE_CLI:-}" ] || grep -E "gloo headers|NCCL" "$OUT/td-cmake.log"
"$CLI" sample-data --out "$W/bars.csv" --days 60 >/dev/null
ARGS=(train --input "$W/bars.csv" --epochs 3 --batch-size 256 --patience 0 --device gpu:0 --json-progress)

run() {  # name output-dir env... -- extra args
  local name=$1 out=$2; shift 2
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" timeout 300 "$CLI" "${ARGS[@]}" --output "$out" "$@" > "$out.jsonl" 2> "$out.err"
  local rc=$?
  [ $rc -eq 0 ] || tail -5 "$out.err"
  python3 tests/device/train_summary.py "$name" "$out" "$out.jsonl" $rc --batch 256
}
echo "== single process, GPU 0 (CUDA graph)"
run single "$W/single" X=1 --
echo "== single process, GPU 0, eager (--no-cuda-graphs: the same execution as the ranks)"
run single-eager "$W/single-eager" X=1 -- --no-cuda-graphs
echo "== NCCL, world size 1 (env:// as torchrun sets it)"
run nccl-ws1 "$W/nccl1" RANK=0 WORLD_SIZE=1 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=29531 -- --dist-backend nccl
echo "== Gloo, 2 ranks sharing GPU 0 (--nproc 2)"
run gloo-2-ranks-one-gpu "$W/gloo2" X=1 -- --nproc 2 --dist-backend gloo
[ "${SKIP_PROBES:-0}" = 1 ] && exit 0
echo "== c10d collective probes (NCCL over every GPU, Gloo on the CPU), NCCL_DEBUG=INFO kept in details"
timeout 600 "$CLI" probe --probe all_reduce --probe broadcast --probe barrier --json > "$W/probes.json"; echo "rc=$?"
python3 - "$W/probes.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc.get("results", []):
    d = r.get("details", {})
    print("PROBE %-10s device=%-4s outcome=%-11s %s" % (r.get("probe"), r.get("device"), r.get("outcome"), r.get("message", "")[:160]))
    for line in d.get("nccl_debug", [])[:12]:
        print("   ", line)
PY
