#!/usr/bin/env python3
"""The user's step with a batch too large for the memory the GPU has free: allocates an activation of --gib GiB
(fp32, 8192 features) and multiplies it. With another process holding the card, a few GiB are too many; alone, ask
for more than the card has.
  python3 oom.py --gib 4"""
import argparse

import torch

p = argparse.ArgumentParser()
p.add_argument("--gib", type=float, default=4.0)
p.add_argument("--device", default="cuda")
a = p.parse_args()
dev = torch.device(a.device)
free, total = torch.cuda.mem_get_info(dev)
print(f"GPU memory: {free / 2**30:.1f} GiB free of {total / 2**30:.1f} GiB", flush=True)
w = torch.randn(8192, 8192, device=dev)
rows = int(a.gib * 2**30 / (4 * 8192))
print(f"batch of {rows} rows x 8192 features ({a.gib:.1f} GiB)", flush=True)
x = torch.randn(rows, 8192, device=dev)
y = x @ w
print(f"ok: {y.float().mean().item():.4f}", flush=True)
