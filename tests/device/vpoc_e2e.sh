#!/usr/bin/env bash
# VPOC end to end on the GPU machine (16 cores, H100): builds the Qt-free CLI and the CUDA module in Release,
# generates 60 days of sample trades (352 MB), and runs `bench vpoc-e2e` on 1, 2, 4, 8 and 16 threads for
# the cpu and gpu backends with DuckDB on the same file in the same run; writes $OUT/vpoc-e2e.txt and .json.
# DUCKDB (default build-duckdb/libduckdb.so, carried in that ignored folder as libduckdb.so.xz, which is
# unpacked first) is the libduckdb.so of the npm package @duckdb/node-api. SRC, B, JOBS, SOURCE_REV as in vpoc.sh;
# REPEATS (default 3) per case; JSON=0 skips the second (JSON) run. STACKSCOPE_CLI=path (a CUDA build) skips the build.
# CEILING=1 also measures what the machine allows the scaling to be: one 1-thread run alone, then one 1-thread run on
# every core at once (each its own process, nothing shared but the machine): the ratio of their times is how much a
# core slows when all are busy (clock, memory, neighbours), so N threads cannot beat N / that ratio.
# ROUNDS=N then times the two backends against each other N times more at 1 and 16 threads (each round a bench run
# that alternates them inside every repeat): one table's GPU/CPU ratio is within this VM kind's noise, rounds show it.
SRC=${SRC:-.}
JOBS=${JOBS:-$(nproc)}
DUCKDB=${DUCKDB:-$SRC/build-duckdb/libduckdb.so}
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" # beside this script: SRC may be another tree
device_begin vpoc-e2e "vpoc-e2e device run"
echo "$(nproc) CPUs, source ${SOURCE_REV:-$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo "unknown (set SOURCE_REV)")}"
lscpu | grep -E "Model name|^CPU\(s\)|Thread|MHz" || true
if [ ! -f "$DUCKDB" ] && [ -f "$DUCKDB.xz" ]; then xz -dk "$DUCKDB.xz"; fi
[ -f "$DUCKDB" ] && echo "duckdb: $DUCKDB ($(stat -c %s "$DUCKDB") bytes)" || echo "duckdb: not found at $DUCKDB (the run goes on without it)"
t0=$(date +%s)
device_build "${B:-build-device-vpoc-e2e}" vpoc-e2e -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_HIP=OFF \
  -DCMAKE_CUDA_ARCHITECTURES=90-real -- stackscope-cli stackscope_vpoc_cuda
echo "build: $(( $(date +%s) - t0 )) s"
DATA=/tmp/vpoc-e2e-60d.csv
"$CLI" sample-data --out "$DATA" --days 60 --trades
CMD=("$CLI" bench vpoc-e2e --input "$DATA" --threads 1,2,4,8,16 --backends cpu,gpu --duckdb "$DUCKDB")
echo "command: ${CMD[*]} --repeats ${REPEATS:-3}"
"${CMD[@]}" --repeats "${REPEATS:-3}"; echo "rc=$?"
if [ "${JSON:-1}" = 1 ]; then "${CMD[@]}" --repeats 1 --json > "$OUT/vpoc-e2e.json"; echo "json rc=$?"; fi
echo "== the GPU backend's output against the CPU's (vpoc --json --profiles): 1 and 16 threads, sessions on the GPU"
echo "   and, with --gpu-session-rows 100000, every session moved to the CPU accumulator part way"
"$CLI" vpoc --input "$DATA" --backend cpu --threads 1 --json --profiles > /tmp/e2e-cpu.json
for args in "--threads 16" "--threads 1" "--threads 16 --gpu-session-rows 100000" "--threads 3 --gpu-session-rows 100000"; do
    # shellcheck disable=SC2086 # the options are words
    "$CLI" vpoc --input "$DATA" --backend gpu $args --json --profiles > /tmp/e2e-gpu.json
    python3 - /tmp/e2e-cpu.json /tmp/e2e-gpu.json "$args" <<'PY'
import json, sys
c, g = (json.load(open(p)) for p in sys.argv[1:3])
same = c["sessions"] == g["sessions"] and c.get("rows") == g.get("rows")
print(f"gpu {sys.argv[3]}: sessions {len(g['sessions'])}, {'identical to the CPU' if same else 'DIFFERENT from the CPU'}")
PY
done
echo "== peak memory of one vpoc run on 16 threads (GNU time, max resident KiB)"
/usr/bin/time -f "cpu: %e s, %M KiB" "$CLI" vpoc --input "$DATA" --backend cpu --threads 16 --json > /dev/null
/usr/bin/time -f "gpu: %e s, %M KiB" "$CLI" vpoc --input "$DATA" --backend gpu --threads 16 --json > /dev/null
if [ "${CEILING:-0}" = 1 ]; then
    echo "== ceiling: one 1-thread vpoc alone, then $(nproc) at once (elapsed s of each)"
    one() { /usr/bin/time -f "%e" "$CLI" vpoc --input "$DATA" --backend cpu --threads 1 --json 2>&1 > /dev/null | tail -n 1; }
    for round in 1 2; do
        echo "alone: $(one) s"
        pids=()
        for i in $(seq "$(nproc)"); do one > "$OUT/ceiling.$i" & pids+=($!); done
        wait "${pids[@]}" # not a bare wait: it would also wait for the tee of device_begin

        echo "all at once: $(sort -n "$OUT"/ceiling.* | tr '\n' ' ')s"
        rm -f "$OUT"/ceiling.*
    done
fi
if [ "${ROUNDS:-0}" -gt 0 ]; then
    echo "== $ROUNDS rounds, CPU and GPU alternating: bench vpoc-e2e --threads 1,16 --backends cpu,gpu --repeats 5"
    for round in $(seq "$ROUNDS"); do
        echo "round $round: $("$CLI" bench vpoc-e2e --input "$DATA" --threads 1,16 --backends cpu,gpu --repeats 5 \
            --no-duckdb | grep "^  stackscope " | awk '{printf "%s %s %s s; ", $2, $3, $5}')"
    done
fi
rm -f "$DATA"
