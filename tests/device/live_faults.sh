#!/usr/bin/env bash
# Live faults: breaks this GPU machine the way users break theirs (an environment variable, another process holding
# the GPU, a stopped or killed rank, a full /dev/shm, a library shadowed through LD_LIBRARY_PATH, a debugging switch
# left on ...), runs the user's own command under each fault (a short PyTorch script of tests/device/faults/,
# torchrun, or `stackscope-cli train`), then `stackscope-cli inspect --json` under the same fault and
# `stackscope-cli diagnose --snapshot S --log L --json`, and scores the first warning/error finding (top-1) against
# the cause id expected (tests/fixtures/diagnosis/cause-ids.md; "healthy": no warning or error finding allowed;
# "OTHER": no id names the cause, so naming one is wrong; "A|B": either). The expected ids were chosen from what the
# user's command prints and the fault itself, not from the rules.
#
# Prints the table "fault | expected | top-1 | ok" (tests/device/live_faults_score.py), the line each user command
# ended on, and "live faults: N named / M faults; healthy: K clean / H"; writes $OUT/live_faults.txt,
# $OUT/live_faults.tsv and $OUT/live_faults_logs.tgz (faults/<name>.log, .cmd, .snapshot.json, .diag.json ...).
# Exit status 0: the table is the result.
#
# Every fault step is bounded (timeout, FAULT_TIMEOUT s for the user's command, default 40), kills what it started
# (holders, stopped ranks, listeners; also on exit), picks free ports, and never stops the suite when it fails.
# Faults needing 2 GPUs are skipped (and said so) on 1; faults needing a C compiler, the CLI or a private mount
# namespace are skipped when those are missing.
#
# Usage (repo root, GPU machine, root):  tests/device/live_faults.sh
#   STACKSCOPE_CLI=path     use that stackscope-cli instead of building one (-DSTACKSCOPE_NCCL=ON ...)
#   FAULTS_ONLY="a b"       run only these faults (names as in the table)
#   FAULTS_CMAKE_EXTRA=...  more cmake options for the build (-DSTACKSCOPE_CUDA=OFF: no kernels, a faster build)
#   FAULTS_CPU_ONLY=1       no GPU: only the loader / environment / rendezvous / shm faults, with the CLI at
#                           $STACKSCOPE_CLI or build/bin/stackscope-cli when it exists (a dry run of the plumbing)
#   FAULTS_NO_CLI=1         only make the faults and keep the logs (no build, no inspect/diagnose)
#   FAULTS_INSPECT_ARGS=... extra inspect options (e.g. --no-archscan)
#   FAULT_TIMEOUT=40        seconds for each user command; FAULTS_NGPU=N overrides the GPU count (testing)
# shellcheck disable=SC2317 # the fault steps are called through `fault NAME ... FUNCTION`
. tests/device/common.sh
device_begin live_faults "live faults"
# The lent machines' rule (KINDS.md): NVLink multicast stays off in every program started here.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1 PY
FD=$PWD/tests/device/faults
LOGS=$OUT/faults
W=${FAULTS_WORK:-/tmp/live-faults}
T=${FAULT_TIMEOUT:-40}
CPU_ONLY=${FAULTS_CPU_ONLY:-0}
SUITE_T0=$SECONDS
rm -rf "$W" "$LOGS"
mkdir -p "$W" "$LOGS"
MANIFEST=$LOGS/manifest.tsv
printf 'name\texpected\tneed\tstatus\trc\tsecs\thow\tnote\n' >"$MANIFEST"

if [ "$CPU_ONLY" = 1 ] || [ "${FAULTS_NO_CLI:-0}" = 1 ]; then
    CLI=${STACKSCOPE_CLI:-build/bin/stackscope-cli}
    [ "${FAULTS_NO_CLI:-0}" = 1 ] && CLI=""
else
    device_build "${BUILD:-/tmp/build-live-faults}" lf -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_TESTS=OFF \
        -DSTACKSCOPE_NCCL=ON -DSTACKSCOPE_HIP=OFF -DCMAKE_CUDA_ARCHITECTURES=90-real ${FAULTS_CMAKE_EXTRA:-} \
        -- stackscope-cli stackscope_torch
fi
if [ -n "$CLI" ] && [ -x "$CLI" ]; then
    CLI=$(readlink -f "$CLI")
    echo "CLI: $CLI"
else
    [ -n "$CLI" ] && echo "no stackscope-cli at $CLI: the faults run, nothing is diagnosed"
    CLI=""
fi

if [ "$CPU_ONLY" = 1 ]; then
    NGPU=0
    DEV=(--device cpu --width 128)
