#!/usr/bin/env python3
"""A training step the user wraps in torch.compile, on GPU 0. Run with no C compiler on PATH (a slim runtime
image), Triton cannot build its launcher: "Failed to find C compiler. Please specify via CC environment variable".
  python3 compile_step.py"""
import torch


@torch.compile
def step(x, w):
    return torch.nn.functional.gelu(x @ w).sum()


x = torch.randn(256, 256, device="cuda")
w = torch.randn(256, 256, device="cuda", requires_grad=True)
step(x, w).backward()
print("done", w.grad.abs().sum().item())
