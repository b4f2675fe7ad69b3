#!/usr/bin/env python3
"""The user's own GPU kernel reading far past its buffer: a Triton kernel that adds a wrong offset (in elements) to
its input pointer, so it reads an address nothing is mapped at -> "an illegal memory access was encountered".
--how jiterator does the same through a torch.cuda.jiterator kernel (a raw pointer read); the default, auto, tries
Triton and falls back to the jiterator when Triton cannot build the kernel (no C compiler ...).
  python3 illegal_address.py [--how auto|triton|jiterator]"""
import argparse

import torch

p = argparse.ArgumentParser()
p.add_argument("--how", choices=["auto", "triton", "jiterator"], default="auto")
a = p.parse_args()
dev = torch.device("cuda")
x = torch.arange(1 << 20, dtype=torch.float32, device=dev)


def with_triton():
    import triton
    import triton.language as tl

    @triton.jit
    def shifted_copy(src, dst, n, shift, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        v = tl.load(src + shift + offs, mask=mask)  # the bug: shift counts bytes*elements, far past the buffer
        tl.store(dst + offs, v, mask=mask)

    out = torch.empty_like(x)
    n = x.numel()
    shifted_copy[(triton.cdiv(n, 1024),)](x, out, n, 1 << 38, BLOCK=1024)
    return out


def with_jiterator():
    code = ("template <typename T> T shifted_read(T v) { "
            "return *reinterpret_cast<volatile T*>(0x100000ull + 4ull * (unsigned long long)(v)); }")
    fn = torch.cuda.jiterator._create_jit_fn(code)
    return fn(x)


if a.how in ("auto", "triton"):
    try:
        out = with_triton()
    except Exception as e:  # Triton missing or unable to compile: not the fault we want
        if "illegal memory access" in str(e) or a.how == "triton":
            raise
        print(f"triton kernel not built ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}); "
              "using torch.cuda.jiterator", flush=True)
        out = with_jiterator()
else:
    out = with_jiterator()
torch.cuda.synchronize()
print(f"sum {out.sum().item()}", flush=True)