else
    NGPU=${FAULTS_NGPU:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')}
    [ "$NGPU" -gt 0 ] || NGPU=$("$PY" -c 'import torch; print(torch.cuda.device_count())' 2>/dev/null || echo 0)
    DEV=()
fi
CUDA_MAJOR=$("$PY" -c 'import torch; print((torch.version.cuda or "13").split(".")[0])' 2>/dev/null || echo 13)
CUDART=libcudart.so.$CUDA_MAJOR
echo "GPUs: $NGPU; CUDA runtime soname: $CUDART; per-fault limit ${T} s"

# ---- helpers -----------------------------------------------------------------------------------------------------
free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Background processes of the current step: each runs under `timeout`, which leads its own process group, so the
# group is continued (a stopped rank) and killed.
BG=()
STEP_CLEAN=""
step_cleanup() {
    local p
    for p in "${BG[@]}"; do
        kill -CONT -- "-$p" 2>/dev/null || kill -CONT "$p" 2>/dev/null
        kill -KILL -- "-$p" 2>/dev/null || kill -KILL "$p" 2>/dev/null
    done
    for p in "${BG[@]}"; do wait "$p" 2>/dev/null; done
    BG=()
    if [ -n "$STEP_CLEAN" ]; then eval "$STEP_CLEAN"; fi
    STEP_CLEAN=""
}
trap 'step_cleanup' EXIT
trap 'step_cleanup; exit 130' INT TERM

helper_bg() { # LOGNAME CMD...: a helper process of the fault (not the user's command), bounded, output to LOGNAME
    local logname=$1
    shift
    timeout -k 5 $((T * 3)) "$@" >"$LOGS/$NAME.$logname.log" 2>&1 &
    BG+=($!)
}
wait_file() { # FILE SECONDS: until FILE exists (0) or the time is up (1)
    local i
    for ((i = 0; i < $2 * 10; i++)); do
        [ -s "$1" ] && return 0
        sleep 0.1
    done
    return 1
}
note() { STEP_NOTE="${STEP_NOTE:+$STEP_NOTE; }$*"; }
skip_step() { STEP_SKIP=$*; }

# The user's command under the fault: WRAP (a private mount namespace ...) and FENV (the environment the user left),
# bounded by $T, its stdout+stderr into $LOG; the command line goes to NAME.cmd, not into the log.
user() {
    { printf '%q ' "${WRAP[@]}" env "${FENV[@]}" "$@"; echo; } >>"$LOGS/$NAME.cmd"
    timeout -k 5 "$T" "${WRAP[@]}" env "${FENV[@]}" "$@" >>"$LOG" 2>&1
    USER_RC=$?
}
user_bg() {
    { printf '%q ' "${WRAP[@]}" env "${FENV[@]}" "$@"; echo; } >>"$LOGS/$NAME.cmd"
    timeout -k 5 "$T" "${WRAP[@]}" env "${FENV[@]}" "$@" >>"$LOG" 2>&1 &
    USER_PID=$!
    BG+=("$USER_PID")
}
user_wait() {
    wait "$USER_PID"
    USER_RC=$?
}
alive() { kill -0 "$1" 2>/dev/null && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }

# inspect under the same fault (else outside it, noted), then diagnose the snapshot with the user's log.
snapshot_diagnose() {
    [ -n "$CLI" ] || return 0
    local snap=$LOGS/$NAME.snapshot.json diag=$LOGS/$NAME.diag.json rc
    # shellcheck disable=SC2086 # FAULTS_INSPECT_ARGS: options, split on purpose
    timeout -k 5 90 "${WRAP[@]}" env "${FENV[@]}" "$CLI" inspect --json ${FAULTS_INSPECT_ARGS:-} \
        >"$snap" 2>"$LOGS/$NAME.inspect.err"
    rc=$?
    if [ $rc -ne 0 ] || ! "$PY" -c 'import json, sys; json.load(open(sys.argv[1]))' "$snap" 2>/dev/null; then
        note "inspect under the fault failed (exit $rc: $(head -c 120 "$LOGS/$NAME.inspect.err" | tr '\n\t' '  ')); snapshot taken outside it"
        # shellcheck disable=SC2086
        timeout -k 5 90 "$CLI" inspect --json ${FAULTS_INSPECT_ARGS:-} >"$snap" 2>>"$LOGS/$NAME.inspect.err"
    fi
    timeout -k 5 60 "$CLI" diagnose --snapshot "$snap" --log "$LOG" --json >"$diag" 2>"$LOGS/$NAME.diag.err" \
        || note "diagnose exited $?"
}

# fault NAME EXPECTED NEED HOW FUNCTION [ARGS...]
#   NEED: 1 or 2 (GPUs), cpu (needs no GPU: also runs in the CPU-only dry run), cpuonly (only there)
fault() {
    NAME=$1
    local expected=$2 need=$3 how=$4
    shift 4
    if [ -n "${FAULTS_ONLY:-}" ] && [[ " $FAULTS_ONLY " != *" $NAME "* ]]; then return 0; fi
    if [ "$need" = cpuonly ] && [ "$CPU_ONLY" != 1 ]; then return 0; fi
    FENV=()
    WRAP=()
    USER_RC=""
    STEP_NOTE=""
    STEP_SKIP=""
    LOG=$LOGS/$NAME.log
    case "$need" in
        cpu | cpuonly) ;;
        *) if [ "$CPU_ONLY" = 1 ]; then STEP_SKIP="needs a GPU (CPU-only dry run)"
           elif [ "$NGPU" -lt "$need" ]; then STEP_SKIP="needs $need GPUs, $NGPU here"; fi ;;
    esac
    local t0=$SECONDS
    if [ -z "$STEP_SKIP" ]; then
        echo "== $NAME [$expected]: $how"
        : >"$LOG"
        "$@"
    fi
    if [ -n "$STEP_SKIP" ]; then
        echo "== $NAME [$expected]: skipped: $STEP_SKIP"
        step_cleanup
        rm -f "$LOG"
        printf '%s\t%s\t%s\tskipped\t\t\t%s\t%s\n' "$NAME" "$expected" "$need" "$how" "$STEP_SKIP" >>"$MANIFEST"
        return 0
    fi
    local user_secs=$((SECONDS - t0))
    echo "   exit ${USER_RC:-?} after ${user_secs} s: $(grep -av '^[[:space:]]*$' "$LOG" | tail -1 | cut -c1-150)"
    [ -n "$STEP_NOTE" ] && echo "   note: $STEP_NOTE"
    snapshot_diagnose
    step_cleanup
    printf '%s\t%s\t%s\tran\t%s\t%s\t%s\t%s\n' "$NAME" "$expected" "$need" "${USER_RC:-}" "$((SECONDS - t0))" "$how" \
        "$STEP_NOTE" >>"$MANIFEST"
}

