#!/usr/bin/env python3
"""The user's indexing bug on the GPU: --mode index gathers element 10 of a 4-element tensor; --mode nll trains a
5-class classifier whose labels run up to 9 (labels >= num_classes). Both end in a device-side assert.
  python3 index_oob.py --mode nll"""
import argparse

import torch
import torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--mode", choices=["index", "nll"], default="nll")
a = p.parse_args()
dev = torch.device("cuda")
if a.mode == "index":
    x = torch.zeros(4, device=dev)
    idx = torch.tensor([10], device=dev)
    print("gathering", flush=True)
    print(x[idx].sum().item(), flush=True)
else:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 5)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1, 21):
        x = torch.randn(128, 32, device=dev)
        labels = torch.randint(0, 10, (128,), device=dev)  # the bug: 10 classes in the data, 5 in the model
        loss = nn.functional.cross_entropy(model(x), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
