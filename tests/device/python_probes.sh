#!/usr/bin/env bash
# Python probes on the GPU machine: builds stackscope-cli and the torch module with the machine's PyTorch (no Qt),
# inspects the Python environments (details + collect_env), runs the full Python grid (torch.compile, SDPA per
# backend, DataParallel, torch.distributed nccl with world size 1 and gloo, user checks) on every GPU and the CPU,
# injects faults into the Python worker on GPU 0, and times the default grid (libtorch + this python3, CPU + one
# GPU) with a cold and a warm inductor/Triton cache (goals: <= 60 s cold, <= 20 s warm).
# Run from the repository root; writes $OUT/python-probes.txt (everything to record is in it) and at most five JSON
# files ($OUT/python-inspect.json, python-default-{cold,warm}.json (every run's in /tmp), python-grid.json with 2+ GPUs); the build
# logs are $OUT/python-probes-{cmake,build}.log, other logs go to /tmp. Exit 0 when every check passed.
# STACKSCOPE_CLI=path skips the build; PY=interpreter (default: python3 on PATH).
. tests/device/common.sh
device_begin python-probes "python probes device run"
device_build "${BUILD:-build-device-probes}" python-probes -DCMAKE_BUILD_TYPE=RelWithDebInfo -- stackscope-cli stackscope_torch
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

# ONLY_DEFAULT=1: only the default-grid timings (RUNS="cold warm" picks which), for a short device budget.
if [ "${ONLY_DEFAULT:-0}" != 1 ]; then
echo "== inspect: python_envs with details and collect_env"
/usr/bin/time -f "inspect wall %e s" "$CLI" inspect --json --no-archscan --python-details --collect-env \
    >"$OUT/python-inspect.json" 2>/tmp/python-inspect.err || { echo "FAIL: inspect"; cat /tmp/python-inspect.err; fail=1; }
tail -1 /tmp/python-inspect.err
"$PY" - "$OUT/python-inspect.json" <<'PY'
import json, sys
for e in json.load(open(sys.argv[1]))["python_envs"]:
    print(" ", e["path"], e["source"], "looked up from", e.get("looked_up"), e.get("torch_version"), e.get("build"), "arch", e.get("arch_list"),
          "devices", [(d["name"], d.get("gcnArchName")) for d in e.get("devices", [])], "blas", e.get("blas_backend"),
          "amdsmi", e.get("amdsmi"), "pynvml", e.get("pynvml"), e.get("error", ""), e.get("details_error", ""),
          "collect_env", len(e.get("collect_env") or ""), "chars")
PY
echo "== quick discovery only (the < 2 s path)"
/usr/bin/time -f "inspect (quick python discovery) wall %e s" "$CLI" inspect --json --no-archscan >/dev/null

# One GPU: the default grid below is the full Python grid (CPU + GPU 0). With more, the full grid adds the multi-GPU
# probes (peer copy, DataParallel over all, NCCL world size N, FSDP).
NGPU=$("$PY" -c 'import torch; print(torch.cuda.device_count())' 2>/dev/null || echo 0)
if [ "${NGPU:-0}" -gt 1 ]; then
    echo "== full Python grid on every device ($PY only, $NGPU GPUs), JSON"
    "$CLI" probe --python "$PY" --no-libtorch --timeout 60 --json >"$OUT/python-grid.json" 2>/tmp/python-grid.err
    rc=$?
    summ <"$OUT/python-grid.json" || { echo "FAIL: Python grid has failures (exit $rc)"; tail -20 /tmp/python-grid.err; fail=1; }
fi

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

