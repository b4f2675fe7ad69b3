#!/usr/bin/env bash
# Records the files `stackscope-cli inspect --root` reads from this machine into a folder, so the
# machine can be replayed elsewhere (tests/fixtures/roots/*). Personal data is left out: the host
# name is replaced, only GPU-related environment variables and dpkg entries are kept.
# Usage: packaging/record-root.sh OUT_DIR
set -euo pipefail
out=${1:?usage: record-root.sh OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)

copy() { # copy a file if readable, keeping its machine path under $out
  local f=$1
  [ -r "$f" ] && [ -f "$f" ] || return 0
  mkdir -p "$out$(dirname "$f")"
  cat "$f" > "$out$f" 2>/dev/null || rm -f "$out$f"
}

copy /etc/os-release
copy /proc/sys/kernel/osrelease
mkdir -p "$out/proc/sys/kernel" && echo recorded-host > "$out/proc/sys/kernel/hostname"
copy /sys/module/amdgpu/version
[ -d /sys/module/amdgpu ] && mkdir -p "$out/sys/module/amdgpu"
for card in /sys/class/drm/card*; do
  [ -e "$card/device/vendor" ] || continue
  for f in vendor device class uevent product_name mem_info_vram_total mem_info_vram_used; do
    copy "$card/device/$f"
  done
done
for node in /sys/class/kfd/kfd/topology/nodes/*; do
  copy "$node/properties"
  copy "$node/name"
done
copy /proc/driver/nvidia/version
for gpu in /proc/driver/nvidia/gpus/*; do
  copy "$gpu/information"
  # GPU UUIDs identify the machine: not recorded.
  [ -f "$out$gpu/information" ] && sed -i -E 's/^(GPU UUID:[[:space:]]*).*/\1GPU-redacted/' "$out$gpu/information"
done
for d in /opt/rocm /opt/rocm-*; do
  [ -e "$d" ] || continue
  if [ -L "$d" ]; then
    mkdir -p "$out/opt"; ln -sfn "$(readlink "$d")" "$out$d"
  else
    copy "$d/.info/version"
  fi
done
for lib in /usr/lib/x86_64-linux-gnu/libamdhip64.so* /usr/lib64/libamdhip64.so*; do
  [ -e "$lib" ] || continue
  mkdir -p "$out$(dirname "$lib")" && : > "$out$lib"
done
if [ -r /var/lib/dpkg/status ]; then
  mkdir -p "$out/var/lib/dpkg"
  awk 'BEGIN{RS=""; ORS="\n\n"} /Package: (libamdhip64|hipcc|rocm|hip-)/' /var/lib/dpkg/status > "$out/var/lib/dpkg/status"
fi
if [ -r /usr/share/misc/pci.ids ]; then
  # Only the vendor lines and the device lines of GPUs present here.
  ids=$( (cat /sys/class/drm/card*/device/device 2>/dev/null || true) | sed 's/^0x//' | sort -u | tr '\n' '|')
  mkdir -p "$out/usr/share/misc"
  awk -v ids="${ids%|}" '/^1002  |^10de  /{print; next} ids!="" && $0 ~ "^\t(" ids ")  " {print}' \
    /usr/share/misc/pci.ids > "$out/usr/share/misc/pci.ids"
fi
mkdir -p "$out/dev/dri" "$out/.stackscope"
: > "$out/.stackscope/dev-stat"
for n in /dev/kfd /dev/dri/renderD*; do
  [ -e "$n" ] || continue
  : > "$out$n"
  stat -c '%n %a %G' "$n" >> "$out/.stackscope/dev-stat"
done
# The user's own name becomes "user"; root stays root (it matters for access).
if [ "$(id -u)" = 0 ]; then id > "$out/.stackscope/id"; else id | sed "s/($(id -un))/(user)/g" > "$out/.stackscope/id"; fi
env | grep -E '^(AMD_|CUDA_|DISABLE_ADDMM|GPU_|HIP|HSA_|NCCL_P2P|PYTORCH_|ROCBLAS|ROCM_PATH|ROCR_|TORCH_BLAS)' > "$out/.stackscope/env" || true
# When the files were recorded: the GUI's "Not this machine" line shows it (reading the root later is not recording it).
date -u +%Y-%m-%dT%H:%M:%SZ > "$out/.stackscope/recorded-at"
echo "record-root.sh: recorded into $out"
