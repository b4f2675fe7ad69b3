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
done
