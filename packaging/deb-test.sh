#!/usr/bin/env bash
# Installs StackScope's .deb into a fresh Debian 12 root (debootstrap) and runs it there offscreen:
# apt resolves the Depends, then stackscope-cli --version, stackscope-cli inspect --json and the GUI's
# headless report (or screenshot) must work without libtorch or any GPU library, and say what is missing.
# Usage: packaging/deb-test.sh [--with-torch] [--no-build] [BUILD_DIR]   (root or sudo; network to the Debian mirror)
#   BUILD_DIR     a configured build (default: $STACKSCOPE_BUILD_DIR or build/); it is built and packaged
#   --with-torch  also install stackscope-torch (pulls Debian's libtorch and its libraries) and check it loads
#   --no-build    package the build as it is (the programs, modules, icons and man page must be built)
# Leaves: BUILD_DIR/deb-root (the root), BUILD_DIR/deb-root-base.tar (the pristine bootstrap, reused
# so later runs start from a fresh root without downloading the base system again).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)

with_torch=0
do_build=1
build=""
for a in "$@"; do
  case "$a" in
    --with-torch) with_torch=1 ;;
    --no-build) do_build=0 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "deb-test.sh: unknown option '$a'; use --with-torch, --no-build or a build folder" >&2; exit 2 ;;
    *) build=$a ;;
  esac
done
build=${build:-${STACKSCOPE_BUILD_DIR:-$top/build}}
if [ ! -f "$build/CPackConfig.cmake" ]; then
  echo "deb-test.sh: $build is not a configured StackScope build (no CPackConfig.cmake); run packaging/build.sh $build first" >&2
  exit 2
fi
build=$(cd "$build" && pwd)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "deb-test.sh: debootstrap and chroot need root; run as root or install sudo" >&2; exit 2; }
  sudo_cmd=(sudo)
fi
as_root() { "${sudo_cmd[@]}" "$@"; }

start=$(date +%s)
step() { echo "deb-test.sh [$(( $(date +%s) - start ))s]: $*"; }
fail() { echo "deb-test.sh: FAILED: $*" >&2; exit 1; }

if ! command -v debootstrap >/dev/null && ! [ -x /usr/sbin/debootstrap ]; then
  step "installing debootstrap"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

# The same mirror apt uses here (deb822 URIs: lines or one-line deb entries), so a proxy or a local
# mirror configured for this machine serves the test too.
mirror=${DEB_TEST_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | sed -n -E 's#^(URIs:[[:space:]]*|deb[[:space:]]+(\[[^]]*\][[:space:]]+)?)([a-z]+://[^[:space:]]*/debian)/?([[:space:]].*)?$#\3#p' | head -1) \
    || true # some of those files need not exist; what was found is kept