# ---- prerequisites -----------------------------------------------------------------------------------------------
LIBS=$W/libs
"$FD/make_libs.sh" "$LIBS" "$CUDART" | sed 's/^/libs: /'
BARS=""
if [ -n "$CLI" ]; then
    "$CLI" sample-data --out "$W/bars.csv" --days 30 >/dev/null 2>&1 && BARS=$W/bars.csv
fi
# A tiny /dev/shm for one command: a private mount namespace with a 1 MiB tmpfs over /dev/shm (nothing else sees
# it); where namespaces are refused, a file filling the real /dev/shm, if that is small enough to fill.
SHM_HOW=""
if unshare -m sh -c 'mount -t tmpfs -o size=1m tmpfs /dev/shm' 2>/dev/null; then
    SHM_HOW=unshare
else
    shm_avail_kb=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
    if [ -n "$shm_avail_kb" ] && [ "$shm_avail_kb" -le $((8 * 1024 * 1024)) ] && [ -w /dev/shm ]; then
        SHM_HOW=fill
    fi
fi
echo "tiny /dev/shm by: ${SHM_HOW:-nothing (no mount namespace, /dev/shm too big to fill)}"
tiny_shm() {
    case "$SHM_HOW" in
        unshare)
            # shellcheck disable=SC2016 # $@ is the inner shell's
            WRAP=(unshare -m sh -c 'mount -t tmpfs -o size=1m,mode=1777 tmpfs /dev/shm && exec "$@"' sh) ;;
        fill)
            local avail
            avail=$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')
            fallocate -l $(((avail - 1024) * 1024)) /dev/shm/live-faults-filler 2>/dev/null \
                || { skip_step "fallocate on /dev/shm failed"; return 1; }
            STEP_CLEAN='rm -f /dev/shm/live-faults-filler'
            note "/dev/shm filled to 1 MiB free by a file (no mount namespace)" ;;
        *) skip_step "cannot make a small /dev/shm here (no mount namespace; /dev/shm over 8 GiB)"; return 1 ;;
    esac
}
TORCHRUN=("$PY" -m torch.distributed.run)

