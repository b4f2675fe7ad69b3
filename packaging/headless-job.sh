#!/usr/bin/env bash
# The headless job: every step runs whatever the previous one returned, the outputs are always listed.
# Usage: packaging/headless-job.sh CLI OUT_DIR
# STACKSCOPE_PYTHON: auto (default: every Python environment with torch is inspected and probed next to libtorch),
# none (libtorch only), or an interpreter's path.
# Exit: 0 all steps ok; 1 a check failed (a probe, a finding); 2 a step could not run (bad input, a crash).
set -uo pipefail
cli=${1:?usage: headless-job.sh CLI OUT_DIR}
out=${2:?usage: headless-job.sh CLI OUT_DIR}
mkdir -p "$out" || { echo "headless-job.sh: cannot create $out; choose another folder with STACKSCOPE_OUT" >&2; exit 2; }

worst=0 # the highest step exit code seen, capped at 2
step() { # step NAME OUTPUT command...: runs one step and records how it ended; never stops the job
  local name=$1 output=$2 rc=0
  shift 2
  echo "run.sh: $name"
  "$@" > "$output" 2> "$output.err" || rc=$?
  if [ "$rc" -eq 0 ]; then
    rm -f "$output.err"
    return 0
  fi
  # A failed step's empty output is no output: the listing then says it is missing, and the report skips it.
  [ -s "$output" ] || rm -f "$output"
  if [ "$rc" -eq 1 ]; then
    echo "run.sh:   $name: a check failed (exit 1); details in $output and $output.err"
  else
    echo "run.sh:   $name could not run (exit $rc); messages in $output.err"
    rc=2
  fi
  if [ "$rc" -gt "$worst" ]; then worst=$rc; fi
  return 0
}

python=${STACKSCOPE_PYTHON:-auto}
inspect_python=(--python-details --collect-env)
probe_python=(--python "$python")
if [ "$python" = none ]; then
  inspect_python=(--no-python)
  probe_python=()
elif [ "$python" != auto ]; then
  inspect_python+=(--python "$python")
fi

step "inspect this machine and its Python environments" "$out/snapshot.json" "$cli" inspect --json "${inspect_python[@]}"
step "diagnose (rules in resources/rules/diagnosis.json)" "$out/findings.json" "$cli" diagnose --snapshot "$out/snapshot.json" --json
step "compatibility probes on the CPU and every GPU, through libtorch and each Python environment with torch" \
  "$out/probes.json" "$cli" probe --json "${probe_python[@]}"
step "sample data (synthetic ES futures, 1-minute bars)" "$out/sample-es-bars.log" "$cli" sample-data --out "$out/sample-es-bars.csv"
step "VPOC per session on the sample data" "$out/vpoc.json" "$cli" vpoc --input "$out/sample-es-bars.csv" --developing "$out/vpoc-developing.csv" --json
step "a short training run on the sample data (GPU 0, else the CPU)" "$out/training.log" "$cli" train --input "$out/sample-es-bars.csv" --output "$out/training" --epochs 3
# The report reads the snapshot of the first step when there is one: it has the Python environments' details and
# collect_env output, which take minutes to gather again.
report_snapshot=()
if [ -s "$out/snapshot.json" ]; then report_snapshot=(--snapshot "$out/snapshot.json"); fi
step "a support report of all the above (private data redacted)" "$out/report.log" "$cli" report --out "$out" --run-dir "$out" "${report_snapshot[@]}"

echo
echo "run.sh: outputs in $out"
listed() { # listed LABEL FILE...: a line per output, saying when a file is missing
  local label=$1 f line=""
  shift
  for f in "$@"; do
    if [ -e "$f" ]; then line+="$f "; else line+="($f missing) "; fi
  done
  printf '  %-28s %s\n' "$label:" "$line"
}
listed "snapshot of this machine" "$out/snapshot.json"
listed "findings with fixes" "$out/findings.json"
listed "probe grid" "$out/probes.json"
listed "VPOC sessions" "$out/vpoc.json" "$out/vpoc-developing.csv"
listed "trained model" "$out/training/model.pt" "$out/training/model_metadata.json" "$out/training.log"
report_folder=$(sed -n 's/^folder: //p' "$out/report.log" 2>/dev/null)
listed "support report" "${report_folder:-$out/report.log}"
case $worst in
  0) echo "run.sh: every step ran and passed" ;;
  1) echo "run.sh: every step ran; at least one check failed (see the messages above)" ;;
  *) echo "run.sh: at least one step could not run (see the messages above); the others ran" ;;
esac
exit "$worst"
