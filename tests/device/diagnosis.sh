#!/usr/bin/env bash
# Diagnosis on the GPU machine: builds stackscope-cli (no Qt there), diagnoses the machine itself, replays every
# recorded fixture through the CLI (match must raise its rule, near-miss must not), times a large log.
# Run from the repository root; writes $OUT/diagnosis.txt. Exit status: 0 when every check passed.
# STACKSCOPE_CLI=path skips the build and uses that stackscope-cli.
. tests/device/common.sh
device_begin diagnosis "diagnosis device run"
device_build "${BUILD:-build-device-diagnosis}" diagnosis -DCMAKE_BUILD_TYPE=RelWithDebInfo -- stackscope-cli
fail=0

rules_of() { python3 -c 'import json,sys; print(" ".join(f["id"] for f in json.load(sys.stdin)["findings"]))'; }

echo "== this machine (live snapshot)"
if "$CLI" diagnose --json >"$OUT/diagnosis-live.json" 2>"$OUT/diagnosis-live.err"; then
    echo "exit 0; findings: $(rules_of <"$OUT/diagnosis-live.json")"
else
    echo "FAIL: diagnose on this machine exited $?"; cat "$OUT/diagnosis-live.err"; fail=1
fi
"$CLI" inspect --json >"$OUT/diagnosis-live-snapshot.json" 2>/dev/null || true

echo "== recorded fixtures through the CLI"
F=tests/fixtures/diagnosis
NEUTRAL="$F/snapshots/VERSION_STREAM/nearmiss-rocm-7.2.json"
checked=0
for kind in logs snapshots; do
    for dir in "$F/$kind"/*/; do
        rule=$(basename "$dir")
        for file in "$dir"*; do
            if [ "$kind" = logs ]; then args=(--snapshot "$NEUTRAL" --log "$file"); else args=(--snapshot "$file"); fi
            got=$("$CLI" diagnose "${args[@]}" --json | rules_of) || { echo "FAIL: $file: CLI error"; fail=1; continue; }
            case "$(basename "$file")" in
                match*) echo " $got " | grep -q " $rule " || { echo "FAIL: $file did not raise $rule (got: $got)"; fail=1; } ;;
                *) echo " $got " | grep -q " $rule " && { echo "FAIL: near-miss $file raised $rule"; fail=1; } ;;
            esac
            checked=$((checked + 1))
        done
    done
done
echo "fixtures checked: $checked"

echo "== timing: 1,000,000-line log (ANSI colours, CRLF), 3 runs"
python3 - "$OUT/diagnosis-big.log" <<'PY'
import random, sys
random.seed(1)
out = []
for i in range(1_000_000):
    if i % 100000 == 5:
        out.append("linear.py:125: UserWarning: Attempting to use hipBLASLt on an unsupported architecture! Overriding blas backend to hipblas (Triggered internally at ../aten/src/ATen/Context.cpp:296.)")
    elif i % 250000 == 7:
        out.append("RuntimeError: HIP error: invalid device function")
    else:
        out.append(f"\x1b[32m[rank0]\x1b[0m step {i} loss {random.random():.4f} lr 3e-4 grad_norm {random.random()*5:.3f} tokens/s 123456")
open(sys.argv[1], "w").write("\r\n".join(out) + "\r\n")
PY
ls -l "$OUT/diagnosis-big.log" | awk '{print "log bytes:", $5}'
for i in 1 2 3; do
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "run $i: %e s wall, %M KB max RSS" "$CLI" diagnose --snapshot "$NEUTRAL" --log "$OUT/diagnosis-big.log" --json >/dev/null
    else
        TIMEFORMAT="run $i: %R s wall"
        time "$CLI" diagnose --snapshot "$NEUTRAL" --log "$OUT/diagnosis-big.log" --json >/dev/null
    fi
done
rm -f "$OUT/diagnosis-big.log"

echo "== result: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
