#!/usr/bin/env bash
# The Training page on a CUDA machine. The page needs Qt: where Qt 6 (Widgets, Charts, Test) is found it
# builds tst_training_page and runs it on gpu:0 (STACKSCOPE_TRAINING_TEST_DEVICE), which then also checks
# that the memory chart fills (VRAM used, allocator allocated/reserved) and logs the longest GUI-thread
# stall. Without Qt it checks, through stackscope-cli train --json-progress on gpu:0, that the step events
# carry the memory figures the page charts. Writes what it measured to $OUT/training_gui.txt.
# SRC (default .) is the source tree, B the build folder, JOBS the build jobs, SOURCE_REV the commit SRC holds.
SRC=${SRC:-.}
JOBS=${JOBS:-$(nproc)}
B=${B:-build-device-training-gui}
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" # beside this script: SRC may be another tree
device_begin training_gui "training page device run"
echo "$(nproc) CPUs, source ${SOURCE_REV:-$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo "unknown (set SOURCE_REV)")}"
t0=$(date +%s)
# GUI on where Qt is there: the page test is the point; off otherwise (the CLI check below still runs).
# Always built (STACKSCOPE_CLI is ignored): the page test and the module folder are the build's.
STACKSCOPE_CLI= device_build "$B" training_gui -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_GUI=ON -DSTACKSCOPE_HIP=OFF \
  -DCMAKE_CUDA_ARCHITECTURES=90-real -- stackscope-cli stackscope_torch
HAVE_QT=0
if ninja -C "$B" -t targets all 2>/dev/null | grep -q '^tst_training_page:'; then HAVE_QT=1; fi
if [ "$HAVE_QT" = 1 ]; then
  ninja -C "$B" -j"$JOBS" tst_training_page >> "$OUT/training_gui-build.log" 2>&1 \
    || { echo "build failed:"; grep -E "error|FAILED" "$OUT/training_gui-build.log" | head -40; exit 1; }
fi
echo "build: $(( $(date +%s) - t0 )) s (Qt found: $HAVE_QT)"
export STACKSCOPE_MODULE_DIR="$B/lib/stackscope"

if [ "$HAVE_QT" = 1 ]; then
  echo "== tst_training_page on gpu:0 (offscreen): runs, Stop within 1 s, Resume, memory chart, GUI stall"
  (cd "$B" && STACKSCOPE_TRAINING_TEST_DEVICE=gpu:0 ctest -R '^tst_training_page$' -V 2>&1 \
     | grep -E "QINFO|PASS|FAIL|SKIP|Loc:|Actual|Expected|tests passed|Totals") ; echo "rc=$?"
else
  echo "== no Qt 6 (Widgets, Charts, Test) on this machine: tst_training_page not built; the lead's GUI run"
  echo "   happens where Qt is installed (apt-get install qt6-base-dev qt6-charts-dev)"
fi

echo "== what the memory chart draws: step events of a gpu:0 run (stackscope-cli train --json-progress)"
"$CLI" sample-data --out "$OUT/tg-sample.csv" --days 20
"$CLI" train --input "$OUT/tg-sample.csv" --output "$OUT/tg-run" --device gpu:0 --epochs 3 \
    --step-interval 10 --json-progress > "$OUT/tg-progress.jsonl" 2> "$OUT/tg-train.err"; echo "train rc=$?"
tail -3 "$OUT/tg-train.err"
python3 - "$OUT/tg-progress.jsonl" <<'PY'
import json, sys
steps = [e for e in map(json.loads, open(sys.argv[1])) if e.get("event") == "step"]
def has(k): return sum(1 for e in steps if e.get(k, -1) >= 0)
print(f"step events: {len(steps)}; with allocated_bytes: {has('allocated_bytes')}, reserved_bytes: "
      f"{has('reserved_bytes')}, device_used_bytes: {has('device_used_bytes')}")
if steps:
    last = steps[-1]
    mib = lambda k: f"{last[k] / 2**20:.1f} MiB" if last.get(k, -1) >= 0 else "absent"
    print("last step: allocated", mib("allocated_bytes"), "| reserved", mib("reserved_bytes"),
          "| device used", mib("device_used_bytes"), "| eta_s", last.get("eta_s"))
print("memory chart would fill:", bool(steps) and has("allocated_bytes") == len(steps))
PY
rm -rf "$OUT/tg-sample.csv" "$OUT/tg-run"
