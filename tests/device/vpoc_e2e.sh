#!/usr/bin/env bash
# VPOC end to end on the GPU machine (16 cores, H100): builds the Qt-free CLI and the CUDA module in Release,
# generates 60 days of sample trades (352 MB), and runs `bench vpoc-e2e` on 1, 2, 4, 8 and 16 threads for
# the cpu and gpu backends with DuckDB on the same file in the same run; writes $OUT/vpoc-e2e.txt and .json.
# DUCKDB (default build-duckdb/libduckdb.so, carried in that ignored folder as libduckdb.so.xz, which is
# unpacked first) is the libduckdb.so of the npm package @duckdb/node-api. SRC, B, JOBS, SOURCE_REV as in vpoc.sh;
# REPEATS (default 3) per case; JSON=0 skips the second (JSON) run.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
SRC=${SRC:-.}
B=${B:-build-device-vpoc-e2e}
JOBS=${JOBS:-$(nproc)}
DUCKDB=${DUCKDB:-$SRC/build-duckdb/libduckdb.so}
LOG="$OUT/vpoc-e2e.txt"
PREFIX="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null);${STACKSCOPE_DEVICE_PREFIX:-$PWD/.deps/usr}"
export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
{
  echo "== vpoc-e2e device run $(date -u +%FT%TZ) on $(hostname), $(nproc) CPUs, source ${SOURCE_REV:-$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo "unknown (set SOURCE_REV)")}"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  lscpu | grep -E "Model name|^CPU\(s\)|Thread|MHz" || true
  if [ ! -f "$DUCKDB" ] && [ -f "$DUCKDB.xz" ]; then xz -dk "$DUCKDB.xz"; fi
  [ -f "$DUCKDB" ] && echo "duckdb: $DUCKDB ($(stat -c %s "$DUCKDB") bytes)" || echo "duckdb: not found at $DUCKDB (the run goes on without it)"
  t0=$(date +%s)
  cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_GUI=OFF -DSTACKSCOPE_HIP=OFF \
        -DCMAKE_CUDA_ARCHITECTURES=90-real -DCMAKE_PREFIX_PATH="$PREFIX" > "$OUT/vpoc-e2e-cmake.log" 2>&1 \
    || { echo "cmake failed:"; tail -30 "$OUT/vpoc-e2e-cmake.log"; exit 1; }
  ninja -C "$B" -j"$JOBS" stackscope-cli stackscope_vpoc_cuda > "$OUT/vpoc-e2e-build.log" 2>&1 \
    || { echo "build failed:"; grep -E "error|FAILED" "$OUT/vpoc-e2e-build.log" | head -40; exit 1; }
  echo "build: $(( $(date +%s) - t0 )) s"
  DATA=/tmp/vpoc-e2e-60d.csv
  "$B/bin/stackscope-cli" sample-data --out "$DATA" --days 60 --trades
  CMD=("$B/bin/stackscope-cli" bench vpoc-e2e --input "$DATA" --threads 1,2,4,8,16 --backends cpu,gpu --duckdb "$DUCKDB")
  echo "command: ${CMD[*]} --repeats ${REPEATS:-3}"
  "${CMD[@]}" --repeats "${REPEATS:-3}"; echo "rc=$?"
  if [ "${JSON:-1}" = 1 ]; then "${CMD[@]}" --repeats 1 --json > "$OUT/vpoc-e2e.json"; echo "json rc=$?"; fi
  echo "== peak memory of one vpoc run on 16 threads (GNU time, max resident KiB)"
  /usr/bin/time -f "cpu: %e s, %M KiB" "$B/bin/stackscope-cli" vpoc --input "$DATA" --backend cpu --threads 16 --json > /dev/null
  /usr/bin/time -f "gpu: %e s, %M KiB" "$B/bin/stackscope-cli" vpoc --input "$DATA" --backend gpu --threads 16 --json > /dev/null
  rm -f "$DATA"
} 2>&1 | tee "$LOG"
