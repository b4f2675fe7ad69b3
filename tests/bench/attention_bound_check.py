# Checks the Python worker's attention error model on the CPU against the math path computed by hand (RESULTS.md).
# Usage: python3 tests/bench/attention_bound_check.py (any Python with torch)
import os, sys
import torch
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "python"))
sys.dont_write_bytecode = True  # no __pycache__ next to the installed worker
import stackscope_probe_worker as w
ctx = w.Context(torch, "cpu", "")
for dtype in (torch.float32, torch.float16):
    q = (ctx.randn((2, 4, 128, 64), 30) / 8).to(dtype)
    k, v = ctx.randn((2, 4, 128, 64), 31).to(dtype), ctx.randn((2, 4, 128, 64), 32).to(dtype)
    ref, bound = w.attention_bound(ctx, q, k, v, dtype)
    # the math backend in the dtype, simulated: S rounded to the dtype, softmax in float32, P rounded, P v in float32
    s = (q.float() @ k.float().transpose(-1, -2)).to(dtype).float()
    P = torch.softmax(s, -1).to(dtype).float()
    out = (P @ v.float()).to(dtype)
    r = ctx.check("attn " + str(dtype), out, ref, bound, "attention")
    i = ref.abs().argmax()
    print(dtype, "ratio", r, "bound/|r| at max", float(bound.reshape(-1)[i] / ref.abs().reshape(-1)[i]), "mean bound", float(bound.mean()), "mean |ref|", float(ref.abs().mean()))
