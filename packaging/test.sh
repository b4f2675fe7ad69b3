#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (GUI tests offscreen).
# Usage: packaging/test.sh [--sanitize]   (--sanitize: AddressSanitizer + UBSan build in build-asan/)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)

build=${STACKSCOPE_BUILD_DIR:-$top/build}
cmake_args=(-DSTACKSCOPE_TESTS=ON)
if [ "${1:-}" = "--sanitize" ]; then
  build=${STACKSCOPE_BUILD_DIR:-$top/build-asan}
  cmake_args+=(-DSTACKSCOPE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug)
  # libtorch and the vendor runtimes are not built with ASan: leaks inside them are not ours. The
  # probe tests inject a SIGSEGV and an out-of-memory into worker processes and check that the parent
  # reports exactly those: ASan must let the signal through and return null for the huge allocation.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:handle_segv=0:allocator_may_return_null=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
elif [ -n "${1:-}" ]; then
  echo "test.sh: unknown argument '$1'; use no argument, or --sanitize" >&2
  exit 2
fi

"$here/build.sh" "$build" "${cmake_args[@]}"
export QT_QPA_PLATFORM=offscreen
cd "$build"
ctest --output-on-failure --timeout 900 -j "$(nproc 2>/dev/null || echo 2)" -LE fuzz