# ---- the faults ----------------------------------------------------------------------------------------------------
f_train() { user "$PY" "$FD/train_step.py" "${DEV[@]}" "$@"; }
f_cli_train() { # OUTNAME ARGS...: the CLI's own training run
    if [ -z "$CLI" ] || [ -z "$BARS" ]; then skip_step "no stackscope-cli (or no sample data)"; return; fi
    local out=$W/train-$1
    shift
    user "$CLI" train --input "$BARS" --output "$out" --patience 0 "$@"
}
f_torchrun2() { user "${TORCHRUN[@]}" --standalone --nproc_per_node 2 "$FD/allreduce.py" --steps 5 "$@"; }

# visibility
fault_cvd_empty() { FENV=(CUDA_VISIBLE_DEVICES=); f_train; }
fault_cvd_empty_cli() { FENV=(CUDA_VISIBLE_DEVICES=); f_cli_train cvd --epochs 1 --device gpu:0; }
fault_cvd_uuid() { FENV=(CUDA_VISIBLE_DEVICES=GPU-00000000-bogus-uuid); f_train; }
fault_cvd_index() { local i=7; [ "$NGPU" -gt 7 ] && i=$NGPU; FENV=("CUDA_VISIBLE_DEVICES=$i"); f_train; }
fault_ordinal() { local i=5; [ "$NGPU" -gt 5 ] && i=$NGPU; f_train --device "cuda:$i"; }
# memory
fault_oom_other() {
    helper_bg holder "$PY" "$FD/hold_gpu.py" --device 0 --leave-mib 1024 --ready "$W/hold.ready"
    wait_file "$W/hold.ready" 60 || note "the holder was not ready in 60 s"
    user "$PY" "$FD/oom.py" --gib 4
}
fault_oom_big() { user "$PY" "$FD/oom.py" --gib 2048; }
# kernels
fault_assert_index() { user "$PY" "$FD/index_oob.py" --mode index; }
fault_assert_labels() { user "$PY" "$FD/index_oob.py" --mode nll; }
fault_illegal_address() { user "$PY" "$FD/illegal_address.py"; }
fault_triton_smem() { user "$PY" "$FD/triton_smem.py"; }
# rendezvous / NCCL
fault_socket_ifname() { FENV=(NCCL_SOCKET_IFNAME=nosuchif); f_torchrun2; }
fault_socket_ifname_info() { FENV=(NCCL_SOCKET_IFNAME=nosuchif NCCL_DEBUG=INFO); f_torchrun2; }
fault_port_in_use() {
    helper_bg listener "$PY" "$FD/port_holder.py" "$W/port"
    wait_file "$W/port" 20 || { skip_step "the listener did not start"; return; }
    local port
    port=$(cat "$W/port")
    note "port $port held by another listener"
    user "${TORCHRUN[@]}" --nnodes 1 --nproc_per_node 2 --master_addr 127.0.0.1 --master_port "$port" \
        "$FD/allreduce.py" --steps 5
}
fault_rendezvous() {
    local port
    port=$(free_port)
    FENV=(MASTER_ADDR=127.0.0.1 "MASTER_PORT=$port" RANK=1 WORLD_SIZE=2 LOCAL_RANK=0)
    user "$PY" "$FD/allreduce.py" --timeout-s 8 --steps 5
}
rank_fault() { # SIGNAL: rank 1 of a 2-"node" job gets it after its first all-reduce; rank 0 must find out alone
    local sig=$1 port pids=$W/pids-$NAME pid i
    port=$(free_port)
    mkdir -p "$pids"
    user_bg "$FD/two_nodes.sh" "$port" "$FD/allreduce.py" --seconds 120 --timeout-s 10 --pid-dir "$pids"
    if ! wait_file "$pids/rank1.pid" 30; then
        note "rank 1 never finished its first all-reduce"
        user_wait
        return
    fi
    pid=$(cat "$pids/rank1.pid")
    kill "-$sig" "$pid" 2>/dev/null && note "rank 1 (pid $pid) got SIG$sig"
    # rank 0 now waits on a peer that never answers, until its watchdog or NCCL ends it; after the watchdog's first
    # line, its debug dump can take a minute more: the step ends 8 s after that line (or when the time is up)
    local said="" r0
    for ((i = 0; i < (T - 5) * 10; i++)); do
        r0=$(cat "$pids/rank0.pid" 2>/dev/null)
        if [ -n "$r0" ] && ! alive "$r0"; then break; fi
        if [ -z "$said" ] && grep -aq -e "Watchdog caught" -e "ncclRemoteError" -e "remote process exited" "$LOG"; then
            said=$i
        fi
        if [ -n "$said" ] && [ $((i - said)) -ge 80 ]; then
            note "rank 0 still alive 8 s after its first error line (dumping debug info): killed"
            kill -KILL "$r0" 2>/dev/null
            break
        fi
        sleep 0.1
    done
    kill -CONT "$pid" 2>/dev/null
    kill -KILL "$pid" 2>/dev/null # a stopped rank never exits by itself; the launcher waits for it
    user_wait
}
fault_rank_stopped() { rank_fault STOP; }
fault_rank_killed() { rank_fault KILL; }
fault_same_gpu() { f_torchrun2 --same-gpu; }
fault_nccl_shm() { tiny_shm || return; FENV=(NCCL_CUMEM_ENABLE=0 NCCL_P2P_DISABLE=1); f_torchrun2; }
fault_nccl_shm_cumem() { tiny_shm || return; FENV=(NCCL_P2P_DISABLE=1); f_torchrun2; }
fault_dataloader_shm() { tiny_shm || return; user "$PY" "$FD/dataloader_shm.py" --workers 2; }
fault_nccl_net() { FENV=(NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_NET=nonexistent); f_torchrun2; }
fault_nccl_ib_hca() { FENV=(NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_NET=IB NCCL_IB_HCA=nonexistent); f_torchrun2; }
# loaders
shadow() { # DIR: prepended to LD_LIBRARY_PATH, as a user adds a folder of libraries
    if [ -z "$(ls -A "$LIBS/$1" 2>/dev/null)" ]; then skip_step "library $1 not made (no C compiler?)"; return 1; fi
    FENV=("LD_LIBRARY_PATH=$LIBS/$1:${LD_LIBRARY_PATH:-}")
}
fault_shadow_cudart() { shadow empty && f_train; }
fault_shadow_nccl_old() { shadow oldnccl && f_train; }
fault_driver_empty() { shadow nodriver && f_train; }
cuda_stubs() { # a folder like the CUDA toolkit's stubs/ after a Dockerfile's `ln -s libcuda.so libcuda.so.1`
    local stub="" f
    for f in /usr/local/cuda*/lib64/stubs/libcuda.so /usr/local/cuda*/targets/*/lib/stubs/libcuda.so; do
        [ -f "$f" ] && { stub=$f; break; }
    done
    if [ -z "$stub" ]; then skip_step "no CUDA toolkit stub libcuda.so here"; return 1; fi
    mkdir -p "$W/stubs"
    cp "$stub" "$W/stubs/libcuda.so"
    ln -sf libcuda.so "$W/stubs/libcuda.so.1"
    FENV=("LD_LIBRARY_PATH=$W/stubs:${LD_LIBRARY_PATH:-}")
    note "stub: $stub"
}
fault_driver_stub() { cuda_stubs && f_train; }
fault_driver_stub_cli() { cuda_stubs && f_cli_train stub --epochs 1 --device gpu:0; }
fault_old_libstdcxx() { shadow oldstdcxx && f_train; }
fault_preload_missing() {
    local lib=libtcmalloc_minimal.so.4
    ldconfig -p 2>/dev/null | grep -q "$lib" && lib=$W/nonexistent/$lib
    FENV=("LD_PRELOAD=$lib")
    f_train --steps 50
}
fault_ext_missing_dep() {
    [ -f "$LIBS/ext_dep/myops_ext.so" ] || { skip_step "extension not built (no C compiler?)"; return; }
    user "$PY" "$FD/import_ext.py" --path "$LIBS/ext_dep" --module myops_ext
}
fault_ext_abi() {
    [ -f "$LIBS/ext_abi/flash_ops.so" ] || { skip_step "extension not built (no C compiler?)"; return; }
    user "$PY" "$FD/import_ext.py" --path "$LIBS/ext_abi" --module flash_ops
}
fault_ext_glibcxx() {
    [ -f "$LIBS/ext_glibcxx/fused_ops.so" ] || { skip_step "extension not built (no C compiler?)"; return; }
    user "$PY" "$FD/import_ext.py" --path "$LIBS/ext_glibcxx" --module fused_ops
}
# a checkpoint saved from cuda:1 of a 2-GPU job, loaded (torch.load, no map_location) where one GPU is visible
fault_load_missing_gpu() {
    local ck=$W/ck-cuda1.pt
    env CUDA_VISIBLE_DEVICES=0,1 timeout -k 5 "$T" "$PY" "$FD/checkpoint.py" save --path "$ck" --device cuda:1 \
        >>"$LOG" 2>&1 || { skip_step "could not save the checkpoint on cuda:1"; return; }
    FENV=(CUDA_VISIBLE_DEVICES=0)
    user "$PY" "$FD/checkpoint.py" load --path "$ck"
}
# a just-in-time CUDA extension with TORCH_CUDA_ARCH_LIST in nvcc's spelling (sm_90), not PyTorch's (9.0)
fault_arch_list_sm() {
    command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || { skip_step "no nvcc"; return; }
    FENV=(TORCH_CUDA_ARCH_LIST=sm_90 "PATH=/usr/local/cuda/bin:$PATH")
    user "$PY" "$FD/ext_arch_list.py" --build-dir "$W/ext-arch"
}
# a CUDA Dataset under fork-started DataLoader workers
fault_cuda_fork() { user "$PY" "$FD/dataloader_cuda_fork.py"; }
# torch.compile where no C compiler is on PATH (a slim runtime image): PATH keeps every other program (links to
# them), gcc/cc/clang are left out, CC is unset, and the Triton/Inductor caches are fresh (so the launcher is built).
fault_compile_no_cc() {
    local bin=$W/nocc-bin d f
    rm -rf "$bin" "$W/nocc-cache" && mkdir -p "$bin" "$W/nocc-cache"
    for d in ${PATH//:/ }; do
        for f in "$d"/*; do
            case "${f##*/}" in gcc | gcc-[0-9]* | cc | clang | clang-[0-9]* | *-linux-gnu-gcc*) continue ;; esac
            [ -x "$f" ] && [ ! -e "$bin/${f##*/}" ] && ln -s "$f" "$bin/${f##*/}"
        done
    done
    FENV=(-u CC "PATH=$bin" "TRITON_CACHE_DIR=$W/nocc-cache/triton" "TORCHINDUCTOR_CACHE_DIR=$W/nocc-cache/inductor")
    user "$PY" "$FD/compile_step.py"
}

