#!/usr/bin/env python3
"""The Python baseline of `stackscope-cli bench train`: the same MLP on the same dataset in PyTorch eager mode.

A fair eager loop: the dataset is on the device once, batches come from an on-device permutation, Adam is
PyTorch's default (foreach) implementation, the gradient is clipped with clip_grad_norm_, and the loss is
read only once per epoch (no .item() per step). Prints one JSON object.
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


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dataset", required=True, help="dataset.pt written by stackscope-cli bench train")
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
    out = {"torch": torch.__version__, "device": a.device}
    if a.model:
        state = torch.load(a.model)  # weights_only (the default since 2.6) must accept it
        ref = build(x.shape[1], [int(h) for h in a.hidden.split(",")])
        ref.load_state_dict(state)
        ref.eval()
        check = json.load(open(a.check))
        rows = torch.tensor(check["rows"])
        with torch.no_grad():
            mine = ref(x[rows]).reshape(-1)
        theirs = torch.tensor(check["stackscope"])
        out["model_pt_keys"] = sorted(state.keys())
        out["predictions_python"] = mine.tolist()
        out["predictions_max_abs_diff"] = float((mine - theirs).abs().max())

    dev = torch.device(a.device)
    x, y = x.to(dev), y.to(dev)
    torch.manual_seed(a.seed)
    model = build(x.shape[1], [int(h) for h in a.hidden.split(",")]).to(dev)
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    loss_fn = nn.MSELoss()
    b = a.batch_size
    steps = n // b
    sync = torch.cuda.synchronize if dev.type == "cuda" else (lambda: None)
    train_s, total, val = 0.0, 0, float("nan")
    for epoch in range(1, a.epochs + 1):
        torch.manual_seed(a.seed + epoch * 1000003)
        perm = torch.randperm(n, device=dev)
        sync()
        t0 = time.perf_counter()
        for s in range(steps):
            idx = perm[s * b:(s + 1) * b]
            opt.zero_grad(set_to_none=True)
            loss = loss_fn(model(x[idx]).reshape(-1), y[idx])
            loss.backward()
            if a.clip > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), a.clip)
            opt.step()
        sync()
        train_s += time.perf_counter() - t0
        total += steps
        model.eval()
        with torch.no_grad():
            val = float(loss_fn(model(x[n:]).reshape(-1), y[n:]))
        model.train()
    out.update({"steps": total, "train_seconds": train_s, "steps_per_s": total / train_s, "final_val_loss": val})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
