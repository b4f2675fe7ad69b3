#!/usr/bin/env bash
# Probes on the GPU machine: builds stackscope-cli and the torch module with the machine's PyTorch (no Qt),
# runs the full grid on every GPU and the CPU with the A/B variants (TORCH_BLAS_PREFER_CUBLASLT=0/1,
# DISABLE_ADDMM_CUDA_LT=1), injected faults on the GPU, and times the default grid (goal <= 15 s).
# Run from the repository root; writes $OUT/probes.txt and $OUT/probes-*.json. Exit 0 when every check passed.
# STACKSCOPE_CLI=path skips the build and uses that stackscope-cli.
. tests/device/common.sh
device_begin probes "probes device run"
device_build "${BUILD:-build-device-probes}" probes -DCMAKE_BUILD_TYPE=RelWithDebInfo -- stackscope-cli stackscope_torch
[ -f "$(dirname "$CLI")/../lib/stackscope/libstackscope_torch.so" ] || ls "$(dirname "$CLI")"/../lib*/stackscope/ 2>/dev/null
fail=0

summ() { # results JSON on stdin -> one line per non-ok cell and a count
    python3 -c '
import json, sys
d = json.load(sys.stdin)
bad = [r for r in d["results"] if r["outcome"] not in ("ok", "unsupported")]
print("devices:", ", ".join(x["id"] + "=" + x["name"] for x in d["devices"]), "| wall %.2f s" % d["wall_seconds"])
for r in bad:
    print("  NOT OK", r["probe"], r["device"], r["variant"], r["outcome"], r["message"][:300])
for r in d["results"]:
    if r["outcome"] == "unsupported":
        print("  unsupported", r["probe"], r["device"], r["message"][:200])
for ab in d.get("ab", []):
    print("  A/B %s vs %s: %d changed" % (ab["baseline"], ab["variant"], len(ab["changes"])))
    for c in ab["changes"]:
        print("    ", c["probe"], c["device"], c["before"], "->", c["after"], c["message_after"][:200])
print("failures:", d["failures"])
sys.exit(1 if d["failures"] else 0)'
}

echo "== probe --list"
"$CLI" probe --list

echo "== default grid (baseline, CPU + every GPU), text, live"
"$CLI" probe --timeout 30 || { echo "FAIL: default grid exited $?"; fail=1; }

echo "== full grid with A/B variants, JSON"
"$CLI" probe --timeout 30 --env TORCH_BLAS_PREFER_CUBLASLT=0 --env TORCH_BLAS_PREFER_CUBLASLT=1 \
    --env DISABLE_ADDMM_CUDA_LT=1 --json >"$OUT/probes-ab.json" 2>"$OUT/probes-ab.err"
rc=$?
summ <"$OUT/probes-ab.json" || { echo "FAIL: A/B grid has failures (exit $rc)"; fail=1; }
[ "$rc" = 0 ] || { echo "FAIL: A/B grid exit $rc"; cat "$OUT/probes-ab.err"; fail=1; }

echo "== rule variants that apply to this machine"
"$CLI" probe --variant rules --device 0 --probe linear_bf16 --probe matmul_bf16 --json >"$OUT/probes-rules.json" 2>"$OUT/probes-rules.err" \
    && summ <"$OUT/probes-rules.json" || { echo "FAIL: rule variants (exit $?)"; cat "$OUT/probes-rules.err"; fail=1; }

echo "== captured stderr per probe (first lines of non-empty ones, baseline GPU 0)"
python3 - "$OUT/probes-ab.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["device"] == "0" and r["variant"] == "baseline" and r["stderr"].strip():
        print(" ", r["probe"], "|", r["stderr"].strip().splitlines()[0][:200])
for r in d["results"]:
    if r["device"] == "0" and r["variant"] == "baseline":
        print("  %-20s %-11s %7.3f s  %s" % (r["probe"], r["outcome"], r["seconds"], r["message"][:120]))
PY

echo "== injected faults on GPU 0 in the worker (the runner's handling is tested by tst_probe_runner)"
python3 - "$CLI" <<'PY' || fail=1
import json, signal, subprocess, sys
cli, ok = sys.argv[1], True
want = {"crash": -signal.SIGSEGV, "abort": -signal.SIGABRT, "hang": "timeout", "wrong": "wrong", "oom": "error"}
for kind, expect in want.items():
    args = [cli, "probe-worker", "--device", "0", "--probe", "matmul_fp16", "--inject", kind]
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        got = "timeout"
    else:
        res = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
        r = [x for x in res if x.get("type") == "result"]
        got = p.returncode if p.returncode < 0 else (r[0]["outcome"] if r else "no result")
        if r:
            print("   ", kind, "message:", r[0].get("message", "")[:160])
    print("  inject %-6s -> %s (want %s)" % (kind, got, expect))
    ok = ok and got == expect
sys.exit(0 if ok else 1)
PY

echo "== bench probes (default grid wall time, goal <= 15 s)"
"$CLI" bench probes --repeat 3 | tee "$OUT/probes-bench.txt" || fail=1
echo "== bench probes --jobs 1"
"$CLI" bench probes --repeat 1 --jobs 1 || fail=1

echo "== result: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