fi
# The default grid three times: a cold inductor/Triton cache (emptied first), the same cache warm, and warm with
# TORCHINDUCTOR_COMPILE_THREADS=1 (no pool of compile workers, each importing torch). The cache lives under /tmp, not
# $OUT (only a few files come back from $OUT). Per run: wall time, each cell's seconds (environment, device: the sum
# of its probes), the slowest probes, and torch.compile's set-up (dynamo/inductor import, the CPU's vector-ISA check).
# "cold" also empties StackScope's own cache (the vector-ISA answers): it is a first run on the machine.
echo "== default grid (libtorch + $PY, CPU + GPU 0): cold inductor/Triton cache, warm, warm with one compile thread"
CACHE=/tmp/stackscope-compile-cache
rm -rf "$CACHE"
for run in ${RUNS:-cold warm threads1}; do
    extra=()
    envs=()
    # a name holding "threads1": one compile thread; "nowarmpool": TORCH_WARM_POOL=0 (inductor starts its pool of
    # compile processes when async_compile is imported unless it is 0); starting with "cold": the caches emptied first
    case "$run" in *threads1*) extra=(--no-baseline --env TORCHINDUCTOR_COMPILE_THREADS=1) ;; esac
    case "$run" in *nowarmpool*) envs=(TORCH_WARM_POOL=0) ;; esac
    case "$run" in cold*) rm -rf "$CACHE" ;; esac
    env "${envs[@]}" TORCHINDUCTOR_CACHE_DIR="$CACHE/inductor" TRITON_CACHE_DIR="$CACHE/triton" STACKSCOPE_CACHE_DIR="$CACHE/stackscope" \
        "$CLI" probe --python "$PY" --device cpu --device 0 "${extra[@]}" --json >"/tmp/python-default-$run.json" \
        2>/tmp/python-default-$run.err
    tail -5 /tmp/python-default-$run.err
    "$PY" - "/tmp/python-default-$run.json" "$run" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
res = d["results"]
goal = 60.0 if sys.argv[2].startswith("cold") else 20.0
print("  %s: wall %.2f s, %d results, %d failures; goal <= %.0f s: %s" % (sys.argv[2], d["wall_seconds"], len(res),
      d["failures"], goal, "met" if d["wall_seconds"] <= goal else "NOT met"))
# The worker each probe ran in (core/probes/probe_catalogue.cpp gpuWorkerGroup; on the CPU only compile is apart).
groups = {"alloc_empty_1gib": "alone", "copy_h2d": "alone", "copy_d2h": "alone", "peer_copy": "alone",
          "torch_compile_fn": "compile", "torch_compile_mlp": "compile", "all_reduce": "dist", "broadcast": "dist",
          "barrier": "dist", "dist_gloo": "dist", "dist_nccl": "dist", "fsdp_step": "dist"}
cells = {}
for r in res:
    g = groups.get(r["probe"], "shared")
    if r["device"] == "cpu" and g != "compile":
        g = "rest"
    key = ("libtorch" if r["environment"] == "libtorch" else "python", r["device"], g)
    cells[key] = cells.get(key, 0.0) + r["seconds"]
spans = {}
for r in res:
    g = groups.get(r["probe"], "shared")
    if r["device"] == "cpu" and g != "compile":
        g = "rest"
    if r["probe"] in ("dist_gloo", "dist_nccl", "fsdp_step"):
        g = r["probe"]  # a worker of its own (startsRankProcesses)
    key = ("libtorch" if r["environment"] == "libtorch" else "python", r["device"], g)
    a, b = spans.get(key, (1e9, 0.0))
    spans[key] = (min(a, r.get("ended_s", 0.0) - r["seconds"]), max(b, r.get("ended_s", 0.0)))
for (env, dev, g), (a, b) in sorted(spans.items(), key=lambda kv: kv[1][1]):
    print("    worker %-8s %-3s %-9s first probe began %6.2f s, last result %6.2f s, probes %6.2f s" % (
          env, dev, g, a, b, cells.get((env, dev, g), 0.0) if g not in ("dist_gloo", "dist_nccl", "fsdp_step") else 0.0))
for r in sorted(res, key=lambda r: -r["seconds"])[:8]:
    print("    probe %-18s %-3s %-8s %7.2f s  %s" % (r["probe"], r["device"], "libtorch" if r["environment"] == "libtorch"
          else "python", r["seconds"], r["message"][:150]))
for r in res:
    if r["probe"] in ("torch_compile_fn", "torch_compile_mlp", "dist_nccl"):
        keys = ("import_dynamo_inductor_seconds", "vec_isa", "vec_isa_check_seconds", "vec_isa_checks_run",
                "vec_isa_checks_cached", "vec_isa_check_seconds_uncached", "compile_threads",
                "inductor_cache_dir", "inductor_cache_entries_before", "first_call_seconds", "second_call_seconds",
                "first_step_seconds", "nccl_info_lines")
        print("    %s %s %s" % (r["probe"], r["device"], {k: r["details"][k] for k in keys if k in r["details"]}))
    if r["probe"] == "dist_nccl" and sys.argv[2] == "cold":
        lines = [l for l in r["stderr"].splitlines() if "NCCL INFO" in l]
        print("    NCCL INFO lines: %d, first: %s" % (len(lines), lines[:6]))
sys.exit(1 if d["failures"] else 0)
PY
    case "$run" in cold | warm) cp "/tmp/python-default-$run.json" "$OUT/" ;; esac
done

echo "== result: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
