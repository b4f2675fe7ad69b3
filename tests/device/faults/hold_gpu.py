#!/usr/bin/env python3
"""Another process on the same GPU (a notebook someone left open, a stuck job): takes all of GPU --device's free
memory but --leave-mib, writes --ready, then sleeps until it is killed.
  python3 hold_gpu.py --device 0 --leave-mib 1024 --ready FILE"""
import argparse
import time

import torch

p = argparse.ArgumentParser()
p.add_argument("--device", type=int, default=0)
p.add_argument("--leave-mib", type=int, default=1024)
p.add_argument("--ready", required=True)
a = p.parse_args()
dev = torch.device("cuda", a.device)
torch.cuda.set_device(dev)
free, total = torch.cuda.mem_get_info(dev)
want = free - a.leave_mib * 2**20
held = []
chunk = 1 << 30
while want > 0:
    n = min(chunk, want)
    try:
        held.append(torch.empty(n, dtype=torch.uint8, device=dev))
        want -= n
    except torch.OutOfMemoryError:
        if chunk <= 1 << 24:
            break
        chunk //= 2
torch.cuda.synchronize()
free_after, _ = torch.cuda.mem_get_info(dev)
print(f"holder: {sum(t.numel() for t in held) / 2**30:.1f} GiB held on cuda:{a.device}, "
      f"{free_after / 2**20:.0f} MiB left free", flush=True)
open(a.ready, "w").write("ready\n")
while True:
    time.sleep(60)
