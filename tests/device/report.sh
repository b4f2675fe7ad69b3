#!/usr/bin/env bash
# Support report on the GPU machine: builds stackscope-cli (no Qt there), writes a redacted report with the probe grid
# and a telemetry sample, checks that this machine's host name, user, GPU UUIDs and IP/MAC addresses are in no file
# nor zip entry, writes one with --no-redact, diffs the live snapshot with the recorded H100 root, times it all.
# Run from the repository root; writes $OUT/report.txt (and report-sample.md). Exit status: 0 when every check passed.
# STACKSCOPE_CLI=path skips the build and uses that stackscope-cli.
. tests/device/common.sh
device_begin report "report device run"
device_build "${BUILD:-build-device-report}" report -DCMAKE_BUILD_TYPE=RelWithDebInfo -- stackscope-cli
fail=0
WORK=$(mktemp -d)

# The private values of this machine that must not survive redaction.
SECRETS="$WORK/secrets.txt"
{
    hostname; hostname -s; id -un; echo "$HOME"
    nvidia-smi -L 2>/dev/null | sed -n 's/.*UUID: \(GPU-[0-9a-f-]*\).*/\1/p'
    nvidia-smi --query-gpu=serial --format=csv,noheader 2>/dev/null | grep -v -i 'n/a'
    hostname -I 2>/dev/null | tr ' ' '\n'
    ip -o link 2>/dev/null | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p' | grep -v '^00:00:00:00:00:00$'
} | grep -v -x -e '' -e root -e /root -e localhost | sort -u > "$SECRETS"
echo "private values checked: $(wc -l < "$SECRETS") (host, user, home, GPU UUIDs/serials, IP and MAC addresses)"

scan() { # scan FOLDER ZIP: prints each secret found in a file or a zip entry
    python3 - "$SECRETS" "$1" "$2" <<'PY'
import os, sys, zipfile
secrets = [s for s in open(sys.argv[1]).read().split("\n") if s]
found = 0
for root, _, files in os.walk(sys.argv[2]):
    for f in files:
        data = open(os.path.join(root, f), "rb").read()
        for s in secrets:
            if s.encode() in data:
                print(f"  {os.path.join(root, f)} holds a private value (length {len(s)})"); found += 1
if not os.path.isfile(sys.argv[3]):
    print("  no zip to scan (stackscope-cli was built without libarchive: install libarchive-dev)")
    names = []
    z = None
else:
    z = zipfile.ZipFile(sys.argv[3])
    names = z.namelist()
if z:
    for name in names:
        if name.startswith("/") or ".." in name.split("/"):
            print(f"  zip entry with an unsafe path: {name}"); found += 1
        data = z.read(name)
        for s in secrets:
            if s.encode() in data:
                print(f"  zip entry {name} holds a private value (length {len(s)})"); found += 1
    print(f"  zip entries scanned: {len(names)}")
print(f"  private values found: {found}")
sys.exit(1 if found else 0)
PY
}
field() { sed -n "s/^$1: //p" "$2"; }

echo "== report with the probe grid and telemetry (redacted)"
start=$(date +%s.%N)
"$CLI" report --out "$WORK/redacted" --run-probes > "$WORK/redacted.out" 2> "$WORK/redacted.err"
rc=$?
end=$(date +%s.%N)
cat "$WORK/redacted.out"
echo "exit $rc, $(python3 -c "print(f'{$end-$start:.2f}')") s wall (inspection, archscan, probes, telemetry, writing)"
[ $rc = 0 ] || { echo "FAIL: report exited $rc"; tail -20 "$WORK/redacted.err"; fail=1; }
FOLDER=$(field folder "$WORK/redacted.out"); ZIP=$(field zip "$WORK/redacted.out" | grep -v '^not written')
if [ -n "$FOLDER" ] && [ -d "$FOLDER" ]; then
    ls -la "$FOLDER" "$FOLDER"/*/ | sed 's/^/  /'
    [ -n "$ZIP" ] && ls -l "$ZIP" | awk '{print "  zip bytes:", $5}'
    scan "$FOLDER" "$ZIP" || { echo "FAIL: a private value survived redaction"; fail=1; }
    python3 - "$FOLDER/report.json" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
print("  redaction:", json.dumps(r["redaction"]["replaced"]))
print("  GPUs:", [(g.get("name"), g.get("arch")) for g in r["snapshot"]["gpus"]])
res = (r.get("probes") or {}).get("results", [])
print(f"  probe results: {len(res)}, not ok: {sum(1 for x in res if x['outcome'] not in ('ok', 'unsupported'))}")
print("  findings:", [f["id"] for f in r["findings"]])
t = r["telemetry"]
print("  telemetry available:", t.get("available"), t.get("reason", ""))
for g in t.get("gpus", []):
    q = g["quantities"]
    print("   ", g["id"], {k: round(v["mean"], 1) for k, v in q.items()})
ok = r["schema"] == "stackscope.report/1" and len(res) > 0 and t.get("available") is True
print("  checks:", "ok" if ok else "FAIL (schema, probe results and NVML telemetry expected)")
sys.exit(0 if ok else 1)
PY
    cp "$FOLDER/report.md" "$OUT/report-sample.md"
    LOADED=${ZIP:-$FOLDER}
    echo "== diff of $( [ -n "$ZIP" ] && echo "the zip" || echo "report.json") with its folder (exit 0 expected)"
    "$CLI" diff "$FOLDER" "$LOADED"; r=$?; echo "exit $r"; [ $r = 0 ] || fail=1
    echo "== load timing: diff $(basename "$LOADED") with itself, 5 runs"
    for i in 1 2 3 4 5; do
        s=$(date +%s.%N); "$CLI" diff "$LOADED" "$LOADED" >/dev/null; e=$(date +%s.%N)
        python3 -c "print(f'  run $i: {$e-$s:.3f} s')"
    done
fi

echo "== report --no-redact (host name kept)"
"$CLI" report --out "$WORK/plain" --no-redact --no-archscan > "$WORK/plain.out" 2> "$WORK/plain.err"; rc=$?
echo "exit $rc"
PF=$(field folder "$WORK/plain.out")
if [ $rc = 0 ] && grep -q "\"$(hostname)\"" "$PF/report.json"; then echo "  host name present: ok"; else echo "FAIL: --no-redact lost the host name"; fail=1; fi

echo "== diff: this machine vs the recorded ubuntu2404-h100 root (exit 1 expected when they differ)"
"$CLI" inspect --json --no-archscan > "$WORK/live.json" 2>/dev/null
"$CLI" inspect --json --no-archscan --root tests/fixtures/roots/ubuntu2404-h100 > "$WORK/recorded.json" 2>/dev/null
"$CLI" diff "$WORK/live.json" "$WORK/recorded.json"; echo "exit $?"

echo "== bad input (exit 2 expected)"
"$CLI" diff /nonexistent.json "$WORK/live.json"; r=$?; echo "exit $r"; [ $r = 2 ] || fail=1

rm -rf "$WORK"
echo "== result: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
