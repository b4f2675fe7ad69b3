#!/usr/bin/env python3
"""The user's Dataset moves each sample to the GPU, and the DataLoader forks its workers after the parent process
has used CUDA (the model is already on the GPU; fork is Linux's default start method before Python 3.14) ->
"Cannot re-initialize CUDA in forked subprocess".
  python3 dataloader_cuda_fork.py"""
import torch
from torch.utils.data import DataLoader, Dataset


class GpuSamples(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.randn(16, device="cuda")  # the bug: CUDA inside a worker process


model = torch.nn.Linear(16, 4).cuda()
loader = DataLoader(GpuSamples(), batch_size=8, num_workers=2)
for x in loader:
    model(x).sum().backward()
print("done")
