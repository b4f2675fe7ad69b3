#!/usr/bin/env python3
"""The user's own Triton matmul tuned on a bigger GPU: 256x256 tiles with K=128 and 4 pipeline stages in fp32 need about
1 MiB of shared memory per block, more than any GPU has (H100: 227 KiB) -> Triton raises
triton.runtime.errors.OutOfResources ("out of resource: shared memory, Required: N, Hardware limit: M").
  python3 triton_smem.py"""
import torch
import triton
import triton.language as tl


@triton.jit
def matmul(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


n = 1024
a = torch.randn(n, n, device="cuda")
b = torch.randn(n, n, device="cuda")
c = torch.empty(n, n, device="cuda")
matmul[(n // 256, n // 256)](a, b, c, n, n, n, BM=256, BN=256, BK=128, num_stages=4)
torch.cuda.synchronize()
print("matmul done", float(c.sum()))
