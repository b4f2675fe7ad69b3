#!/bin/bash
# Issue 33 on the GPU machine: StackScope's bandwidth suite beside NVIDIA's nvbandwidth and nccl-tests in the same
# run, an injected degradation (NCCL_P2P_DISABLE=1), and one GPU filled by another process (pre-flight).
# Needs .deps (Debian -dev headers) and .deps/anchors/{nvbandwidth,nccl-tests} (git archive of NVIDIA/nvbandwidth and
# NVIDIA/nccl-tests, see tests/bench/RESULTS.md for the commits) carried to the machine.
. tests/device/common.sh
device_begin bandwidth "bandwidth suite vs nvbandwidth and nccl-tests"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
device_build "${BUILD:-/tmp/build-bw}" bw -DSTACKSCOPE_TESTS=OFF -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_NCCL=ON \
    -DSTACKSCOPE_HIP=OFF -DCMAKE_CUDA_ARCHITECTURES=90-real -- stackscope-cli stackscope_torch
A=.deps/anchors
( # the anchors build while StackScope measures nothing yet: they are built first, run after
  # nvbandwidth's CMake wants Boost's static program_options; its sources are compiled directly against the boost
  # headers and library carried in .deps/anchors/boost (Debian's 1.74).
  mkdir -p /tmp/nvb && (cd $A/nvbandwidth && for f in *.cpp json/jsoncpp.cpp kernels.cu; do
      nvcc -O3 -std=c++17 -arch=sm_90 -I. -I../boost/include -DGIT_VERSION='"carried"' -c $f -o /tmp/nvb/$(basename $f).o & done; wait
      nvcc -o /tmp/nvb/nvbandwidth /tmp/nvb/*.o ../boost/lib/libboost_program_options.a -lnvidia-ml -lcuda) \
      >"$OUT/nvb-build.log" 2>&1 || { echo "FAIL: nvbandwidth build"; tail -20 "$OUT/nvb-build.log"; }
  NCCL_DIR=$("$PY" -c 'import nvidia.nccl, os; print(list(nvidia.nccl.__path__)[0])')
  mkdir -p /tmp/nccl/lib && ln -sf "$NCCL_DIR/include" /tmp/nccl/include && ln -sf "$NCCL_DIR"/lib/libnccl.so.2 /tmp/nccl/lib/libnccl.so
  make -C $A/nccl-tests -j16 MPI=0 CUDA_HOME=/usr/local/cuda NCCL_HOME=/tmp/nccl BUILDDIR=/tmp/nccl-tests \
      NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90" >"$OUT/nccl-tests-build.log" 2>&1 || { echo "FAIL: nccl-tests build"; tail -20 "$OUT/nccl-tests-build.log"; }
) 
export LD_LIBRARY_PATH=/tmp/nccl/lib:$LD_LIBRARY_PATH
N=$(nvidia-smi -L | wc -l)
echo "== snapshot (nvlinks, pcie)"
"$CLI" inspect --json > "$OUT/inspect.json" 2>/dev/null
"$PY" -c "import json; d=json.load(open('$OUT/inspect.json')); [print(g['index'], g['name'], g.get('arch'), g.get('pci_bus'), g.get('pcie_links'), 'nvlinks', len(g.get('nvlinks') or []), (g.get('nvlinks') or [None])[0]) for g in d['gpus']]"
echo "== StackScope bench bandwidth (healthy)"
"$CLI" bench bandwidth --json > "$OUT/bw-healthy.json" 2>"$OUT/bw-healthy.err"; "$CLI" bench bandwidth --sweep > "$OUT/bw-healthy.txt"; grep -vE "^    expected" "$OUT/bw-healthy.txt" | head -45
echo "== nvbandwidth (1 GiB buffers, as StackScope's judged size)"
/tmp/nvb/nvbandwidth -b 1024 -t host_to_device_memcpy_ce device_to_host_memcpy_ce device_to_device_memcpy_read_ce \
    device_to_device_memcpy_write_ce device_to_device_bidirectional_memcpy_read_ce device_to_device_memcpy_read_sm \
    device_local_copy 2>&1 | tee "$OUT/nvbandwidth.txt" | grep -vE "^\s*$" | tail -60
echo "== nccl-tests (one process, $N GPUs, 4 KiB to 1 GiB)"
for t in all_reduce all_gather reduce_scatter; do
  /tmp/nccl-tests/${t}_perf -b 4K -e 1G -f 4 -g $N -w 1 -n 20 2>&1 | tee "$OUT/nccl-$t.txt" | grep -E "^\s+(1073741824|268435456|67108864|4194304)|Avg bus"
done
echo "== injected: NCCL_P2P_DISABLE=1"
NCCL_P2P_DISABLE=1 "$CLI" bench bandwidth --tests peer_ce,all_reduce,all_gather | tee "$OUT/bw-p2p-disabled.txt"
NCCL_P2P_DISABLE=1 /tmp/nccl-tests/all_reduce_perf -b 1G -e 1G -g $N -w 1 -n 20 2>&1 | grep -E "^\s+1073741824|Avg bus"
echo "== context reserve: memory a torch process holds on a GPU after init, a matmul and an all-reduce-free step"
"$PY" -c "
import torch, subprocess, os
a = torch.randn(1024, 1024, device='cuda:0'); (a @ a).sum().item(); del a
torch.cuda.empty_cache()
print(subprocess.run(['nvidia-smi', '--query-compute-apps=pid,used_memory', '--format=csv,noheader'], capture_output=True, text=True).stdout.strip(), 'own pid', os.getpid())
"
echo "== GPU 0 full: another process holds all but 1 GiB"
"$PY" -c "
import torch, time, sys
free, total = torch.cuda.mem_get_info(0)
x = torch.empty(free - (1 << 30), dtype=torch.uint8, device='cuda:0')
print('holding', x.numel() / 2**30, 'GiB of', total / 2**30, flush=True)
time.sleep(400)
" & HOG=$!
sleep 12
"$CLI" inspect 2>/dev/null | grep -iE "GPU 0|process|holds|free" | head -8
start=$(date +%s%N); timeout 300 "$CLI" bench bandwidth --tests h2d_pinned,peer_ce,all_reduce | tail -12; echo "bench bandwidth with GPU 0 full: $(( ($(date +%s%N) - start) / 1000000 )) ms"
start=$(date +%s%N); timeout 330 "$CLI" probe > "$OUT/probe-gpu-full.txt" 2>&1; rc=$?; echo "probe (default grid) with GPU 0 full: rc $rc, $(( ($(date +%s%N) - start) / 1000000 )) ms"
grep -ciE "out of memory|skipped" "$OUT/probe-gpu-full.txt"; tail -15 "$OUT/probe-gpu-full.txt"
kill $HOG 2>/dev/null; wait $HOG 2>/dev/null
echo "== healthy probe grid: copy figures"
start=$(date +%s%N); timeout 300 "$CLI" probe --json > "$OUT/probe-healthy.json" 2>"$OUT/probe-healthy.err"; echo "probe healthy: rc $?, $(( ($(date +%s%N) - start) / 1000000 )) ms"
"$PY" -c "
import json; d=json.load(open('$OUT/probe-healthy.json'))
for r in d['results']:
    if (r.get('probe') or r.get('probe_id')) in ('copy_h2d','copy_d2h','peer_copy','all_reduce'): print(r.get('device'), r.get('probe') or r.get('probe_id'), r['outcome'], r.get('message','')[:150])
"
