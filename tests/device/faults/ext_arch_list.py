#!/usr/bin/env python3
"""The user's CUDA extension, compiled just in time (torch.utils.cpp_extension.load_inline), with whatever
TORCH_CUDA_ARCH_LIST the shell has: the architectures nvcc should build for. Run with a list PyTorch does not accept
(e.g. TORCH_CUDA_ARCH_LIST=sm_90, nvcc's spelling instead of PyTorch's "9.0").
  TORCH_CUDA_ARCH_LIST=sm_90 python3 ext_arch_list.py --build-dir /tmp/ext"""
import argparse
import os

import torch
from torch.utils.cpp_extension import load_inline

p = argparse.ArgumentParser()
p.add_argument("--build-dir", required=True)
a = p.parse_args()
os.makedirs(a.build_dir, exist_ok=True)
cuda = r"""
__global__ void scale_kernel(float* x, float s, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= s; }
void scale(torch::Tensor x, double s) {
    const int n = x.numel();
    scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), static_cast<float>(s), n);
}
"""
print(f"TORCH_CUDA_ARCH_LIST={os.environ.get('TORCH_CUDA_ARCH_LIST', '')!r}", flush=True)
mod = load_inline(name="scale_ext", cpp_sources="void scale(torch::Tensor x, double s);", cuda_sources=cuda,
                  functions=["scale"], build_directory=a.build_dir, verbose=False)
x = torch.ones(1024, device="cuda")
mod.scale(x, 2.0)
torch.cuda.synchronize()
print(f"ok: {x.sum().item()}", flush=True)