# A just-in-time C++ extension built with MAX_JOBS unset on a machine whose RAM the compilers outgrow: the user's
# command runs in a memory cgroup of LF_BUILD_RAM (default 900M), no swap; the kernel's OOM killer ends the biggest
# process there. The limit is a guess below python-with-torch plus one cc1plus on torch/extension.h (neither measured
# alone); what it did is measured: session 30 on H200 hosts, memory.peak 943,718,400 B, oom_kill 1, cc1plus killed
# (the note records both). Skipped where no cgroup v2 memory controller can be written (a container without it).
fault_build_ram() {
    local cg=/sys/fs/cgroup/live-faults-build-ram
    command -v c++ >/dev/null || { skip_step "no C++ compiler"; return; }
    rmdir "$cg" 2>/dev/null
    if ! mkdir "$cg" 2>/dev/null || ! echo "${LF_BUILD_RAM:-900M}" >"$cg/memory.max" 2>/dev/null; then
        rmdir "$cg" 2>/dev/null
        skip_step "no writable cgroup v2 memory controller at /sys/fs/cgroup"
        return
    fi
    echo 0 >"$cg/memory.swap.max" 2>/dev/null
    STEP_CLEAN="rmdir $cg 2>/dev/null"
    # shellcheck disable=SC2016 # $$ and $@ are the inner shell's
    WRAP=(sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg")
    FENV=(-u MAX_JOBS)
    user "$PY" "$FD/ext_build.py" --build-dir "$W/ext-ram"
    note "cgroup memory.max ${LF_BUILD_RAM:-900M}; peak $(cat "$cg/memory.peak" 2>/dev/null || echo '?') B;" \
        "oom_kill $(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events" 2>/dev/null)"
}

