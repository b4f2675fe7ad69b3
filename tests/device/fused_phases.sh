#!/usr/bin/env bash
# Where a step of the fused training kernel spends its time (issue 18): builds tests/device/fused_phases.cu with nvcc
# alone (no torch, no CMake) and runs it at batch 256, 8 and 1024; each run first checks the kernel's gradients of one
# batch against the CPU reference. Writes $OUT/fused_phases.txt. Usage (repo root): tests/device/fused_phases.sh
. tests/device/common.sh
device_begin fused_phases "fused step phases"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
ARCH=${ARCH:-sm_90}
"$NVCC" -std=c++17 -O3 -arch="$ARCH" -I. -DSTACKSCOPE_FUSED_MLP_GPU -diag-suppress 20011,20014 \
    tests/device/fused_phases.cu -o /tmp/fused_phases || { echo "FAIL: nvcc"; exit 1; }
fail=0
for batch in ${BATCHES:-256 8 1024}; do
    /tmp/fused_phases "$batch" "${STEPS:-1000}" || fail=1
done
echo "== result: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
