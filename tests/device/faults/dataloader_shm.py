#!/usr/bin/env python3
"""The user's input pipeline: a DataLoader with worker processes handing 4 MB samples to the main process through
shared memory (/dev/shm), then to the GPU when there is one.
  python3 dataloader_shm.py [--workers 2]"""
import argparse

import torch
from torch.utils.data import DataLoader, Dataset

p = argparse.ArgumentParser()
p.add_argument("--workers", type=int, default=2)
p.add_argument("--batches", type=int, default=16)
a = p.parse_args()


class Images(Dataset):
    def __len__(self):
        return a.batches * 8

    def __getitem__(self, i):
        return torch.full((3, 512, 682), float(i)), i % 10


dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
loader = DataLoader(Images(), batch_size=8, num_workers=a.workers)
total = 0.0
for step, (x, y) in enumerate(loader, 1):
    total += x.to(dev).mean().item()
    if step % 4 == 0:
        print(f"batch {step}: mean so far {total / step:.2f}", flush=True)
print(f"done: {step} batches", flush=True)
