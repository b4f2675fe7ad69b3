#!/usr/bin/env bash
# Installs what StackScope needs to build and test on Debian 12 / Ubuntu 24.04; skips what is present.
set -euo pipefail

required=(build-essential cmake ninja-build pkg-config
          qt6-base-dev qt6-charts-dev libgl-dev libxkbcommon-dev libqt6opengl6-dev
          libfmt-dev nlohmann-json3-dev libcli11-dev libhowardhinnant-date-dev tzdata
          zlib1g-dev libzstd-dev libarchive-dev
          # packaging: man page, PNG icons, and the quick packaging test (validators, cpack's .deb)
          help2man librsvg2-bin appstream desktop-file-utils dpkg-dev)
# Optional parts: a missing one disables its feature, never the build.
# python3-torch: Debian's PyTorch (1.13, CPU) is a real Python environment for the Python probe tests (tests/python).
# libgloo-dev: the headers c10d's Gloo process group includes (training over several CPU processes).
# xvfb openbox xdotool imagemagick x11-utils: the GUI walkthrough under a real X server and window manager
# (tests/gui, ctest -L xvfb); without them it is skipped.
optional=(ccache libtorch-dev libgloo-dev hipcc libamdhip64-dev rocm-device-libs librocm-smi-dev clang libclang-rt-dev python3-torch
          xvfb openbox xdotool imagemagick x11-utils)

missing() {
  local p out=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || out+=("$p")
  done
  # An empty list must print nothing (printf would print one empty line, read as one package "").
  [ "${#out[@]}" -eq 0 ] || printf '%s\n' "${out[@]}"
}

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "deps.sh: not root and no sudo; install these by hand: $(missing "${required[@]}" | tr '\n' ' ')" >&2; exit 2; }
  sudo_cmd=(sudo)
fi

mapfile -t need < <(missing "${required[@]}")
mapfile -t want < <(missing "${optional[@]}")
if [ "${#need[@]}" -eq 0 ] && [ "${#want[@]}" -eq 0 ]; then
  echo "deps.sh: all packages present"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
if [ "${#need[@]}" -gt 0 ]; then
  echo "deps.sh: installing ${need[*]}"
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
# One apt-get run for all optional packages (each run re-reads the package lists: ~17 separate runs
# cost minutes on a fresh machine); only when that fails, one at a time to find which are missing.
if [ "${#want[@]}" -gt 0 ] && "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null 2>&1; then
  echo "deps.sh: installed optional ${want[*]}"
  want=()
fi
for p in "${want[@]}"; do
  # Optional packages may not exist on every distribution (Ubuntu lacks some ROCm ones).
  if "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1; then
    echo "deps.sh: installed optional $p"
  else
    echo "deps.sh: optional $p not available here; its feature will be disabled"
  fi
done
