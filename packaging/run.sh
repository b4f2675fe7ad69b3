#!/usr/bin/env bash
# Sets up, builds and starts StackScope. With no display it runs the headless job instead and says so.
# Usage: packaging/run.sh [arguments for stackscope]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
build=${STACKSCOPE_BUILD_DIR:-$top/build}

"$here/build.sh" "$build" -DSTACKSCOPE_TESTS=OFF

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$build/bin/stackscope" ]; then
  exec "$build/bin/stackscope" "$@"
fi

out=${STACKSCOPE_OUT:-$top/stackscope-out}
mkdir -p "$out"
if [ ! -x "$build/bin/stackscope" ]; then
  echo "run.sh: the GUI was not built (Qt 6 missing); running the headless job instead."
else
  echo "run.sh: no display (DISPLAY and WAYLAND_DISPLAY are unset); running the headless job instead."
  echo "run.sh: to see the GUI, run this from a desktop session, or: QT_QPA_PLATFORM=offscreen $build/bin/stackscope --screenshot shot.png"
fi
cli="$build/bin/stackscope-cli"
status=0
step() { # step NAME OUTPUT command...: runs one headless step, keeps going when it fails
  local name=$1 output=$2; shift 2
  echo "run.sh: $name"
  if "$@" > "$output" 2> "$output.err"; then rm -f "$output.err"; else
    local rc=$?
    echo "run.sh:   $name exited $rc (1 = a check failed, 2 = bad input); messages in $output.err"
    [ "$rc" -ge 2 ] && status=1
  fi
}
step "inspect this machine" "$out/snapshot.json" "$cli" inspect --json
step "diagnose (rules in resources/rules/diagnosis.json)" "$out/findings.json" "$cli" diagnose --snapshot "$out/snapshot.json" --json
step "compatibility probes on the CPU and every GPU" "$out/probes.json" "$cli" probe --json
step "sample data (synthetic ES futures, 1-minute bars)" "$out/sample-es-bars.log" "$cli" sample-data --out "$out/sample-es-bars.csv"
step "VPOC per session on the sample data" "$out/vpoc.json" "$cli" vpoc --input "$out/sample-es-bars.csv" --developing "$out/vpoc-developing.csv" --json
step "a short training run on the sample data (GPU 0, else the CPU)" "$out/training.log" "$cli" train --input "$out/sample-es-bars.csv" --output "$out/training" --epochs 3
step "a support report of all the above (private data redacted)" "$out/report.log" "$cli" report --out "$out" --run-dir "$out"
echo
echo "run.sh: outputs in $out"
echo "  snapshot of this machine:   $out/snapshot.json"
echo "  findings with fixes:        $out/findings.json"
echo "  probe grid:                 $out/probes.json"
echo "  VPOC sessions:              $out/vpoc.json (developing values: $out/vpoc-developing.csv)"
echo "  trained model:              $out/training/model.pt, $out/training/model_metadata.json (log: $out/training.log)"
echo "  support report:             $(sed -n 's/^folder: //p' "$out/report.log" 2>/dev/null) and its .zip (log: $out/report.log)"
exit $status
