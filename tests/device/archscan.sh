#!/usr/bin/env bash
# Device check for archscan: builds stackscope-cli, scans PyTorch's libtorch_cuda.so and compares the
# targets found with torch.cuda.get_arch_list(); writes both to $OUT/archscan.txt.
# Run from the repository root on the GPU machine: OUT=/some/dir bash tests/device/archscan.sh
# STACKSCOPE_CLI=path skips the build and uses that stackscope-cli.
. tests/device/common.sh
device_begin archscan "archscan device check"
say() { echo "$*"; } # device_begin sends everything printed to $OUT/archscan.txt

TORCH_LIB=$("$PY" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader 2>&1 | sed 's/^/gpu: /'

device_build "${ARCHSCAN_BUILD_DIR:-build-device-archscan}" archscan -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_TESTS=OFF \
  -- stackscope-cli
grep -E "zlib|libzstd" "$OUT/archscan-cmake.log" 2>/dev/null | sed 's/^/cmake: /'

# 1. libtorch_cuda.so against torch.cuda.get_arch_list().
LIB="$TORCH_LIB/libtorch_cuda.so"
say ""
say "== scan $LIB ($(du -h "$LIB" | cut -f1))"
START=$(date +%s.%N)
/usr/bin/time -v "$CLI" archscan "$LIB" --json > "$OUT/archscan-libtorch_cuda.json" 2> "$OUT/archscan-time.log"
RC=$?
END=$(date +%s.%N)
say "exit code $RC, wall $(python3 -c "print(round($END - $START, 2))") s, max RSS $(grep 'Maximum resident' "$OUT/archscan-time.log" | awk '{print $NF}') KiB"
python3 - "$OUT/archscan-libtorch_cuda.json" <<'PY'
import json, sys, torch
scan = json.load(open(sys.argv[1]))
lib = scan["libraries"][0]
found = sorted({t["id"] for t in lib["targets"]}, key=lambda s: (s.split("_")[0], int("".join(c for c in s.split("_")[1] if c.isdigit()))))
torch_list = torch.cuda.get_arch_list()
print("archscan targets:        ", found)
print("torch.cuda.get_arch_list:", torch_list)
print("fatbin blobs:", lib.get("containers"), " errors:", lib["errors"][:5])
only_scan = sorted(set(found) - set(torch_list))
only_torch = sorted(set(torch_list) - set(found))
print("in binary only:", only_scan)
print("in arch list only:", only_torch)
print("MATCH" if not only_scan and not only_torch else "DIFFER (see above; get_arch_list splits a compile-time string)")
print("devices:", scan["devices"], " covers:", lib["covers"])
for d, text in lib.get("explain", {}).items():
    print(f"  {d}: {text}")
PY

# 2. The default scan set of this machine (libtorch loaded through StackScope's torch module).
say ""
say "== default scan set"
"$CLI" archscan > "$OUT/archscan-default.txt" 2>&1
say "exit code $?"
cat "$OUT/archscan-default.txt"

# 3. Other CUDA libraries the wheel ships (cuBLAS, cuDNN ...), for timing and a wider check.
say ""
say "== other CUDA libraries of the PyTorch install"
NV=$(python3 -c 'import os, nvidia; print(os.path.dirname(nvidia.__path__[0]) + "/nvidia")' 2>/dev/null || true)
for f in $(find "$TORCH_LIB" -maxdepth 1 -name '*.so*' -size +10M 2>/dev/null | sort) \
         ${NV:+$(find "$NV" \( -name 'libcublasLt.so*' -o -name 'libcufft.so*' -o -name 'libcudnn_engines_precompiled.so*' \) 2>/dev/null | head -4)}; do
  [ -f "$f" ] || continue
  START=$(date +%s.%N)
  LINE=$("$CLI" archscan "$f" --json 2>/dev/null | python3 -c 'import json,sys; l=json.load(sys.stdin)["libraries"][0]; print(l["kind"], " ".join(t["id"] for t in l["targets"]) or "-", "errors:", len(l["errors"]))' 2>&1)
  END=$(date +%s.%N)
  say "$(basename "$f") ($(du -h "$f" | cut -f1), $(python3 -c "print(round($END - $START, 2))") s): $LINE"
done
say ""
say "done"
