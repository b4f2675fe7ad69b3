#!/usr/bin/env bash
# Sets up, builds and starts StackScope. With no display it runs the headless job instead and says so.
# Usage: packaging/run.sh [arguments for stackscope]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
build=${STACKSCOPE_BUILD_DIR:-$top/build}

# A build folder that test.sh set up keeps its tests: turning them off here would leave `ctest` there running the
# old test programs, since CMake stops building them but does not delete them.
tests=OFF
grep -qs '^STACKSCOPE_TESTS:BOOL=ON$' "$build/CMakeCache.txt" && tests=ON
"$here/build.sh" "$build" -DSTACKSCOPE_TESTS=$tests

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$build/bin/stackscope" ]; then
  exec "$build/bin/stackscope" "$@"
fi

out=${STACKSCOPE_OUT:-$top/stackscope-out}
mkdir -p "$out"
if [ ! -x "$build/bin/stackscope" ]; then
  echo "run.sh: the GUI was not built (Qt 6 missing); running the headless job instead."
else
  echo "run.sh: no display (DISPLAY and WAYLAND_DISPLAY are unset); running the headless job instead."
  echo "run.sh: to see the GUI, run this from a desktop session, or: QT_QPA_PLATFORM=offscreen $build/bin/stackscope --screenshot shot.png"
fi
exec "$here/headless-job.sh" "$build/bin/stackscope-cli" "$out"
