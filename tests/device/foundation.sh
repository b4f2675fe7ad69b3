#!/usr/bin/env bash
# On a GPU machine with PyTorch (no Qt): builds the Qt-free targets against that PyTorch, prints
# what `stackscope-cli inspect` sees, and records the machine's root for tests/fixtures/roots.
# Usage (repo root): tests/device/foundation.sh [SOURCE_DIR]   (writes to $OUT)
set -uo pipefail
src=${1:-.}
out=${OUT:-/tmp/stackscope-device}
mkdir -p "$out"
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
prefix="$torch_prefix;${STACKSCOPE_DEVICE_PREFIX:-$PWD/.deps/usr}"
build=${STACKSCOPE_DEVICE_BUILD:-/tmp/stackscope-build}
cmake -S "$src" -B "$build" -G Ninja -DSTACKSCOPE_GUI=OFF -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" > "$out/configure.log" 2>&1 || { tail -60 "$out/configure.log"; exit 1; }
grep -A30 "enabled:" "$out/configure.log" | head -20
ninja -C "$build" stackscope-cli $(ninja -C "$build" -t targets all 2>/dev/null | grep -q "^stackscope_torch:" && echo stackscope_torch) > "$out/build.log" 2>&1 || { tail -80 "$out/build.log"; exit 1; }
"$build/bin/stackscope-cli" --version
"$build/bin/stackscope-cli" inspect --json > "$out/inspect.json"
"$build/bin/stackscope-cli" inspect
packaging/record-root.sh "$out/root"
tar -C "$out" -czf "$out/root.tgz" root && rm -rf "$out/root"
nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version,pci.bus_id --format=csv
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, torch.cuda.get_arch_list())"
