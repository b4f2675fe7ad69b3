# The device scripts' shared preamble; source it from the repository root on the GPU machine:
#   . tests/device/common.sh
#   device_begin NAME "title"          # $OUT (default /tmp/stackscope-out), everything printed also to $OUT/NAME.txt,
#                                      # the date, the GPUs and the Python torch
#   device_build BUILD LOGNAME [cmake options...] -- TARGETS...
#                                      # configures and builds the Qt-free targets against the Python torch (+ .deps),
#                                      # unless $STACKSCOPE_CLI is set; sets CLI; exits 1 with the errors on failure;
#                                      # SRC (default .) is the source tree, JOBS (when set) ninja's -j
# Headers the machine lacks travel in .deps (apt-get download the Debian -dev packages, dpkg -x into .deps; the
# device call names it in carry); $STACKSCOPE_DEVICE_PREFIX replaces it. PY is the interpreter (python3 on PATH).
set -u -o pipefail
OUT=${OUT:-/tmp/stackscope-out}
PY=${PY:-$(command -v python3)}
DEPS_PREFIX=${STACKSCOPE_DEVICE_PREFIX:-$PWD/.deps/usr}
export LD_LIBRARY_PATH="$DEPS_PREFIX/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"

device_begin() { # NAME TITLE
    mkdir -p "$OUT"
    REPORT="$OUT/$1.txt"
    exec > >(tee "$REPORT") 2>&1
    echo "== $2 $(date -u +%FT%TZ) on $(hostname -s 2>/dev/null || echo ?)"
    nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader 2>/dev/null || echo "nvidia-smi: not available"
    "$PY" -c 'import sys, torch; print(sys.executable, "torch", torch.__version__, "cuda", torch.version.cuda,
"hip", torch.version.hip, "nccl", torch.cuda.nccl.version() if torch.cuda.is_available() else "-")' 2>&1 | tail -1
}

device_build() { # BUILD LOGNAME [cmake options...] -- TARGETS...
    local build=$1 log=$2
    shift 2
    local options=() targets=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do options+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    targets=("$@")
    if [ -n "${STACKSCOPE_CLI:-}" ]; then
        CLI=$STACKSCOPE_CLI
        return 0
    fi
    local prefix
    prefix="$("$PY" -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null);$DEPS_PREFIX"
    cmake -S "${SRC:-.}" -B "$build" -G Ninja -DSTACKSCOPE_GUI=OFF "-DCMAKE_PREFIX_PATH=$prefix" "${options[@]}" \
        >"$OUT/$log-cmake.log" 2>&1 || { echo "FAIL: cmake ($OUT/$log-cmake.log)"; tail -30 "$OUT/$log-cmake.log"; exit 1; }
    ninja -C "$build" ${JOBS:+-j"$JOBS"} "${targets[@]}" >"$OUT/$log-build.log" 2>&1 \
        || { echo "FAIL: build ($OUT/$log-build.log)"; grep -B2 -A8 -E "error" "$OUT/$log-build.log" | head -80; exit 1; }
    CLI=$build/bin/stackscope-cli
}
