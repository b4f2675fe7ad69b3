#!/usr/bin/env bash
# Python probes on the GPU machine: builds stackscope-cli and the torch module with the machine's PyTorch (no Qt),
# inspects the Python environments (details + collect_env), runs the full Python grid (torch.compile, SDPA per
# backend, DataParallel, torch.distributed nccl with world size 1 and gloo, user checks) on every GPU and the CPU,
# injects faults into the Python worker on GPU 0, and times the default grid (libtorch + this python3, CPU + one
# GPU) with a cold and a warm inductor/Triton cache (goals: <= 60 s cold, <= 20 s warm).
# Run from the repository root; writes $OUT/python-probes.txt and $OUT/python-*.json. Exit 0 when every check passed.
# STACKSCOPE_CLI=path skips the build; PY=interpreter (default: python3 on PATH).
set -u -o pipefail
OUT=${OUT:-/tmp/stackscope-out}
mkdir -p "$OUT"
REPORT="$OUT/python-probes.txt"
BUILD=${BUILD:-build-device-probes}
PY=${PY:-$(command -v python3)}
PREFIX="$("$PY" -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null)"
exec > >(tee "$REPORT") 2>&1
echo "== python probes device run $(date -u +%FT%TZ) on $(hostname -s 2>/dev/null || echo ?)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "nvidia-smi: not available"
"$PY" -c 'import torch, sys; print(sys.executable, "torch", torch.__version__, "cuda", torch.version.cuda, "hip", torch.version.hip)'

if [ -n "${STACKSCOPE_CLI:-}" ]; then
    CLI="$STACKSCOPE_CLI"
else
    cmake -S . -B "$BUILD" -G Ninja -DSTACKSCOPE_GUI=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_PREFIX_PATH=$PREFIX" \
        >"$OUT/python-cmake.log" 2>&1 || { echo "FAIL: cmake (see python-cmake.log)"; tail -30 "$OUT/python-cmake.log"; exit 1; }
    ninja -C "$BUILD" stackscope-cli stackscope_torch >"$OUT/python-build.log" 2>&1 \
        || { echo "FAIL: build (see python-build.log)"; grep -E "error|Error" "$OUT/python-build.log" | head -40; exit 1; }
    CLI="$BUILD/bin/stackscope-cli"
fi
WORKER="$(dirname "$CLI")/../share/stackscope/python/stackscope_probe_worker.py"
[ -f "$WORKER" ] || { echo "FAIL: the Python worker is not at $WORKER"; exit 1; }
fail=0

summ() { # probe JSON on stdin -> per environment: every cell, the non-ok ones marked; exit 1 on failures
    "$PY" -c '
import json, sys
d = json.load(sys.stdin)
for e in d.get("environments", []):
    print("environment", e["name"], "| devices:", ", ".join(x["id"] + "=" + x["name"] for x in e["devices"]),
          e.get("device_list_error", ""))
print("wall %.2f s" % d["wall_seconds"])
for r in d["results"]:
    mark = "  " if r["outcome"] in ("ok", "unsupported") else "!!"
    ratio = "" if r["error_ratio"] is None else "ratio %.3g" % r["error_ratio"]
    print("%s %-18s %-3s %-11s %8.3f s %-12s %s | %s" % (mark, r["probe"], r["device"], r["outcome"], r["seconds"], ratio,
          r["message"][:200], r["environment"]))
print("failures:", d["failures"])
sys.exit(1 if d["failures"] else 0)'
}

echo "== inspect: python_envs with details and collect_env"
/usr/bin/time -f "inspect wall %e s" "$CLI" inspect --json --no-archscan --python-details --collect-env \
    >"$OUT/python-inspect.json" 2>"$OUT/python-inspect.err" || { echo "FAIL: inspect"; cat "$OUT/python-inspect.err"; fail=1; }
tail -1 "$OUT/python-inspect.err"
"$PY" - "$OUT/python-inspect.json" <<'PY'
import json, sys
for e in json.load(open(sys.argv[1]))["python_envs"]:
    print(" ", e["path"], e["source"], e.get("torch_version"), e.get("build"), "arch", e.get("arch_list"),
          "devices", [(d["name"], d.get("gcnArchName")) for d in e.get("devices", [])], "blas", e.get("blas_backend"),
          "amdsmi", e.get("amdsmi"), "pynvml", e.get("pynvml"), e.get("error", ""), e.get("details_error", ""),
          "collect_env", len(e.get("collect_env") or ""), "chars")
PY
echo "== quick discovery only (the < 2 s path)"
/usr/bin/time -f "inspect (quick python discovery) wall %e s" "$CLI" inspect --json --no-archscan >/dev/null

echo "== full Python grid on every device ($PY only), JSON"
"$CLI" probe --python "$PY" --no-libtorch --timeout 60 --json >"$OUT/python-grid.json" 2>"$OUT/python-grid.err"
rc=$?
summ <"$OUT/python-grid.json" || { echo "FAIL: Python grid has failures (exit $rc)"; fail=1; }
"$PY" - "$OUT/python-grid.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["probe"] in ("torch_compile_fn", "torch_compile_mlp", "sdpa", "dist_nccl", "dist_gloo", "data_parallel"):
        keep = {k: v for k, v in r["details"].items() if k not in ("error_model", "ranks_stderr_tail")}
        print(" ", r["probe"], r["device"], json.dumps(keep)[:600])
    if r["probe"] == "dist_nccl":
        print("   NCCL lines:", [l for l in r["stderr"].splitlines() if "NCCL INFO" in l][:8])
PY

echo "== injected faults into the Python worker on GPU 0"
"$PY" - "$PY" "$WORKER" <<'PY' || fail=1
import json, signal, subprocess, sys
py, worker, ok = sys.argv[1], sys.argv[2], True
# perturb: 1 % on one element of a bf16 matmul is caught on a float32-accumulating GPU (docs/probe-error-model.md)
want = {"crash": -signal.SIGSEGV, "abort": -signal.SIGABRT, "hang": "timeout", "wrong": "wrong", "oom": "error",
        "perturb": "wrong"}
for kind, expect in want.items():
    args = [py, worker, "--device", "0", "--probe", "matmul_bf16", "--inject", kind]
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        got = "timeout"
    else:
        res = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
        r = [x for x in res if x.get("type") == "result"]
        got = p.returncode if p.returncode < 0 else (r[0]["outcome"] if r else "no result")
        if r:
            print("   ", kind, "message:", r[0].get("message", "")[:160])
    print("  inject %-7s -> %s (want %s)" % (kind, got, expect))
    ok = ok and got == expect
sys.exit(0 if ok else 1)
PY

echo "== default grid (libtorch + $PY, CPU + GPU 0): cold inductor/Triton cache, then warm"
CACHE="$OUT/compile-cache"
rm -rf "$CACHE"
for run in cold warm; do
    TORCHINDUCTOR_CACHE_DIR="$CACHE/inductor" TRITON_CACHE_DIR="$CACHE/triton" \
        "$CLI" probe --python "$PY" --device cpu --device 0 --json >"$OUT/python-default-$run.json" 2>"$OUT/python-default-$run.err"
    "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = [r for r in d["results"] if r["probe"] == "torch_compile_fn" and r["device"] == "0"]
print("  %s: wall %.2f s, %d results, %d failures; torch_compile_fn GPU 0 first call %s s" % (sys.argv[2], d["wall_seconds"],
      len(d["results"]), d["failures"], c[0]["details"].get("first_call_seconds") if c else "-"))' \
        "$OUT/python-default-$run.json" "$run" || fail=1
done

echo "== result: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
