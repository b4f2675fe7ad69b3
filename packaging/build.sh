#!/usr/bin/env bash
# Shared set-up for run.sh and test.sh: installs what is missing, configures and builds (incremental).
# Usage: packaging/build.sh BUILD_DIR [extra cmake arguments...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
build=${1:?usage: build.sh BUILD_DIR [cmake args...]}
shift

"$here/deps.sh"

jobs=$(nproc 2>/dev/null || echo 2)
launcher=()
# ccache (optional) makes a rebuild after a fresh clone or a second checkout cheap.
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# Configure once; later runs reuse the cache (an explicit argument list re-applies the options).
if [ ! -f "$build/CMakeCache.txt" ] || [ "$#" -gt 0 ]; then
  cmake -S "$top" -B "$build" -G Ninja "${launcher[@]}" "$@"
fi
cmake --build "$build" --parallel "$jobs"
