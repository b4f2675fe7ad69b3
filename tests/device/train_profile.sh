#!/usr/bin/env bash
# Where a training step's time goes on the GPU (issue 18): kernels per step and their GPU time, for StackScope's
# trainer run eagerly (the graph replays the same kernels) and for the Python eager step, with Nsight Compute.
# Run after tests/device/train_baselines.sh (it reuses its build and its dataset). Writes $OUT/train_profile.txt.
. tests/device/common.sh
device_begin train_profile "training step profile"
BUILD=${BUILD:-/tmp/build-margins} # train_baselines.sh's build: no build here
CLI=${STACKSCOPE_CLI:-$BUILD/bin/stackscope-cli}
W=/tmp/train-baselines
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "ncu not found"; exit 1; }
# Kernel names and durations of 400 consecutive kernels well after the start; the step's kernel sequence repeats,
# so kernels per step = distance between two launches of the step's first kernel (printed by the summary below).
profile() { # name, command...
  local name=$1; shift
  timeout 240 "$NCU" --launch-skip 3000 --launch-count 400 --metrics gpu__time_duration.sum --csv "$@" \
    >"$W-$name-ncu.csv" 2>"$W-$name-ncu.err"; echo "$name ncu rc=$?"
  python3 - "$W-$name-ncu.csv" "$name" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: print(sys.argv[2], "no ncu rows"); sys.exit()
h = rows[0]; ki = h.index("Kernel Name"); vi = h.index("Metric Value"); ui = h.index("Metric Unit"); ii = h.index("ID")
ks = []
for r in rows[1:]:
    v = float(r[vi].replace(",", "")); v = v / 1000 if r[ui] == "nsecond" else v * (1000 if r[ui] == "msecond" else 1)
    ks.append((r[ki][:60], v))
names = [k for k, _ in ks]
# The period: the smallest p such that the name sequence repeats with period p over the window.
period = next((p for p in range(5, 200) if all(names[i] == names[i + p] for i in range(len(names) - p))), None)
print(f"{sys.argv[2]}: kernels per step {period}")
if period:
    step = ks[:period]
    print(f"{sys.argv[2]}: GPU time per step {sum(v for _, v in step):.1f} us (sum of kernel durations)")
    for n, v in step: print(f"  {v:8.2f} us  {n}")
PY
}
profile stackscope-eager "$CLI" train --input $W/b256/sample-es-bars.csv --output /tmp/tp-out --epochs 1 --device gpu:0 --no-cuda-graphs --step-interval 1000
profile python-eager python3 tests/bench/train_python.py --mode eager --dataset $W/b256/dataset.pt --epochs 1