fi
mirror=${mirror:-http://deb.debian.org/debian}
security=${mirror%/debian}/debian-security

if [ "$do_build" = 1 ]; then
  step "building $build"
  cmake --build "$build" --parallel "$(nproc 2>/dev/null || echo 2)" >/dev/null
fi
step "packaging $build (cpack)"
rm -rf "$build/packages"
cpack --config "$build/CPackConfig.cmake" -B "$build/packages" >/dev/null
main_deb=$(ls "$build"/packages/stackscope_*.deb 2>/dev/null | head -1)
[ -n "$main_deb" ] || fail "cpack made no stackscope_*.deb in $build/packages"
for deb in "$build"/packages/*.deb; do
  echo "  $(basename "$deb"): Depends: $(dpkg-deb -f "$deb" Depends)"
done

root=$build/deb-root
base=$build/deb-root-base.tar
mounts=()
cleanup() {
  local i
  for (( i=${#mounts[@]}-1; i>=0; i-- )); do
    as_root umount -l "${mounts[$i]}" 2>/dev/null || echo "deb-test.sh: could not unmount ${mounts[$i]}; unmount it by hand" >&2
  done
}
trap cleanup EXIT

as_root rm -rf --one-file-system "$root"
if [ ! -f "$base" ]; then
  step "debootstrap --variant=minbase bookworm from $mirror (first run only; cached in $base)"
  as_root debootstrap --variant=minbase bookworm "$root" "$mirror" > "$build/deb-test-debootstrap.log" 2>&1 \
    || fail "debootstrap failed; see $build/deb-test-debootstrap.log (network to $mirror? set DEB_TEST_MIRROR to another mirror)"
  as_root tar -C "$root" -cf "$base" .
else
  step "fresh root from the cached bootstrap $base"
  as_root mkdir -p "$root"
  as_root tar -C "$root" -xf "$base"
fi
as_root tee "$root/etc/apt/sources.list" >/dev/null <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
EOF

for m in proc dev sys; do
  case $m in
    proc) as_root mount -t proc proc "$root/proc" ;;
    *) as_root mount --rbind "/$m" "$root/$m" ;;
  esac && mounts+=("$root/$m") || echo "deb-test.sh: could not mount /$m in the root; carrying on without it"
done
in_root() { as_root chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

as_root mkdir -p "$root/tmp/debs"
as_root cp "$build"/packages/*.deb "$root/tmp/debs/"
step "apt-get install ./$(basename "$main_deb") (Depends resolved from $mirror)"
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "/tmp/debs/$(basename "$main_deb")" \
  > "$build/deb-test-install.log" 2>&1 || { tail -20 "$build/deb-test-install.log" >&2; fail "the package did not install; see $build/deb-test-install.log"; }
in_root dpkg -s libtorch1.13 >/dev/null 2>&1 && fail "libtorch1.13 got installed with stackscope; it must stay optional"

step "stackscope-cli --version"
version=$(in_root stackscope-cli --version) || fail "stackscope-cli --version failed"
echo "  $version"
[[ "$version" == *libtorch* ]] || fail "stackscope-cli --version does not say which libtorch it was built against: $version"

step "stackscope-cli inspect --json (no libtorch, no GPU libraries)"
rc=0
in_root stackscope-cli inspect --json > "$build/deb-test-snapshot.json" 2> "$build/deb-test-inspect.err" || rc=$?
[ "$rc" -le 1 ] || { cat "$build/deb-test-inspect.err" >&2; fail "stackscope-cli inspect --json exited $rc"; }
grep -q '"schema": *"stackscope.snapshot/1"' "$build/deb-test-snapshot.json" || fail "inspect --json printed no snapshot (see $build/deb-test-snapshot.json)"
echo "  what it says is missing:"
in_root stackscope-cli inspect --no-archscan 2>&1 | grep -i -E 'not (found|loaded)|missing|cannot|no such' | sed 's/^/    /' | head -12 || true
grep -q 'libstackscope_torch.so' "$build/deb-test-snapshot.json" || fail "the snapshot does not name the libtorch module it looked for"

if in_root test -x /usr/bin/stackscope; then
  step "stackscope --version (no display)"
  gui_version=$(in_root stackscope --version 2>/dev/null) || fail "stackscope --version failed without a display"
  echo "  $gui_version"
fi

if in_root env QT_QPA_PLATFORM=offscreen stackscope --help 2>/dev/null | grep -q -- '--report'; then
  step "QT_QPA_PLATFORM=offscreen stackscope --report /tmp/r"
  rc=0
  in_root env QT_QPA_PLATFORM=offscreen timeout 300 stackscope --report /tmp/r > "$build/deb-test-gui.log" 2>&1 || rc=$?
  [ "$rc" = 0 ] || { cat "$build/deb-test-gui.log" >&2; fail "stackscope --report exited $rc (139: a crash; 124: it hung)"; }
  [ -n "$(ls -A "$root/tmp/r" 2>/dev/null)" ] || fail "stackscope --report wrote nothing into /tmp/r"
  echo "  report: $(cd "$root/tmp/r" && ls | tr '\n' ' ')"
elif in_root test -x /usr/bin/stackscope; then
  step "QT_QPA_PLATFORM=offscreen stackscope --screenshot /tmp/s.png --page System (this build has no --report yet)"
  rc=0
  in_root env QT_QPA_PLATFORM=offscreen timeout 120 stackscope --screenshot /tmp/s.png --page System > "$build/deb-test-gui.log" 2>&1 || rc=$?
  [ "$rc" = 0 ] || { cat "$build/deb-test-gui.log" >&2; fail "stackscope --screenshot exited $rc (139: a crash; 124: it hung)"; }
  [ -s "$root/tmp/s.png" ] || fail "stackscope --screenshot wrote no /tmp/s.png"
  cp "$root/tmp/s.png" "$build/deb-test-system.png"
  echo "  screenshot: $build/deb-test-system.png"
else
  step "no stackscope GUI in this package (built without Qt); GUI check skipped"
fi

if [ "$with_torch" = 1 ]; then
  torch_deb=$(ls "$build"/packages/stackscope-torch_*.deb 2>/dev/null | head -1)
  [ -n "$torch_deb" ] || fail "--with-torch: this build made no stackscope-torch package (built without libtorch)"
  step "apt-get install ./$(basename "$torch_deb") (pulls libtorch)"
  in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "/tmp/debs/$(basename "$torch_deb")" \
    >> "$build/deb-test-install.log" 2>&1 || fail "stackscope-torch did not install; see $build/deb-test-install.log"
  in_root stackscope-cli inspect --json --no-archscan > "$build/deb-test-snapshot-torch.json" || true
  grep -q '"module_path": *"/usr/lib[^"]*/stackscope/libstackscope_torch.so"' "$build/deb-test-snapshot-torch.json" \
    || fail "with stackscope-torch installed the torch module did not load (see $build/deb-test-snapshot-torch.json)"
  echo "  torch module loaded: $(grep -o '"version": *"[0-9][^"]*"' "$build/deb-test-snapshot-torch.json" | head -1)"
fi

step "passed"