# switches left on
fault_alloc_conf() { FENV=("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True,garbage_option:1"); f_train; }
env_train() { FENV=("$@"); f_train; }
fault_nccl_debug() { FENV=(NCCL_DEBUG=INFO TORCH_USE_CUDA_DSA=1); f_torchrun2; }

# name | expected | GPUs | how the user made it | step
fault healthy_train_cpu healthy cpuonly "nothing broken: the user's training script on the CPU" f_train --steps 50
fault healthy_train_1gpu healthy 1 "nothing broken: the user's training script on GPU 0" f_train
fault healthy_cli_train healthy 1 "nothing broken: stackscope-cli train --device gpu:0 --epochs 1" \
    f_cli_train healthy --epochs 1 --device gpu:0
fault healthy_allreduce_2gpu healthy 2 "nothing broken: torchrun, 2 ranks, NCCL all_reduce" f_torchrun2
fault cvd_empty CUDA_NO_DEVICE_VISIBLE 1 "CUDA_VISIBLE_DEVICES='' left set; the training script uses cuda" fault_cvd_empty
fault cvd_empty_cli CUDA_NO_DEVICE_VISIBLE 1 "CUDA_VISIBLE_DEVICES=''; stackscope-cli train --device gpu:0" fault_cvd_empty_cli
fault cvd_bogus_uuid CUDA_NO_DEVICE_VISIBLE 1 "CUDA_VISIBLE_DEVICES=GPU-00000000-bogus-uuid (a UUID from another machine)" fault_cvd_uuid
fault cvd_index_absent CUDA_NO_DEVICE_VISIBLE 1 "CUDA_VISIBLE_DEVICES=7 on a machine with fewer GPUs" fault_cvd_index
fault invalid_ordinal CUDA_INVALID_DEVICE_ORDINAL 1 "the script asks for torch.device('cuda:5') (no such GPU)" fault_ordinal
fault oom_other_process CUDA_OOM 1 "another process holds all but 1 GiB of GPU 0; the script allocates 4 GiB" fault_oom_other
fault oom_too_big CUDA_OOM 1 "the script allocates a 2 TiB batch" fault_oom_big
fault assert_index CUDA_DEVICE_SIDE_ASSERT 1 "index 10 of a 4-element CUDA tensor" fault_assert_index
fault assert_labels CUDA_DEVICE_SIDE_ASSERT 1 "cross_entropy with labels up to 9 for 5 classes" fault_assert_labels
fault illegal_address CUDA_ILLEGAL_ADDRESS 1 "the user's Triton kernel reads 1 TiB past its buffer" fault_illegal_address
fault triton_smem TRITON_OUT_OF_RESOURCES 1 "the user's Triton matmul with tiles tuned for a bigger GPU (about 1 MiB of shared memory a block)" fault_triton_smem
fault socket_ifname NCCL_SOCKET_INTERFACE 2 "NCCL_SOCKET_IFNAME=nosuchif; torchrun 2-rank all_reduce" fault_socket_ifname
fault socket_ifname_info NCCL_SOCKET_INTERFACE 2 "NCCL_SOCKET_IFNAME=nosuchif with NCCL_DEBUG=INFO (its error trace lines too); torchrun all_reduce" fault_socket_ifname_info
fault port_in_use DIST_ADDRESS_IN_USE cpu "MASTER_PORT held by another listener; torchrun --master_port it" fault_port_in_use
fault rendezvous_refused DIST_RENDEZVOUS_FAILED cpu "rank 1 of 2, MASTER_ADDR:MASTER_PORT a closed local port, init timeout 8 s" fault_rendezvous
fault same_gpu NCCL_INVALID_USAGE 1 "torchrun 2 ranks, both torch.cuda.set_device(0)" fault_same_gpu
fault nccl_net_nonexistent NCCL_INVALID_USAGE 2 "NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_NET=nonexistent; torchrun all_reduce" fault_nccl_net
fault nccl_ib_hca "NCCL_IB_ERROR|NCCL_INVALID_USAGE" 2 "NCCL_NET=IB NCCL_IB_HCA=nonexistent (P2P, SHM off); torchrun all_reduce" fault_nccl_ib_hca
fault nccl_shm_full NCCL_SHM 2 "1 MiB /dev/shm, NCCL_CUMEM_ENABLE=0 NCCL_P2P_DISABLE=1 (SHM transport in /dev/shm); torchrun all_reduce" fault_nccl_shm
fault nccl_shm_cumem healthy 2 "1 MiB /dev/shm, NCCL_P2P_DISABLE=1, NCCL's default cuMem host memory (no /dev/shm used); torchrun all_reduce" fault_nccl_shm_cumem
fault dataloader_shm_full SHM_TOO_SMALL cpu "1 MiB /dev/shm; DataLoader(num_workers=2) of 8 MB batches" fault_dataloader_shm
fault shadow_cudart healthy cpu "LD_LIBRARY_PATH folder with an empty $CUDART (torch's RPATH finds its own first)" fault_shadow_cudart
fault shadow_nccl_old healthy cpu "LD_LIBRARY_PATH folder with an old libnccl.so.2 (torch's RPATH finds its own first)" fault_shadow_nccl_old
fault driver_empty "CUDA_NO_DRIVER|SHARED_LIBRARY_MISSING" 1 "LD_LIBRARY_PATH folder with an empty libcuda.so.1 (shadows the driver's)" fault_driver_empty
fault driver_stub "CUDA_NO_DRIVER|SHARED_LIBRARY_MISSING" 1 "LD_LIBRARY_PATH=CUDA toolkit stubs/ with libcuda.so.1 -> the stub libcuda.so" fault_driver_stub
fault driver_stub_cli "CUDA_NO_DRIVER|SHARED_LIBRARY_MISSING" 1 "the same stubs/ folder; stackscope-cli train --device gpu:0" fault_driver_stub_cli
fault old_libstdcxx LIBSTDCXX_TOO_OLD cpu "LD_LIBRARY_PATH folder with an old libstdc++.so.6 (an old conda env's lib/)" fault_old_libstdcxx
fault preload_missing LOADER_PRELOAD_IGNORED cpu "LD_PRELOAD=libtcmalloc_minimal.so.4, not installed (the run itself goes on)" fault_preload_missing
fault ext_missing_dep SHARED_LIBRARY_MISSING cpu "import of an extension whose libmyops_cuda.so.1 is not on the path" fault_ext_missing_dep
fault ext_abi UNDEFINED_SYMBOL cpu "import of an extension built against another torch (undefined c10 symbol)" fault_ext_abi
fault ext_glibcxx LIBSTDCXX_TOO_OLD cpu "import of an extension built against a libstdc++ with GLIBCXX_3.4.99" fault_ext_glibcxx
fault cuda_fork_reinit CUDA_FORK_REINIT 1 "a Dataset returning CUDA tensors, DataLoader(num_workers=2) forked after the model went to the GPU" fault_cuda_fork
fault load_missing_gpu "TORCH_LOAD_CUDA_DEVICE_MISSING|CUDA_INVALID_DEVICE_ORDINAL" 2 "a checkpoint saved on cuda:1, torch.load (no map_location) with CUDA_VISIBLE_DEVICES=0" fault_load_missing_gpu
fault arch_list_sm EXTENSION_UNKNOWN_CUDA_ARCH 1 "TORCH_CUDA_ARCH_LIST=sm_90 (nvcc's spelling) for a just-in-time CUDA extension" fault_arch_list_sm
fault build_ram BUILD_JOBS_EXHAUST_RAM cpu "a just-in-time C++ extension, MAX_JOBS unset, in a 900 MiB memory cgroup (a small machine's RAM)" fault_build_ram
fault compile_no_cc TRITON_NO_C_COMPILER 1 "torch.compile of a training step with no gcc/clang on PATH and CC unset (a slim runtime image)" fault_compile_no_cc
fault alloc_conf_bad OTHER 1 "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True,garbage_option:1" fault_alloc_conf
fault launch_blocking healthy 1 "CUDA_LAUNCH_BLOCKING=1 left on (slow, fine)" env_train CUDA_LAUNCH_BLOCKING=1
fault dsa_left_on healthy 1 "TORCH_USE_CUDA_DSA=1 left on" env_train TORCH_USE_CUDA_DSA=1
fault nccl_debug_info healthy 2 "NCCL_DEBUG=INFO and TORCH_USE_CUDA_DSA=1 left on; torchrun all_reduce" fault_nccl_debug
fault no_caching healthy 1 "PYTORCH_NO_CUDA_MEMORY_CACHING=1 left on" env_train PYTORCH_NO_CUDA_MEMORY_CACHING=1
fault module_loading_eager healthy 1 "CUDA_MODULE_LOADING=EAGER" env_train CUDA_MODULE_LOADING=EAGER
fault hip_visible_on_nvidia healthy 1 "HIP_VISIBLE_DEVICES=0 on an NVIDIA machine (ignored)" env_train HIP_VISIBLE_DEVICES=0
# The hangs last: a stopped / killed rank leaves NCCL state behind only in processes that are killed here.
fault rank_stopped NCCL_WATCHDOG_TIMEOUT 2 "2-node job (2 processes), rank 1 SIGSTOPped during all_reduce, timeout 10 s" fault_rank_stopped
fault rank_killed "NCCL_WATCHDOG_TIMEOUT|NCCL_REMOTE_ERROR" 2 "2-node job (2 processes), rank 1 killed -9 during all_reduce, timeout 10 s" fault_rank_killed

# ---- result --------------------------------------------------------------------------------------------------------
echo
echo "== live faults ($((SECONDS - SUITE_T0)) s for the faults)"
"$PY" tests/device/live_faults_score.py "$MANIFEST" "$LOGS" "$OUT/live_faults.tsv"
echo
echo "== where each user command ended (the last error-looking line of its log)"
awk -F'\t' 'NR > 1 && $7 == "ran" { printf "  %-22s rc %-4s %s\n", $1, $8, $13 }' "$OUT/live_faults.tsv"
find "$LOGS" -type f -empty -delete
tar -C "$OUT" -czf "$OUT/live_faults_logs.tgz" faults && rm -rf "$LOGS"
exit 0
