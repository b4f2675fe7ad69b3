#!/usr/bin/env bash
# On a GPU machine with PyTorch (no Qt): builds the Qt-free targets against that PyTorch, prints
# what `stackscope-cli inspect` sees, and records the machine's root for tests/fixtures/roots.
# Usage (repo root): tests/device/foundation.sh [SOURCE_DIR]   (writes to $OUT, the output also to $OUT/foundation.txt)
# STACKSCOPE_CLI=path skips the build and uses that stackscope-cli.
SRC=${1:-${SRC:-.}}
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" # beside this script: SRC may be another tree
device_begin foundation "foundation device run"
build=${STACKSCOPE_DEVICE_BUILD:-/tmp/stackscope-build}
device_build "$build" foundation -DCMAKE_BUILD_TYPE=Release -- stackscope-cli
grep -A30 "enabled:" "$OUT/foundation-cmake.log" 2>/dev/null | head -20
# The torch module where this build has one (a machine without libtorch still gets the CLI's view).
if [ -z "${STACKSCOPE_CLI:-}" ] && ninja -C "$build" -t targets all 2>/dev/null | grep -q "^stackscope_torch:"; then
    ninja -C "$build" stackscope_torch >>"$OUT/foundation-build.log" 2>&1 || { tail -80 "$OUT/foundation-build.log"; exit 1; }
fi
"$CLI" --version
"$CLI" inspect --json > "$OUT/inspect.json"
"$CLI" inspect
packaging/record-root.sh "$OUT/root"
tar -C "$OUT" -czf "$OUT/root.tgz" root && rm -rf "$OUT/root"
nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version,pci.bus_id --format=csv
"$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, torch.cuda.get_arch_list())"
