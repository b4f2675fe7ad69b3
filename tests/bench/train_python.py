#!/usr/bin/env python3
"""The Python baselines of `stackscope-cli bench train`: the same MLP on the same dataset, written the ways a
PyTorch user who cares about speed would write it. Prints one JSON object.

--mode eager        the fair eager loop: data on the device once, an on-device permutation, PyTorch's default
                    (foreach) Adam, clip_grad_norm_, the loss read once per epoch (no .item() per step).
--mode cudagraph    the whole step (zero_grad, forward, backward, clip_grad_norm_, Adam(capturable=True)) captured
                    once with torch.cuda.graph and replayed; batch indices copied into a static buffer; the epoch's
                    loss summed on the device and read once per epoch (CUDA only).
--mode cudagraph-fused  the same graph with Adam(fused=True): one multi-tensor kernel for the whole optimizer step
                    (PyTorch >= 2.0 on CUDA), the fastest optimizer PyTorch offers.
--mode compile      the step compiled with torch.compile(mode="reduce-overhead") (inductor + CUDA graphs on GPUs).
--mode compile-max  the same with mode="max-autotune".
"""
import argparse
import json
import time

import torch
import torch.nn as nn


def build(inputs, hidden):
    layers, previous = [], inputs
    for h in hidden:
        layers += [nn.Linear(previous, h), nn.LayerNorm(h), nn.SiLU()]
        previous = h
    layers.append(nn.Linear(previous, 1))
    return nn.Sequential(*layers)


def check_model(a, x, out):
    """StackScope's model.pt: torch.load (weights_only by default since 2.6) reads it and predicts the same."""
    state = torch.load(a.model)
    ref = build(x.shape[1], [int(h) for h in a.hidden.split(",")])
    ref.load_state_dict(state)
    ref.eval()
    check = json.load(open(a.check))
    with torch.no_grad():
        mine = ref(x[torch.tensor(check["rows"])]).reshape(-1)
    out["model_pt_keys"] = sorted(state.keys())
    out["predictions_python"] = mine.tolist()
    out["predictions_max_abs_diff"] = float((mine - torch.tensor(check["stackscope"])).abs().max())


class Trainer:
    """One training step per call of step(idx), which returns the step's loss (on the device)."""

    def __init__(self, a, x, y, dev):
        torch.manual_seed(a.seed)
        self.model = build(x.shape[1], [int(h) for h in a.hidden.split(",")]).to(dev)
        # Graphs (ours or inductor's) need the optimizer's step counts on the device: capturable=True.
        capturable = a.mode != "eager" and dev.type == "cuda"
        fused = {"fused": True} if a.mode == "cudagraph-fused" else {}
        self.opt = torch.optim.Adam(self.model.parameters(), lr=a.lr, capturable=capturable, **fused)
        self.loss_fn, self.x, self.y, self.clip = nn.MSELoss(), x, y, a.clip
        self.loss_sum = torch.zeros((), device=dev)
        self.static_grads = a.mode.startswith("cudagraph")  # a captured step must keep its gradient buffers

    def step(self, idx):
        self.opt.zero_grad(set_to_none=not self.static_grads)
        loss = self.loss_fn(self.model(self.x[idx]).reshape(-1), self.y[idx])
        loss.backward()
        if self.clip > 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        self.opt.step()
        return loss.detach()


def graphed_step(trainer, batch, dev):
    """Captures trainer.step over a static index buffer: returns (index buffer, replay function). The warm-up
    steps the capture needs are undone afterwards (weights restored, optimizer state zeroed in place), so the
    run takes the same steps as the eager loop."""
    start = [p.detach().clone() for p in trainer.model.parameters()]
    static_idx = torch.zeros(batch, dtype=torch.long, device=dev)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up on a side stream, as PyTorch's CUDA graphs notes prescribe
        for _ in range(3):
            trainer.step(static_idx)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        trainer.loss_sum += trainer.step(static_idx)
    with torch.no_grad():
        for p, p0 in zip(trainer.model.parameters(), start):
            p.copy_(p0)
        for state in trainer.opt.state.values():
            for v in state.values():
                if torch.is_tensor(v):
                    v.zero_()
    return static_idx, graph.replay


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dataset", required=True, help="dataset.pt written by stackscope-cli bench train")
    p.add_argument("--mode", default="eager", choices=["eager", "cudagraph", "cudagraph-fused", "compile", "compile-max"])
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--hidden", default="32,16")
    p.add_argument("--clip", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--model", help="StackScope's model.pt: check that torch.load reads it and predicts the same")
    p.add_argument("--check", help="JSON with rows and StackScope's predictions for them")
    a = p.parse_args()

    data = torch.load(a.dataset)
    x, y, n = data["x"], data["y"], int(data["train_rows"])
    out = {"torch": torch.__version__, "device": a.device, "mode": a.mode}
    dev = torch.device(a.device)
    if a.mode.startswith("cudagraph") and dev.type != "cuda":
        out["skipped"] = "a CUDA graph needs a CUDA (or ROCm) device"
        print(json.dumps(out))
        return
    if a.mode.startswith("compile") and not hasattr(torch, "compile"):
        out["skipped"] = "torch.compile needs PyTorch 2.0 or later"
        print(json.dumps(out))
        return
    if a.model:
        check_model(a, x, out)

    x, y = x.to(dev), y.to(dev)
    t = Trainer(a, x, y, dev)
    b, steps = a.batch_size, n // a.batch_size
    sync = torch.cuda.synchronize if dev.type == "cuda" else (lambda: None)
    first_call_s = 0.0
    step = t.step
    if a.mode.startswith("compile"):
        # The loss is accumulated outside the compiled step: a mutated input would stop inductor's CUDA graphs.
        step = torch.compile(t.step, mode="reduce-overhead" if a.mode == "compile" else "max-autotune")

    def run(idx):
        t.loss_sum += step(idx)
    if a.mode.startswith("cudagraph"):
        static_idx, replay = graphed_step(t, b, dev)

        def run(idx):
            static_idx.copy_(idx)
            replay()
    train_s, total, val = 0.0, 0, float("nan")
    for epoch in range(1, a.epochs + 1):
        torch.manual_seed(a.seed + epoch * 1000003)
        perm = torch.randperm(n, device=dev)
        t.loss_sum.zero_()
        sync()
        t0 = time.perf_counter()
        for s in range(steps):
            run(perm[s * b:(s + 1) * b])
            if epoch == 1 and s == 0:
                sync()
                first_call_s = time.perf_counter() - t0  # includes compilation or capture
        sync()
        train_s += time.perf_counter() - t0
        total += steps
        t.model.eval()
        with torch.no_grad():
            val = float(t.loss_fn(t.model(x[n:]).reshape(-1), y[n:]))
        t.model.train()
    # steps/s excludes the first call of the first epoch (compilation, autotuning, capture): reported apart.
    steady = train_s - first_call_s
    out.update({"steps": total, "train_seconds": train_s, "first_call_seconds": first_call_s,
                "steps_per_s": (total - 1) / steady if steady > 0 else 0.0, "final_val_loss": val,
                "train_loss_last_epoch": float(t.loss_sum) / steps})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
