#!/usr/bin/env bash
# Device check for packaging: builds the headless part against this machine's PyTorch wheel, installs
# it into a staging DESTDIR with prefix /usr, and checks that the installed stackscope-cli reports the
# wheel's libtorch through the installed torch module (install RPATH), sees the GPUs, and that cpack's
# packages keep libtorch and the CUDA driver out of stackscope's Depends. Writes $OUT/packaging.txt.
# Run from the repository root on the GPU machine: OUT=/some/dir bash tests/device/packaging.sh
# Always builds (STACKSCOPE_CLI is ignored: the installed tree is what is checked).
. tests/device/common.sh
device_begin packaging "packaging device check"
say() { echo "$*"; } # device_begin sends everything printed to $OUT/packaging.txt
BUILD=${PACKAGING_BUILD_DIR:-build-device-packaging}
STAGE="$PWD/$BUILD/stage"
status=0
check() { # check NAME CONDITION-COMMAND...: one PASS/FAIL line
  local name=$1; shift
  if "$@"; then say "PASS: $name"; else say "FAIL: $name"; status=1; fi
}

TORCH_VERSION=$("$PY" -c 'import torch; print(torch.__version__.split("+")[0])')
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | sed 's/^/gpu: /'

# The whole build (no targets named), whatever STACKSCOPE_CLI says: what is checked is the installed tree.
start=$(date +%s)
STACKSCOPE_CLI= device_build "$BUILD" packaging -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_TESTS=OFF --
grep -E "^-- Packages \(cpack\)|help2man|rsvg" "$OUT/packaging-cmake.log" | sed 's/^/cmake: /'
say "configure and build: $(( $(date +%s) - start )) s"

rm -rf "$STAGE"
DESTDIR="$STAGE" cmake --install "$BUILD" --prefix /usr > "$OUT/packaging-install.log" 2>&1 \
  || { say "FAIL: cmake --install (see packaging-install.log)"; exit 1; }
say "installed files:"
(cd "$STAGE" && find . -type f | sort | sed 's/^/  /')
CLI="$STAGE/usr/bin/stackscope-cli"
MODULE=$(ls "$STAGE"/usr/lib*/stackscope/libstackscope_torch.so "$STAGE"/usr/lib/*/stackscope/libstackscope_torch.so 2>/dev/null | head -1)
say "torch module RUNPATH: $(readelf -d "$MODULE" 2>/dev/null | grep -E 'RUNPATH|RPATH' | sed 's/.*\[\(.*\)\]/\1/')"

version=$(env -u STACKSCOPE_MODULE_DIR -u STACKSCOPE_TORCH_MODULE "$CLI" --version 2>&1)
say "installed --version: $version"
check "--version names the wheel's libtorch $TORCH_VERSION" grep -q "libtorch $TORCH_VERSION" <<<"$version"
check "--version says CUDA on" grep -q "CUDA on" <<<"$version"

env -u STACKSCOPE_MODULE_DIR -u STACKSCOPE_TORCH_MODULE "$CLI" inspect --json --no-archscan > "$OUT/packaging-snapshot.json" 2> "$OUT/packaging-inspect.err"
say "installed inspect exit code: $?"
python3 - "$OUT/packaging-snapshot.json" "$STAGE" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
t = j["torch"]
print(f"torch: version={t['version']} backend={t['backend']} devices={t['device_count']} module={t['module_path']}")
for l in j["libraries"]:
    print(f"library: {l['component']}: loaded={l['loaded']} path={l['path']} error={l['error']}")
print("gpus:", [(g["name"], g.get("arch")) for g in j.get("gpus", [])])
EOF
check "the installed torch module loaded from the staging folder" \
  grep -q "\"module_path\": *\"$STAGE/usr/lib[^\"]*/stackscope/libstackscope_torch.so\"" "$OUT/packaging-snapshot.json"
check "libtorch sees at least one GPU" python3 -c "import json,sys; t=json.load(open('$OUT/packaging-snapshot.json'))['torch']; sys.exit(0 if (t['device_count'] or 0) >= 1 else 1)"

if command -v dpkg-shlibdeps >/dev/null; then
  rm -rf "$BUILD/packages"
  if cpack --config "$BUILD/CPackConfig.cmake" -B "$BUILD/packages" > "$OUT/packaging-cpack.log" 2>&1; then
    for deb in "$BUILD"/packages/*.deb; do
      say "$(basename "$deb"): Depends: $(dpkg-deb -f "$deb" Depends)"
    done
    main=$(ls "$BUILD"/packages/stackscope_*.deb | head -1)
    check "stackscope Depends has no libtorch, libcuda, libcudart, libnvidia-ml" \
      bash -c "! dpkg-deb -f '$main' Depends | grep -q -E 'libtorch|libcuda|libcudart|libnvidia-ml'"
  else
    say "FAIL: cpack (see packaging-cpack.log)"; status=1
  fi
else
  say "SKIP: cpack's .deb (dpkg-shlibdeps missing: apt-get install dpkg-dev)"
fi
say "== packaging device check done, status $status"
exit $status
