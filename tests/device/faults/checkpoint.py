#!/usr/bin/env python3
"""The user's checkpoint round trip: `save` trains a step of a small model on --device (cuda:1 of a 2-GPU job) and
saves its state dict; `load` restores it the way most scripts do, torch.load without map_location, then runs a step.
Loaded where fewer GPUs are visible (CUDA_VISIBLE_DEVICES=0), torch.load cannot put cuda:1's tensors anywhere.
  python3 checkpoint.py save --path ck.pt --device cuda:1
  CUDA_VISIBLE_DEVICES=0 python3 checkpoint.py load --path ck.pt"""
import argparse

import torch

p = argparse.ArgumentParser()
p.add_argument("mode", choices=["save", "load"])
p.add_argument("--path", required=True)
p.add_argument("--device", default="cuda:0")
a = p.parse_args()
model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))
if a.mode == "save":
    model.to(a.device)
    loss = model(torch.randn(64, 256, device=a.device)).square().mean()
    loss.backward()
    torch.save(model.state_dict(), a.path)
    print(f"saved {a.path} from {a.device}, loss {loss.item():.4f}", flush=True)
else:
    print(f"GPUs visible: {torch.cuda.device_count()}", flush=True)
    state = torch.load(a.path)
    model.load_state_dict(state)
    model.to("cuda:0")
    print(f"resumed: {model(torch.randn(64, 256, device='cuda:0')).mean().item():.4f}", flush=True)
