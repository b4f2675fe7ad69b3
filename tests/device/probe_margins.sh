#!/usr/bin/env bash
# The probes' error-model margins on the GPU machine: the worst error / bound per probe on every device, under the
# CPU kinds libtorch dispatches to there, with TF32 allowed for matmuls, and whether a 1 % perturbation of one
# element is caught on the GPU. Writes $OUT/probe_margins.txt and $OUT/probe-margins-*.json.
# Usage (repo root): STACKSCOPE_CLI=path (optional: skips the build) tests/device/probe_margins.sh
. tests/device/common.sh
device_begin probe_margins "probe margins"
grep -m1 'model name' /proc/cpuinfo; grep -m1 flags /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|avx512bw|avx512_bf16|amx_bf16)$' | tr '\n' ' '; echo
device_build "${BUILD:-/tmp/build-margins}" margins -DSTACKSCOPE_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -- stackscope-cli stackscope_torch
fail=0
table() { # JSON on stdin: one line per compared cell
  python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in d["results"]:
    ratio = r.get("error_ratio")
    print("  %-18s %-4s %-10s ratio %-9s err %-10s bound %-10s %s" % (r["probe"], r["device"], r["outcome"],
          "-" if ratio is None else "%.3g" % ratio, "-" if r.get("max_error") is None else "%.3g" % r["max_error"],
          "-" if r.get("tolerance") is None else "%.3g" % r["tolerance"], r["message"][:90]))
print("  failures:", d["failures"])'
}
run() { # run NAME [ENV=VAL ...] -- probe args
  local name=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  echo "== $name ${envs[*]:-}"
  env "${envs[@]}" "$CLI" probe --timeout 60 --json "$@" >"$OUT/probe-margins-$name.json" 2>"$OUT/probe-margins-$name.err"
  echo "  exit $?"
  table <"$OUT/probe-margins-$name.json" || fail=1
}
run default -- 
run tf32-matmul TORCH_ALLOW_TF32_CUBLAS_OVERRIDE=1 -- --device 0 --probe matmul_fp32 --probe linear_fp32 --probe conv2d
run aten-avx2 ATEN_CPU_CAPABILITY=avx2 -- --device cpu
run aten-default ATEN_CPU_CAPABILITY=default -- --device cpu
run no-onednn STACKSCOPE_PROBE_DISABLE_ONEDNN=1 -- --device cpu
echo "== perturb (one element off by 1 %) on GPU 0, per probe: caught = wrong"
for p in elementwise reduction matmul_fp32 matmul_fp16 matmul_bf16 linear_fp32 linear_bf16 conv2d batch_norm layer_norm softmax autocast_bf16_mlp; do
  STACKSCOPE_TEST_INJECT=perturb:$p "$CLI" probe --device 0 --probe $p --json 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)["results"][0]
print("  %-18s %-8s %s" % (r["probe"], r["outcome"], r["message"][:120]))'
done
echo "== result: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
