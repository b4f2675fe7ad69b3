#!/usr/bin/env bash
# Where the fused training step's time goes (issue 18): Nsight Compute on one launch of the fused step kernel
# (fusedSteps, 50 steps at batch 256 with the default model): duration, warp stall reasons, issue activity.
# Needs STACKSCOPE_CLI (a CUDA build). Writes $OUT/fused_profile.txt.
. tests/device/common.sh
device_begin fused_profile "fused step profile"
CLI=${STACKSCOPE_CLI:?set STACKSCOPE_CLI to a CUDA build of stackscope-cli} # no build here
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "ncu not found"; exit 1; }
W=/tmp/fused-profile
mkdir -p "$W"
"$CLI" sample-data --out "$W/bars.csv" --days 60 >/dev/null
for batch in ${BATCHES:-256 8}; do
  echo "== batch $batch: one launch of fusedSteps (50 steps), launch 3 of the run"
  timeout 240 "$NCU" -k regex:fusedSteps --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy \
    "$CLI" train --input "$W/bars.csv" --output "$W/out-$batch" --epochs 1 --batch-size "$batch" --device gpu:0 \
    --patience 0 > "$W/ncu-$batch.txt" 2>&1; echo "ncu rc=$?"
  grep -E "Duration|Warp Cycles Per Issued|Stall|Issued Ipc|Issue Slots|No Eligible|Active Warps Per|Eligible Warps|Registers|Achieved Occupancy|Block Size|Barrier|Long Scoreboard|Short Scoreboard|MIO|Wait|Math Pipe|LG Throttle|Branch" "$W/ncu-$batch.txt" | head -60
  grep -A3 -E "^    (WRN|OPT)" "$W/ncu-$batch.txt" | head -40
  [ "${SOURCE:-0}" = 1 ] || continue
  # Where the warps stall, by CUDA source line (needs a build with CUDAFLAGS=-lineinfo): the same launch again with
  # the source counters, then the 25 lines with the most stall samples.
  echo "== batch $batch: stall samples by source line"
  timeout 240 "$NCU" -k regex:fusedSteps --launch-skip 2 --launch-count 1 --section SourceCounters \
    --section WarpStateStats --import-source yes -f -o "$W/src-$batch" \
    "$CLI" train --input "$W/bars.csv" --output "$W/src-out-$batch" --epochs 1 --batch-size "$batch" --device gpu:0 \
    --patience 0 > "$W/src-$batch.log" 2>&1; echo "ncu source rc=$?"
  "$NCU" -i "$W/src-$batch.ncu-rep" --page source --csv --print-source cuda > "$W/src-$batch.csv" 2>&1
  echo "ncu source page rc=$? ($(wc -l < "$W/src-$batch.csv") lines)"
  python3 - "$W/src-$batch.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], errors="replace")))
head = next((i for i, r in enumerate(rows) if any("Stall" in c or "Sampl" in c for c in r)), None)
if head is None:
    print("no stall column; first lines:", rows[:5])
    sys.exit(0)
names = rows[head]
col = next(i for i, c in enumerate(names) if "Sampl" in c and "Not" not in c)
print("columns:", names[:8], "... sorting by", names[col])
def num(v):
    try:
        return float(v.replace(",", ""))
    except ValueError:
        return 0.0
body = [r for r in rows[head + 1:] if len(r) > col]
total = sum(num(r[col]) for r in body) or 1
for r in sorted(body, key=lambda r: -num(r[col]))[:25]:
    print("%6.2f %%  %s" % (100 * num(r[col]) / total, " | ".join(c.strip()[:110] for c in r[:2])))
PY
done
