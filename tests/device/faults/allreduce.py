#!/usr/bin/env python3
"""The user's data-parallel script, started by torchrun (or one process per node by the job launcher): each rank
all-reduces a gradient-sized tensor --steps times, or keeps doing so for --seconds.
  torchrun --standalone --nproc-per-node 2 allreduce.py
Options that make the users' mistakes: --same-gpu (every rank calls torch.cuda.set_device(0)), --timeout-s (the
init_process_group timeout, i.e. how long a collective may wait), --pid-dir (each rank writes rank<R>.pid there once
its first all-reduce is done, so the harness can stop or kill one).
Works on CPU-only PyTorch (Gloo) too; --backend overrides the choice."""
import argparse
import datetime
import os
import time

import torch
import torch.distributed as dist

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=20)
p.add_argument("--seconds", type=float, default=0.0)
p.add_argument("--mb", type=float, default=64.0)
p.add_argument("--timeout-s", type=float, default=600.0)
p.add_argument("--same-gpu", action="store_true")
p.add_argument("--pid-dir")
p.add_argument("--backend")
a = p.parse_args()

rank = int(os.environ.get("RANK", "0"))
world = int(os.environ.get("WORLD_SIZE", "1"))
local = int(os.environ.get("LOCAL_RANK", str(rank)))
backend = a.backend or ("nccl" if torch.cuda.is_available() else "gloo")
if backend == "nccl":
    dev = torch.device("cuda", 0 if a.same_gpu else local)
    torch.cuda.set_device(dev)
else:
    dev = torch.device("cpu")
print(f"[rank {rank}/{world}] {backend} on {dev}, master {os.environ.get('MASTER_ADDR')}:{os.environ.get('MASTER_PORT')}",
      flush=True)
dist.init_process_group(backend, timeout=datetime.timedelta(seconds=a.timeout_s))
grad = torch.ones(int(a.mb * 2**20 / 4), device=dev)
t0 = time.time()
step = 0
while True:
    step += 1
    dist.all_reduce(grad)
    grad.div_(world)
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)
    if step == 1:
        print(f"[rank {rank}] first all_reduce done", flush=True)
        if a.pid_dir:
            open(os.path.join(a.pid_dir, f"rank{rank}.pid"), "w").write(f"{os.getpid()}\n")
    if step % 10 == 0:
        print(f"[rank {rank}] step {step} value {grad[0].item():.3f}", flush=True)
    if a.seconds > 0:
        if time.time() - t0 >= a.seconds:
            break
        time.sleep(0.05)
    elif step >= a.steps:
        break
dist.barrier()
print(f"[rank {rank}] done: {step} all_reduces", flush=True)
dist.destroy_process_group()
