#!/usr/bin/env bash
# The user's launcher for a 2-node job run here as 2 processes, one per "node" (each started with its own RANK,
# rank r on GPU r, as a cluster launcher would place them): no torchrun agent watches them, so when one rank dies or
# hangs the other finds out through NCCL / its own timeout, as it would on another machine.
# Usage: two_nodes.sh PORT SCRIPT [args...]   (GPU r for rank r; both outputs to stdout)
port=$1; shift
pids=()
for r in 0 1; do
    MASTER_ADDR=127.0.0.1 MASTER_PORT=$port WORLD_SIZE=2 RANK=$r LOCAL_RANK=$r "${PY:-python3}" "$@" &
    pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=$?; done
exit $rc
