#!/usr/bin/env python3
"""The strongest Python baseline for issue 15's scaling goal: the same MLP as `stackscope-cli train --hidden ...`
(Linear -> LayerNorm -> SiLU per hidden layer, Linear to one output, MSE, clip_grad_norm_ 1.0, Adam lr 1e-3) trained
the way a PyTorch user spreads it over GPUs: DistributedDataParallel over NCCL, one process per GPU (started here
with torch.multiprocessing, as torchrun would), Adam(fused=True), the global batch split evenly over the ranks.
One GPU runs the same loop without DDP, eagerly and as a whole-step CUDA graph (the fastest one-GPU loop).

Speed only: the rows are random features on the GPU (the step's cost does not depend on their values); each step
takes its batch from an on-device permutation. Prints one JSON line per mode: steps/s of the global batch, median
of `--repeats` timed windows of `--steps` steps after `--warmup` steps.

Usage: python3 tests/bench/train_ddp.py --gpus 2 --mode ddp --hidden 2048,2048,2048 --batch-size 4096
"""
import argparse
import json
import os
import statistics
import time

import torch
import torch.distributed as dist
import torch.nn as nn

from train_python import build  # the same model as `bench train`, beside this file


def run(rank, a, port):
    world = a.gpus if a.mode == "ddp" else 1
    dev = torch.device("cuda", rank)
    torch.cuda.set_device(dev)
    if a.mode == "ddp":
        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
        dist.init_process_group("nccl", rank=rank, world_size=world, device_id=dev)
    torch.manual_seed(a.seed)
    hidden = [int(h) for h in a.hidden.split(",")]
    model = build(a.inputs, hidden).to(dev)
    if a.mode == "ddp":
        model = nn.parallel.DistributedDataParallel(model, device_ids=[rank], gradient_as_bucket_view=True,
                                                    bucket_cap_mb=a.bucket_mb)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True, capturable=True)
    g = torch.Generator(device=dev).manual_seed(a.seed + rank)
    x = torch.randn(a.rows, a.inputs, device=dev, generator=g)
    y = torch.randn(a.rows, device=dev, generator=g)
    local = a.batch_size // world
    perm = torch.randperm(a.rows, device=dev, generator=g)
    idx = torch.empty(local, dtype=torch.long, device=dev)
    loss_fn = nn.MSELoss()
    loss_sum = torch.zeros((), device=dev)

    def step():
        opt.zero_grad(set_to_none=False)
        loss = loss_fn(model(x[idx]).reshape(-1), y[idx])
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        loss_sum.add_(loss.detach())

    steps_per_perm = a.rows // a.batch_size
    counter = [0]

    def select():
        k = counter[0] % steps_per_perm
        counter[0] += 1
        idx.copy_(perm[(k * a.batch_size) + rank * local:(k * a.batch_size) + (rank + 1) * local])

    graph = None
    for _ in range(a.warmup):
        select()
        step()
    if a.mode == "graph":
        torch.cuda.synchronize()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                select()
                step()
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            step()
    rates = []
    for _ in range(a.repeats):
        torch.cuda.synchronize()
        if world > 1:
            dist.barrier()
        t0 = time.perf_counter()
        for _ in range(a.steps):
            select()
            graph.replay() if graph else step()
        torch.cuda.synchronize()
        rates.append(a.steps / (time.perf_counter() - t0))
    loss = float(loss_sum)  # read once, after timing
    if rank == 0:
        print(json.dumps({"mode": a.mode, "gpus": world, "hidden": a.hidden, "batch_size": a.batch_size,
                          "steps_per_s": statistics.median(rates), "windows": rates, "loss_sum": loss,
                          "torch": torch.__version__, "device": torch.cuda.get_device_name(dev)}), flush=True)
    if world > 1:
        dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mode", choices=["eager", "graph", "ddp"], default="ddp")
    p.add_argument("--gpus", type=int, default=2, help="ranks for --mode ddp")
    p.add_argument("--hidden", default="2048,2048,2048")
    p.add_argument("--batch-size", type=int, default=4096, help="the global batch")
    p.add_argument("--inputs", type=int, default=12, help="features per row (StackScope's trainer: 12)")
    p.add_argument("--rows", type=int, default=276480, help="training rows (250 days of bars: 80 %% of 345,600)")
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--bucket-mb", type=float, default=25.0, help="DDP's bucket_cap_mb (its default: 25)")
    p.add_argument("--seed", type=int, default=42)
    a = p.parse_args()
    if a.mode == "ddp":
        import socket
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        torch.multiprocessing.spawn(run, args=(a, port), nprocs=a.gpus)
    else:
        run(0, a, 0)


if __name__ == "__main__":
    main()
