#!/usr/bin/env python3
"""The user's own small training script (a few hundred Adam steps of an MLP on random data): the command most live
faults run under a broken environment, and the healthy baseline when nothing is broken.
  python3 train_step.py [--device cuda|cuda:N|cpu] [--steps N] [--width W] [--batch B]"""
import argparse
import time

import torch
import torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--device", default="cuda")
p.add_argument("--steps", type=int, default=200)
p.add_argument("--width", type=int, default=1024)
p.add_argument("--batch", type=int, default=512)
a = p.parse_args()

dev = torch.device(a.device)
print(f"torch {torch.__version__}; training on {dev}", flush=True)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, a.width), nn.ReLU(), nn.Linear(a.width, a.width), nn.ReLU(), nn.Linear(a.width, 1)).to(dev)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(a.batch * 8, 64, device=dev)
y = x[:, :1].sin() + 0.1 * torch.randn(a.batch * 8, 1, device=dev)
t0 = time.time()
for step in range(1, a.steps + 1):
    i = torch.randint(0, x.shape[0], (a.batch,), device=dev)
    loss = nn.functional.mse_loss(model(x[i]), y[i])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0 or step == a.steps:
        print(f"step {step} loss {loss.item():.4f}", flush=True)
print(f"done: {a.steps} steps in {time.time() - t0:.1f} s", flush=True)
