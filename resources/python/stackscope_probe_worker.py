#!/usr/bin/env python3
# StackScope's probe worker for a Python environment: runs the probe catalogue through this interpreter's torch.
"""StackScope probe worker (standard library + torch only).

Speaks the JSON-lines protocol of `stackscope-cli probe-worker` (core/probes/probe_protocol.h): hello, start,
result, devices, done on stdout; a marker line on stderr before each probe. Results are judged by the same
rounding-error model as the libtorch module (docs/probe-error-model.md, core/probes/error_model.h): every element
of a result is compared with a float64 reference of the same rounded inputs.

    python3 stackscope_probe_worker.py --list-devices
    python3 stackscope_probe_worker.py --device cpu --probe matmul_bf16 --probe sdpa
"""
import argparse
import hashlib
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback

MARKER = "\x1estackscope-probe-begin "
PROTOCOL = 2  # core/probes/probe_protocol.h kProbeProtocolVersion

# --- the error model: the same constants as core/probes/error_model.h -------------------------------------------
U_FP64 = 2.0 ** -53
U_FP32 = 2.0 ** -24
U_TF32 = 2.0 ** -11
U_FP16 = 2.0 ** -11
U_BF16 = 2.0 ** -8
LAMBDA = 8.0             # Higham & Mary's probabilistic bound, failure below 1e-11 per element for n <= 4096
ELEMENTWISE_UNITS = 16.0  # sin/exp within 2 ulp, one rounding per + - *, a factor of two over that
SIGMAS = 10.0            # randn: standard errors of the sample mean and standard deviation


def gamma(n, u):
    nu = n * u
    return nu / (1.0 - nu) if nu < 1.0 else math.inf


def gamma_probabilistic(n, u, lam=LAMBDA):
    return math.expm1(lam * math.sqrt(n) * u + n * u * u / (1.0 - u))


class DotPath(object):
    """How a dot-product op accumulates on one path (error_model.h's DotPath)."""

    def __init__(self, u_out=U_FP32, u_acc=U_FP32, u_in=0.0, storage=False):
        self.u_out, self.u_acc, self.u_in, self.storage = u_out, u_acc, u_in, storage


def unit_name(u):
    return {U_FP32: "fp32", U_BF16: "bf16", U_FP16: "fp16/tf32"}.get(u, "fp64")


def describe(p, depth):
    s = "dot product of depth %d, accumulated in %s%s, stored as %s" % (
        depth, unit_name(p.u_acc), " (probabilistic bound, lambda 8)" if p.storage else "", unit_name(p.u_out))
    return s + (", inputs rounded to tf32" if p.u_in > 0 else "")


class Unsupported(Exception):
    """The probe cannot apply here (no GPU, one GPU, an old torch); says why."""


class Hang(Exception):
    """A collective did not finish within its limit (the worker reports it, with what the processes printed)."""


def torch_version_tuple(torch):
    parts = []
    for p in torch.__version__.split("+")[0].split(".")[:2]:
        digits = "".join(ch for ch in p if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


def cpu_has_avx512_bw_vl_dq():
    # PyTorch sends a CPU bfloat16 gemm to oneDNN only with AVX-512 BW, VL and DQ (mkldnn_bf16_device_check,
    # https://github.com/pytorch/pytorch/blob/v1.13.1/aten/src/ATen/native/mkldnn/Utils.h).
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return {"avx512bw", "avx512vl", "avx512dq"} <= flags
    except OSError:
        pass
    return False


class Context(object):
    """One probe's state: the device, the worst compared element, the first failed comparison."""

    def __init__(self, torch, device, inject):
        self.torch = torch
        self.device = device
        self.is_cpu = device == "cpu"
        self.dev = torch.device("cpu") if self.is_cpu else torch.device("cuda", int(device))
        self.inject = inject
        self.details = {}
        self.worst_ratio, self.worst_error, self.worst_bound, self.worst_what = -1.0, 0.0, 0.0, ""
        self.wrong_what = ""
        self.note = ""
        self.models = []

    def sync(self):
        if not self.is_cpu:
            self.torch.cuda.synchronize(self.dev)

    def randn(self, shape, seed):
        self.torch.manual_seed(seed)
        return self.torch.randn(shape, dtype=self.torch.float32)

    def inject_fault(self, o, bound):
        if self.inject == "wrong":
            return o + (1.0 + 2.0 * bound)
        if self.inject == "perturb" and o.numel() > 0:
            flat = o.reshape(-1).clone()
            i = int(flat.abs().argmax())
            flat[i] = flat[i] * 1.01
            return flat.reshape(o.shape)
        return o

    def check(self, what, out, ref, bound, model):
        torch = self.torch
        r = ref.double()
        b = (bound if torch.is_tensor(bound) else torch.tensor(float(bound))).double().expand_as(r)
        o = self.inject_fault(out.detach().cpu().double(), b)
        if o.shape != r.shape:
            raise RuntimeError("%s: shape %s differs from the reference's %s" % (what, tuple(o.shape), tuple(r.shape)))
        self.models.append("%s: %s" % (what, model))
        err, lim, ratio = math.inf, float(b.max()), math.inf
        if bool(torch.isfinite(o).all()):
            diff = (o - r).abs().reshape(-1)
            fb = b.reshape(-1)
            ratios = torch.where(fb > 0, diff / fb.clamp_min(1e-300),
                                 torch.where(diff > 0, torch.full_like(diff, math.inf), torch.zeros_like(diff)))
            i = int(ratios.argmax())
            ratio, err, lim = float(ratios[i]), float(diff[i]), float(fb[i])
        self.last = (ratio, err, lim)
        if ratio > self.worst_ratio:
            self.worst_ratio, self.worst_error, self.worst_bound, self.worst_what = ratio, err, lim, what
        if not ratio <= 1.0 and not self.wrong_what:
            self.wrong_what = what
        return ratio

    def check_exact(self, what, out, ref):
        return self.check(what, out, ref, 0.0, "exact")

    def dot_path(self, dtype, convolution=False):
        torch = self.torch
        p = DotPath(u_out={torch.float16: U_FP16, torch.bfloat16: U_BF16, torch.float64: U_FP64}.get(dtype, U_FP32))
        reduced = dtype in (torch.float16, torch.bfloat16)
        if self.is_cpu:
            onednn = dtype == torch.bfloat16 and torch.backends.mkldnn.enabled and cpu_has_avx512_bw_vl_dq()
            # Before PyTorch 2.1 the reference CPU gemm accumulated 16-bit products in the 16-bit output
            # (https://github.com/pytorch/pytorch/pull/96074).
            if reduced and not onednn and torch_version_tuple(torch) < (2, 1):
                p.u_acc, p.storage = p.u_out, True
            return p
        if dtype == torch.float32:
            tf32 = torch.backends.cudnn.allow_tf32 if convolution else torch.backends.cuda.matmul.allow_tf32
            if tf32:
                p.u_in = U_TF32
        return p

    def dot_bound(self, ref, abs_sum, depth, p):
        acc = gamma_probabilistic(depth, p.u_acc) if p.storage else gamma(depth, p.u_acc)
        g = abs_sum.double() * (acc + 2.0 * p.u_in + p.u_in * p.u_in)
        return p.u_out * (ref.double().abs() + g) + g

    def check_dot(self, what, out, ref, abs_sum, depth, p):
        return self.check(what, out, ref, self.dot_bound(ref, abs_sum, depth, p), describe(p, depth))


def finite(v):
    return v if isinstance(v, float) and math.isfinite(v) else None


def result_of(ctx):
    """The result line's fields, worded like the libtorch module's (core/torch/probe_ops.cpp, resultOf)."""
    out = {"details": ctx.details}
    compared = ctx.worst_ratio >= 0.0
    if compared:
        out["max_error"] = finite(ctx.worst_error)
        out["tolerance"] = finite(ctx.worst_bound)
        out["error_ratio"] = finite(ctx.worst_ratio)
        out["details"]["error_model"] = ctx.models
    storage = any("probabilistic" in m for m in ctx.models)
    if storage:
        out["details"]["accumulation_note"] = (
            "this PyTorch accumulates 16-bit gemms in 16 bits on this CPU (PyTorch < 2.1 without oneDNN bfloat16, "
            "https://github.com/pytorch/pytorch/pull/96074): results are correct to that precision only")
    if ctx.wrong_what:
        out["outcome"] = "wrong"
        # The worst violation is the one to show (a probe's later comparisons can be further off than its first).
        if compared and not ctx.worst_ratio <= 1.0 and ctx.worst_bound == 0.0:
            out["message"] = "%s: off by %.3g where the error model allows no error (an exact op)" % (
                ctx.worst_what, ctx.worst_error)
        elif compared and not ctx.worst_ratio <= 1.0:
            out["message"] = "%s: off by %.3g where the error model allows %.3g (%.3g times the bound)" % (
                ctx.worst_what, ctx.worst_error, ctx.worst_bound, ctx.worst_ratio)
        else:
            out["message"] = ctx.wrong_what
        # What to do next, as the libtorch module says it: a wrong result is a broken stack, not a tolerance to raise.
        out["message"] += ("; rerun the probe to see whether it repeats, then `stackscope-cli report --run-probes` "
                           "names likely causes (driver, library build, variant fixes)")
        return out
    out["outcome"] = "ok"
    message = ctx.note
    if compared:
        message += ("; " if message else "") + "worst error %.2g of its bound" % ctx.worst_ratio
    if storage:
        message += "; accumulates in 16 bits on this CPU (PyTorch < 2.1 without oneDNN)"
    out["message"] = message
    return out


# --- the catalogue's probes, as in core/torch/probe_ops.cpp ----------------------------------------------------

def gpu_properties(torch, index):
    p = torch.cuda.get_device_properties(index)
    return {"name": p.name, "total_memory": p.total_memory, "compute_capability": "%d.%d" % (p.major, p.minor),
            "gcnArchName": getattr(p, "gcnArchName", None), "multi_processor_count": p.multi_processor_count}


def probe_device_info(ctx):
    torch = ctx.torch
    if ctx.is_cpu:
        ctx.details.update({"name": "CPU", "threads": torch.get_num_threads()})
        ctx.note = "CPU, %d threads" % torch.get_num_threads()
        return
    count = torch.cuda.device_count()
    ctx.details["visible_devices"] = count
    if ctx.dev.index >= count:
        raise RuntimeError("device %d is not visible to this PyTorch (%d visible); check CUDA_VISIBLE_DEVICES/"
                           "HIP_VISIBLE_DEVICES" % (ctx.dev.index, count))
    one = float(torch.ones(4, device=ctx.dev).sum())
    if one != 4.0:
        raise RuntimeError("ones(4).sum() gave %r on the device" % one)
    ctx.details.update(gpu_properties(torch, ctx.dev.index))
    ctx.note = ctx.details["name"]


def probe_alloc_zeros(ctx):
    t = ctx.torch.zeros(1024, 1024, device=ctx.dev)
    ctx.check_exact("zeros", t, ctx.torch.zeros(1024, 1024, dtype=ctx.torch.float64))


def probe_alloc_empty(ctx):
    torch = ctx.torch
    # 1 GiB on a GPU; on the CPU 64 MiB of host memory, which the GPU stack has no part in (a 1 GiB fill took 22 s
    # on the loaded 2-core machine), as the libtorch module does (core/torch/probe_ops.cpp).
    n = 1 << (26 if ctx.is_cpu else 30)
    size = "64 MiB" if ctx.is_cpu else "1 GiB"
    t = torch.empty(n, dtype=torch.uint8, device=ctx.dev)
    t.fill_(3)
    lo, hi = int(t.min()), int(t.max())
    ctx.details["bytes"] = n
    ctx.check_exact("min and max after fill_(3) of " + size, torch.tensor([float(lo), float(hi)]),
                    torch.tensor([3.0, 3.0], dtype=torch.float64))
    ctx.note = size + " allocated and filled"


def probe_randn(ctx):
    torch = ctx.torch
    n = 1 << 20
    c = torch.randn(n, device=ctx.dev).cpu().double()
    mean, std = float(c.mean()), float(c.std())
    ctx.details.update({"mean": mean, "std": std})
    bound = torch.tensor([SIGMAS / math.sqrt(n), SIGMAS / math.sqrt(2.0 * n)], dtype=torch.float64)
    ctx.check("randn mean/std", torch.tensor([mean, std]), torch.tensor([0.0, 1.0], dtype=torch.float64), bound,
              "statistical, 10 standard errors of 2^20 samples")


def elementwise_reference(torch, a, b):
    ra, rb = a.double(), b.double()
    ab, s, e = ra * rb, torch.sin(ra), torch.exp(rb / 4)
    return ab + s - e, ELEMENTWISE_UNITS * U_FP32 * (ab.abs() + s.abs() + e.abs())


def probe_elementwise(ctx):
    torch = ctx.torch
    a, b = ctx.randn((512, 512), 1), ctx.randn((512, 512), 2)
    da, db = a.to(ctx.dev), b.to(ctx.dev)
    out = da * db + torch.sin(da) - torch.exp(db / 4)
    ref, bound = elementwise_reference(torch, a, b)
    ctx.check("a*b + sin(a) - exp(b/4)", out, ref, bound, "elementwise, 16 u of the terms' magnitudes")


def probe_reduction(ctx):
    a = ctx.randn((1024, 1024), 3)
    d, r = a.to(ctx.dev), a.double()
    ctx.check("sum(dim=1)", d.sum(1), r.sum(1), gamma(1024, U_FP32) * r.abs().sum(1), "sum of depth 1024, fp32")
    ctx.check("mean", d.mean(), r.mean(), gamma(r.numel() + 1, U_FP32) * r.abs().mean(),
              "sum of depth 2^20 then a division, fp32")
    ctx.check_exact("amax(dim=0)", d.max(0)[0], r.max(0)[0])


def probe_matmul(ctx, dtype):
    torch = ctx.torch
    a, b = ctx.randn((512, 512), 4).to(dtype), ctx.randn((512, 512), 5).to(dtype)
    out = torch.matmul(a.to(ctx.dev), b.to(ctx.dev))
    ra, rb = a.double(), b.double()
    ctx.check_dot("matmul", out, ra @ rb, ra.abs() @ rb.abs(), 512, ctx.dot_path(dtype))


def probe_linear(ctx, dtype):
    torch = ctx.torch
    x, w = ctx.randn((64, 256), 6).to(dtype), (ctx.randn((128, 256), 7) / 16).to(dtype)
    bias, g = ctx.randn((128,), 8).to(dtype), ctx.randn((64, 128), 9).to(dtype)
    dx, dw, db = [t.to(ctx.dev).requires_grad_(True) for t in (x, w, bias)]
    y = torch.nn.functional.linear(dx, dw, db)
    (y * g.to(ctx.dev)).sum().backward()
    rx, rw, rb, rg = x.double(), w.double(), bias.double(), g.double()
    p = ctx.dot_path(dtype)
    ctx.check_dot("linear forward", y, torch.addmm(rb, rx, rw.t()), torch.addmm(rb.abs(), rx.abs(), rw.abs().t()), 257, p)
    ctx.check_dot("grad input", dx.grad, rg @ rw, rg.abs() @ rw.abs(), 128, p)
    ctx.check_dot("grad weight", dw.grad, rg.t() @ rx, rg.abs().t() @ rx.abs(), 64, p)
    ctx.check_dot("grad bias", db.grad, rg.sum(0), rg.abs().sum(0), 64, p)


def probe_conv2d(ctx):
    torch = ctx.torch
    x, w, b = ctx.randn((8, 16, 32, 32), 10), ctx.randn((32, 16, 3, 3), 11) / 12, ctx.randn((32,), 12)
    out = torch.conv2d(x.to(ctx.dev), w.to(ctx.dev), b.to(ctx.dev), 1, 1)
    rx, rw, rb = x.double(), w.double(), b.double()
    ctx.check_dot("conv2d 3x3", out, torch.conv2d(rx, rw, rb, 1, 1),
                  torch.conv2d(rx.abs(), rw.abs(), rb.abs(), 1, 1), 16 * 9 + 1, ctx.dot_path(torch.float32, True))


def norm_bound(x, dims, n, w, b, eps):
    """Bound of y = (x - mu) * rstd * w + b in float32 (probe_ops.cpp's normBound; Chan, Golub & LeVeque 1983)."""
    u = U_FP32
    mu = x.mean(dims, keepdim=True)
    var = ((x - mu) ** 2).mean(dims, keepdim=True)
    rstd = (var + eps).rsqrt()
    e_mu = gamma(n + 1, u) * x.abs().mean(dims, keepdim=True)
    rel_var = 4 * gamma(n, u) * (1 + mu ** 2 / var) + e_mu ** 2 / var
    rel_rstd = rel_var / 2 + 5 * u
    xhat = (x - mu) * rstd
    y = xhat * w + b
    bound = w.abs() * rstd * (e_mu + u * (x - mu).abs()) + (w * xhat).abs() * rel_rstd + 3 * u * ((w * xhat).abs() + b.abs())
    return y, bound, e_mu, rel_var


def probe_batch_norm(ctx):
    torch = ctx.torch
    x, w, b = ctx.randn((16, 32, 16, 16), 13) * 2 + 1, ctx.randn((32,), 14), ctx.randn((32,), 15)
    rm, rv = torch.zeros(32, device=ctx.dev), torch.ones(32, device=ctx.dev)
    out = torch.batch_norm(x.to(ctx.dev), w.to(ctx.dev), b.to(ctx.dev), rm, rv, True, 0.1, 1e-5, False)
    rx, shape = x.double(), (1, 32, 1, 1)
    y, bound, e_mu, rel_var = norm_bound(rx, [0, 2, 3], 4096, w.double().view(shape), b.double().view(shape), 1e-5)
    mu, var_unbiased = rx.mean([0, 2, 3]), rx.var([0, 2, 3], unbiased=True)
    ctx.check("batch_norm output", out, y, bound, "normalisation over 4096 values per channel, fp32")
    ref_mean, ref_var = 0.1 * mu, 0.9 + 0.1 * var_unbiased
    ctx.check("running mean", rm, ref_mean, 0.1 * e_mu.view(32) + 2 * U_FP32 * ref_mean.abs(), "0.1 x the mean, fp32")
    ctx.check("running var", rv, ref_var, 0.1 * var_unbiased * rel_var.view(32) + 3 * U_FP32 * ref_var.abs(),
              "0.9 + 0.1 x the unbiased variance, fp32")


def probe_layer_norm(ctx):
    torch = ctx.torch
    x, w, b = ctx.randn((64, 512), 16) * 3, ctx.randn((512,), 17), ctx.randn((512,), 18)
    out = torch.layer_norm(x.to(ctx.dev), [512], w.to(ctx.dev), b.to(ctx.dev))
    y, bound, _, _ = norm_bound(x.double(), [1], 512, w.double(), b.double(), 1e-5)
    ctx.check("layer_norm", out, y, bound, "normalisation over 512 values, fp32")


def probe_softmax(ctx):
    torch = ctx.torch
    x = ctx.randn((64, 1000), 19) * 4
    rx = x.double()
    ref = torch.softmax(rx, 1)
    d = (rx - rx.max(1, keepdim=True)[0]).abs()
    rel = U_FP32 * (d + d.max(1, keepdim=True)[0]) + gamma(1000, U_FP32) + 12 * U_FP32
    ctx.check("softmax(dim=1)", torch.softmax(x.to(ctx.dev), 1), ref, ref.abs() * rel,
              "exp, a sum of 1000 positive terms and a division, fp32")


def two_layer_bound(ctx, x, w1, b1, w2, b2, p):
    """Reference and bound of relu(x W1^T + b1) W2^T + b2 on path p: each linear's own bound, and the hidden
    layer's error carried to the output through |W2| (relu is 1-Lipschitz). Returns (ref, bound, h, e1)."""
    torch = ctx.torch
    h1 = torch.addmm(b1, x, w1.t())
    e1 = ctx.dot_bound(h1, torch.addmm(b1.abs(), x.abs(), w1.abs().t()), 257, p)
    h = torch.relu(h1)
    ref = torch.addmm(b2, h, w2.t())
    propagated = e1 @ w2.abs().t()
    s2 = torch.addmm(b2.abs(), h.abs() + e1, w2.abs().t())
    return ref, ctx.dot_bound(ref.abs() + propagated, s2, 513, p) + propagated, h, e1


def mlp_weights(ctx):
    return (ctx.randn((64, 256), 20), ctx.randn((512, 256), 21) / 16, ctx.randn((512,), 22),
            ctx.randn((256, 512), 23) / 22, ctx.randn((256,), 24))


def probe_autocast_mlp(ctx):
    torch = ctx.torch
    x, w1, b1, w2, b2 = mlp_weights(ctx)
    F = torch.nn.functional
    with torch.no_grad(), torch.autocast(device_type="cpu" if ctx.is_cpu else "cuda", dtype=torch.bfloat16):
        h = torch.relu(F.linear(x.to(ctx.dev), w1.to(ctx.dev), b1.to(ctx.dev)))
        out = F.linear(h, w2.to(ctx.dev), b2.to(ctx.dev))
    ctx.details["output_dtype"] = str(out.dtype).replace("torch.", "")
    if out.dtype != torch.bfloat16:
        ctx.wrong_what = "autocast left the output in %s, not bfloat16" % out.dtype
    p = ctx.dot_path(torch.bfloat16)
    r16 = lambda t: t.to(torch.bfloat16).double()
    ref, bound, _, _ = two_layer_bound(ctx, r16(x), r16(w1), r16(b1), r16(w2), r16(b2), p)
    ctx.check("MLP under autocast(bf16)", out, ref, bound, "two bf16 linears: " + describe(p, 257) + "; hidden error through |W2|")


def median_seconds(op, trials=5):
    # One untimed warm-up (first touch, peer access, pinned allocation), then the median of `trials`, as the libtorch
    # module does (core/torch/probe_ops.cpp medianSeconds); `bench bandwidth` sweeps sizes and judges the figure.
    op()
    times = []
    for _ in range(trials):
        t0 = time.perf_counter()
        op()
        times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2]


def probe_copy(ctx, to_device):
    torch = ctx.torch
    # 256 MiB to or from a GPU. On the CPU it is a host-to-host copy that crosses no link, so its bandwidth says
    # nothing about the stack and only equality is checked: 16 MiB, still past every cache (256 MiB took 19.5 s on
    # the loaded 2-core build machine with PyTorch 1.13), as the libtorch module does (core/torch/probe_ops.cpp).
    n = (4 if ctx.is_cpu else 64) << 20
    host = torch.arange(n, dtype=torch.float32)
    if not ctx.is_cpu:
        host = host.pin_memory()
    dev = torch.empty(n, dtype=torch.float32, device=ctx.dev) if to_device else host.to(ctx.dev)
    back = None if to_device else torch.empty(n, dtype=torch.float32, pin_memory=not ctx.is_cpu)
    ctx.sync()

    def op():
        if to_device:
            dev.copy_(host)
        else:
            back.copy_(dev)
        ctx.sync()

    s = median_seconds(op)
    checked = dev if to_device else back
    gbs = n * 4 / s / 1e9
    ctx.details.update({"bytes": n * 4, "gb_per_s": gbs})
    differing = int(checked.cpu().ne(host).sum())
    ctx.check_exact("elements that differ after the copy", torch.tensor([float(differing)]), torch.zeros(1, dtype=torch.float64))
    ctx.note = "%.1f GB/s (%s, %d MiB, warm, median of 5)" % (gbs, "host to host" if ctx.is_cpu else (
        "host to device, pinned" if to_device else "device to host, pinned"), n * 4 >> 20)


def need_gpus(ctx, n, why):
    if ctx.is_cpu:
        raise Unsupported("needs a GPU; this cell is the CPU")
    count = ctx.torch.cuda.device_count()
    if count < n:
        raise Unsupported("%s; this PyTorch sees %d GPU%s" % (why, count, "" if count == 1 else "s"))
    return count


def probe_peer_copy(ctx):
    torch = ctx.torch
    count = need_gpus(ctx, 2, "needs two or more GPUs")
    peer = (ctx.dev.index + 1) % count
    src = ctx.randn((16 << 20,), 25)
    a = src.to(ctx.dev)
    b = torch.empty_like(a, device=torch.device("cuda", peer))
    ctx.sync()

    def op():
        b.copy_(a)
        torch.cuda.synchronize(peer)
        torch.cuda.synchronize(ctx.dev)

    s = median_seconds(op)
    gbs = src.numel() * 4 / s / 1e9
    ctx.details.update({"peer": peer, "bytes": src.numel() * 4, "gb_per_s": gbs})
    ctx.check_exact("copy to GPU %d" % peer, b, src.double())
    ctx.note = "to GPU %d: %.1f GB/s (64 MiB, warm, median of 5)" % (peer, gbs)


def probe_all_reduce(ctx):
    torch = ctx.torch
    count = need_gpus(ctx, 2, "needs two or more GPUs")
    ref, abs_sum, parts = torch.zeros(1 << 20, dtype=torch.float64), torch.zeros(1 << 20, dtype=torch.float64), []
    for i in range(count):
        p = ctx.randn((1 << 20,), 100 + i)
        ref += p.double()
        abs_sum += p.double().abs()
        parts.append(p.to(torch.device("cuda", i)))
    acc = parts[0].clone()
    for p in parts[1:]:
        acc += p.to(acc.device)
    for i in range(count):
        ctx.check("sum on GPU %d" % i, acc.to(torch.device("cuda", i)), ref, gamma(count, U_FP32) * abs_sum,
                  "sum of %d fp32 values" % count)
    ctx.note = "sum over %d GPUs by peer copies (not NCCL)" % count


def probe_memory_stats(ctx):
    torch = ctx.torch
    t = torch.empty(16 << 20, device=ctx.dev)
    t.fill_(1)
    ctx.sync()
    held = t.numel() * t.element_size()
    ctx.details["held_bytes"] = held
    if ctx.is_cpu:
        ctx.note = "64 MiB held; the CPU allocator keeps no statistics"
        return
    allocated, reserved = torch.cuda.memory_allocated(ctx.dev), torch.cuda.memory_reserved(ctx.dev)
    ctx.details.update({"allocated_bytes": allocated, "reserved_bytes": reserved})
    if allocated < held:
        ctx.wrong_what = "the caching allocator reports less allocated than the 64 MiB tensor held"
    ctx.note = "allocated %d MiB, reserved %d MiB (caching allocator)" % (allocated >> 20, reserved >> 20)


# --- what only Python has ----------------------------------------------------------------------------------------

def need_compile(ctx):
    if not hasattr(ctx.torch, "compile"):
        raise Unsupported("PyTorch %s has no torch.compile (added in 2.0)" % ctx.torch.__version__)


def timed(ctx, fn):
    t0 = time.perf_counter()
    out = fn()
    ctx.sync()
    return out, time.perf_counter() - t0


def inductor_cache_dir(torch):
    """Where inductor keeps compiled kernels (TORCHINDUCTOR_CACHE_DIR, else /tmp/torchinductor_$USER), and how many
    entries it held before this probe: a warm cache makes a first compile mostly a cache hit."""
    for mod, name in (("torch._inductor.runtime.cache_dir_utils", "cache_dir"), ("torch._inductor.codecache", "cache_dir")):
        try:
            d = getattr(__import__(mod, fromlist=[name]), name)()
        except (ImportError, AttributeError):
            continue
        try:
            return d, len(os.listdir(d))
        except OSError:
            return d, 0
    return None, None


def stackscope_cache_dir():
    """STACKSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/stackscope, else ~/.cache/stackscope."""
    d = os.environ.get("STACKSCOPE_CACHE_DIR")
    if not d:
        d = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "stackscope")
    return d


def vec_isa_module():
    """inductor's module with VecISA and pick_vec_isa (torch._inductor.cpu_vec_isa from 2.4, codecache before)."""
    for name in ("torch._inductor.cpu_vec_isa", "torch._inductor.codecache"):
        try:
            mod = __import__(name, fromlist=["pick_vec_isa"])
        except ImportError:
            continue
        if hasattr(mod, "pick_vec_isa"):
            return mod
    return None


class VecIsaChecks(object):
    """inductor's vector-ISA check, run in parallel and remembered across processes.

    To pick a vector ISA, inductor tries every candidate the CPU's flags allow (AMX, AVX-512 VNNI, AVX-512, AVX2 on
    x86) one after another: each `check_build` builds a small C++ file with that ISA's flags (the binary is cached on
    disk) and loads it with torch in a fresh `python -c "import torch"`; about 11 such processes with AMX, 42-51 s of
    the CPU column on the H200 machine, paid again by every new process
    (https://github.com/pytorch/pytorch/issues/100378). Here the candidates are checked in one thread each (the work is
    in subprocesses), and each `check_build` answer is kept in StackScope's cache, keyed by inductor's own fingerprint
    (compiler version, ISA flags, torch version) plus this interpreter, the CPU's ISA flags and the code checked; a
    later run answers from the cache. Only the answer is cached: every compile still builds and runs C++."""

    CACHE_NAME = "inductor-vec-isa.json"

    def __init__(self, mod):
        self.mod = mod
        self.path = os.path.join(stackscope_cache_dir(), self.CACHE_NAME)
        self.lock = threading.Lock()
        self.answers, self.cached, self.run, self.first_seconds = {}, 0, 0, None
        try:
            with open(self.path) as f:
                doc = json.load(f)
            self.answers = dict(doc.get("answers", {}))
            self.first_seconds = doc.get("check_seconds")
        except (OSError, ValueError, AttributeError):
            pass
        cpu = self.mod.x86_isa_checker() if hasattr(self.mod, "x86_isa_checker") else []
        self.context = "%s|%s" % (sys.executable, " ".join(cpu))

    def key(self, isa, code):
        fingerprint = getattr(self.mod, "_get_isa_dry_compile_fingerprint", lambda flags: flags)(isa._arch_flags)
        text = "%s|%s|%s|%s" % (fingerprint, self.context, isa._arch_flags, code)
        return hashlib.sha256(text.encode()).hexdigest()

    def pick(self):
        """inductor's pick, its checks answered from the cache or run side by side; returns (isa, seconds)."""
        original = self.mod.VecISA.check_build
        checks = self

        def check_build(isa, code):
            k = checks.key(isa, code)
            with checks.lock:
                hit = checks.answers.get(k)
                checks.cached += hit is not None
            if hit is not None:
                return hit
            ok = bool(original(isa, code))
            with checks.lock:
                checks.answers[k] = ok
                checks.run += 1
            return ok

        t0 = time.perf_counter()
        self.mod.VecISA.check_build = check_build
        try:
            candidates = list(getattr(self.mod, "supported_vec_isa_list", []))
            errors = []
            threads = [threading.Thread(target=self.evaluate, args=(isa, errors)) for isa in candidates]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            picked = self.mod.pick_vec_isa()
        finally:
            self.mod.VecISA.check_build = original
        seconds = time.perf_counter() - t0
        if self.run:  # the time is what the whole check costs only when nothing came from the cache
            self.save(seconds if self.cached == 0 else self.first_seconds)
        return picked, seconds

    def evaluate(self, isa, errors):
        """bool(isa) as valid_vec_isa_list would: only candidates whose flags the CPU has (the rest fail to load)."""
        try:
            cpu = self.mod.x86_isa_checker() if hasattr(self.mod, "x86_isa_checker") else None
            if cpu is not None and not all(flag in cpu for flag in str(isa).split()):
                return
            bool(isa)
        except Exception as e:  # inductor's own pick below runs the check again and reports what it finds
            errors.append("%s: %s" % (isa, e))

    def save(self, seconds):
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            tmp = "%s.%d.tmp" % (self.path, os.getpid())
            with open(tmp, "w") as f:
                json.dump({"about": "answers of torch inductor's vector-ISA check_build, written by StackScope's probe "
                                    "worker; delete the file to check again",
                           "check_seconds": seconds, "answers": self.answers}, f, indent=1, sort_keys=True)
            os.replace(tmp, self.path)
        except OSError as e:
            sys.stderr.write("stackscope: could not keep the vector-ISA answers in %s (%s); the next run checks "
                             "again\n" % (self.path, e))


def compile_setup(ctx):
    """The parts of a first torch.compile that are the same for every graph, timed apart so the grid's wall time can
    be explained: importing dynamo and inductor, and on the CPU inductor's vector-ISA check (VecIsaChecks). Calling
    it first changes nothing: inductor caches the pick."""
    torch = ctx.torch
    t0 = time.perf_counter()
    import torch._dynamo  # noqa: F401
    import torch._inductor.config as inductor_config
    ctx.details["import_dynamo_inductor_seconds"] = time.perf_counter() - t0
    ctx.details["compile_threads"] = getattr(inductor_config, "compile_threads", None)
    # The runner sets TORCHINDUCTOR_COMPILE_THREADS=1 for a GPU column (core/probes/probe_runner.cpp CellJob): the CPU
    # column's compile probes start inductor's pool of compile processes; one pool per run is enough to probe it.
    ctx.details["compile_in_process"] = os.environ.get("STACKSCOPE_COMPILE_IN_PROCESS") == "1"
    ctx.details["inductor_cache_dir"], ctx.details["inductor_cache_entries_before"] = inductor_cache_dir(torch)
    if not ctx.is_cpu:
        return
    mod = vec_isa_module()
    if mod is None:
        return
    if not hasattr(mod, "VecISA") or not hasattr(mod.VecISA, "check_build"):
        t0 = time.perf_counter()
        ctx.details["vec_isa"] = str(mod.pick_vec_isa())
        ctx.details["vec_isa_check_seconds"] = time.perf_counter() - t0
        return
    checks = VecIsaChecks(mod)
    picked, seconds = checks.pick()
    ctx.details.update({"vec_isa": str(picked), "vec_isa_check_seconds": seconds, "vec_isa_checks_run": checks.run,
                        "vec_isa_checks_cached": checks.cached, "vec_isa_cache": checks.path})
    if checks.run == 0 and checks.first_seconds is not None:
        ctx.details["vec_isa_check_seconds_uncached"] = checks.first_seconds


def vec_isa_note(d):
    """What the set-up spent on the vector-ISA check, and what a process of the user's pays for it."""
    if "vec_isa_check_seconds" not in d:
        return ""
    if d.get("vec_isa_checks_run", 1) == 0 and "vec_isa_check_seconds_uncached" in d:
        return (" (vector ISA %s from StackScope's cache; checked, it took %.1f s, which each new process of yours "
                "pays on its first CPU compile: https://github.com/pytorch/pytorch/issues/100378)"
                % (d.get("vec_isa"), d["vec_isa_check_seconds_uncached"]))
    return " (vector ISA check %.2f s)" % d["vec_isa_check_seconds"]


def probe_compile_fn(ctx):
    torch = ctx.torch
    need_compile(ctx)
    compile_setup(ctx)
    f = torch.compile(lambda a, b: a * b + torch.sin(a) - torch.exp(b / 4))
    a, b = ctx.randn((512, 512), 1), ctx.randn((512, 512), 2)
    da, db = a.to(ctx.dev), b.to(ctx.dev)
    out, first = timed(ctx, lambda: f(da, db))
    out2, second = timed(ctx, lambda: f(da, db))
    ctx.details.update({"backend": "inductor", "first_call_seconds": first, "second_call_seconds": second})
    ref, bound = elementwise_reference(torch, a, b)
    ctx.check("compiled a*b + sin(a) - exp(b/4), first call", out, ref, bound, "elementwise, 16 u of the terms' magnitudes")
    ctx.check("the same, second call", out2, ref, bound, "elementwise, 16 u of the terms' magnitudes")
    setup = ctx.details.get("import_dynamo_inductor_seconds", 0.0) + ctx.details.get("vec_isa_check_seconds", 0.0)
    ctx.note = "first call (compile) %.2f s after %.2f s of set-up%s, second %.4f s%s" % (
        first, setup, vec_isa_note(ctx.details), second,
        "; compiled in this process (inductor's pool of compile processes is probed on the CPU column)"
        if ctx.details.get("compile_in_process") else "")


def probe_compile_mlp(ctx):
    torch = ctx.torch
    need_compile(ctx)
    x, w1, b1, w2, b2 = mlp_weights(ctx)
    g = ctx.randn((64, 256), 26)
    model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 256)).to(ctx.dev)
    with torch.no_grad():
        for param, value in zip(model.parameters(), (w1, b1, w2, b2)):
            param.copy_(value)
    compiled = torch.compile(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.0)  # lr 0: the step runs, the weights stay the reference's
    dx, dg = x.to(ctx.dev), g.to(ctx.dev)

    def step():
        opt.zero_grad()
        y = compiled(dx)
        (y * dg).sum().backward()
        opt.step()
        return y

    y, first = timed(ctx, step)
    y2, second = timed(ctx, step)
    ctx.details.update({"backend": "inductor", "first_step_seconds": first, "second_step_seconds": second})
    p = ctx.dot_path(torch.float32)
    rg = g.double()
    ref, bound, h, e1 = two_layer_bound(ctx, x.double(), w1.double(), b1.double(), w2.double(), b2.double(), p)
    ctx.check("compiled MLP forward, first step", y, ref, bound, "two fp32 linears: " + describe(p, 257))
    ctx.check("compiled MLP forward, second step", y2, ref, bound, "two fp32 linears: " + describe(p, 257))
    # grad W2 = g^T h: a dot of depth 64 whose h carries the hidden layer's error e1.
    gw2 = rg.t() @ h
    ctx.check("grad of the second weight", model[2].weight.grad, gw2,
              ctx.dot_bound(gw2, rg.abs().t() @ (h.abs() + e1), 64, p) + rg.abs().t() @ e1,
              describe(p, 64) + "; hidden error through |g|")
    ctx.check_dot("grad of the second bias", model[2].bias.grad, rg.sum(0), rg.abs().sum(0), 64, p)
    ctx.note = "first step (compile) %.2f s, second %.4f s" % (first, second)


def sdpa_backends(torch):
    """(name, context factory) per backend this PyTorch can pin, or [] before 2.0."""
    try:
        import torch.nn.attention as attention  # 2.3+: not always imported by torch.nn itself
    except ImportError:
        attention = None
    if attention is not None and hasattr(attention, "sdpa_kernel"):
        B = attention.SDPBackend
        names = [("math", "MATH"), ("flash", "FLASH_ATTENTION"), ("efficient", "EFFICIENT_ATTENTION"),
                 ("cudnn", "CUDNN_ATTENTION")]
        return [(n, (lambda b: lambda: attention.sdpa_kernel(b))(getattr(B, a))) for n, a in names if hasattr(B, a)]
    if hasattr(torch.backends.cuda, "sdp_kernel"):  # 2.0-2.2
        k = torch.backends.cuda.sdp_kernel
        return [("math", lambda: k(enable_math=True, enable_flash=False, enable_mem_efficient=False)),
                ("flash", lambda: k(enable_math=False, enable_flash=True, enable_mem_efficient=False)),
                ("efficient", lambda: k(enable_math=False, enable_flash=False, enable_mem_efficient=True))]
    return []


def attention_bound(ctx, q, k, v, dtype):
    """float64 reference and bound of softmax(q k^T) v (q pre-scaled by 1/sqrt(d), exact for d = 64).
    S = q k^T is a dot of depth d (stored in the dtype at worst: the math backend); a perturbation dS changes P_i by a
    factor within exp(+-(|dS_i| + max_j |dS_j|)); softmax itself runs in float32 (PyTorch's kernels accumulate half
    in float, the fused kernels keep S and the running sums in float32): the softmax model in fp32's u; P is rounded
    to the dtype before P v; then P v, a dot of depth L with P's error carried through |v|."""
    torch = ctx.torch
    u = {torch.float16: U_FP16, torch.bfloat16: U_BF16}.get(dtype, U_FP32)
    p16 = DotPath(u_out=u, u_acc=U_FP32)
    rq, rk, rv = q.double(), k.double(), v.double()
    s = rq @ rk.transpose(-1, -2)
    e_s = ctx.dot_bound(s, rq.abs() @ rk.abs().transpose(-1, -2), q.shape[-1], p16)
    P = torch.softmax(s, -1)
    d = (s - s.max(-1, keepdim=True)[0]).abs()
    L = s.shape[-1]
    rel = (torch.expm1(e_s + e_s.max(-1, keepdim=True)[0]) + U_FP32 * (d + d.max(-1, keepdim=True)[0]) +
           gamma(L, U_FP32) + 12 * U_FP32 + u)
    e_p = P * rel
    ref = P @ rv
    return ref, ctx.dot_bound(ref, (P + e_p) @ rv.abs(), L, p16) + e_p @ rv.abs()


def probe_sdpa(ctx):
    torch = ctx.torch
    F = torch.nn.functional
    if not hasattr(F, "scaled_dot_product_attention"):
        raise Unsupported("PyTorch %s has no scaled_dot_product_attention (added in 2.0)" % torch.__version__)
    dtype = torch.float32 if ctx.is_cpu else torch.float16
    q = (ctx.randn((2, 4, 128, 64), 30) / 8).to(dtype)
    k, v = ctx.randn((2, 4, 128, 64), 31).to(dtype), ctx.randn((2, 4, 128, 64), 32).to(dtype)
    dq, dk, dv = q.to(ctx.dev), k.to(ctx.dev), v.to(ctx.dev)
    ref, bound = attention_bound(ctx, q, k, v, dtype)
    model = "attention in %s: dot of depth 64, softmax over 128, dot of depth 128" % str(dtype).replace("torch.", "")
    ctx.details["dtype"] = str(dtype).replace("torch.", "")
    ctx.details["TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL"] = os.environ.get("TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL")
    sdpa = lambda: F.scaled_dot_product_attention(dq, dk, dv, scale=1.0)
    if torch_version_tuple(torch) < (2, 1):  # 2.0 has no scale argument: undo the default 1/sqrt(64) = 1/8
        sdpa = lambda: F.scaled_dot_product_attention(dq * 8, dk, dv)
    outputs, backends, words = {}, {}, []
    for name, pin in sdpa_backends(torch):
        try:
            with pin():
                outputs[name] = sdpa()
            ctx.sync()
        except RuntimeError as e:
            backends[name] = {"outcome": "unsupported", "message": str(e).splitlines()[0]}
            words.append("%s unavailable" % name)
            continue
        ratio = ctx.check("sdpa " + name, outputs[name], ref, bound, model)
        backends[name] = {"outcome": "ok" if ratio <= 1.0 else "wrong", "error_ratio": finite(ratio)}
        words.append("%s %s" % (name, backends[name]["outcome"]))
    default = sdpa()
    ctx.sync()
    ctx.check("sdpa default", default, ref, bound, model)
    picked = [n for n, o in outputs.items() if bool(torch.equal(o, default))]
    ctx.details.update({"backends": backends, "default_matches": picked})
    if "math" in backends and backends["math"]["outcome"] == "unsupported":
        raise RuntimeError("the math backend, PyTorch's reference, did not run: " + backends["math"]["message"])
    ctx.note = "; ".join(words) + "; default = %s" % ("/".join(picked) if picked else "none of the pinned backends")


def probe_data_parallel(ctx):
    torch = ctx.torch
    count = need_gpus(ctx, 1, "needs a GPU")
    ids = [ctx.dev.index] + [i for i in range(count) if i != ctx.dev.index]
    x, w, bias, g = ctx.randn((64, 256), 6), ctx.randn((128, 256), 7) / 16, ctx.randn((128,), 8), ctx.randn((64, 128), 9)
    lin = torch.nn.Linear(256, 128).to(ctx.dev)
    with torch.no_grad():
        lin.weight.copy_(w)
        lin.bias.copy_(bias)
    dp = torch.nn.DataParallel(lin, device_ids=ids, output_device=ctx.dev.index)
    y = dp(x.to(ctx.dev))
    (y * g.to(ctx.dev)).sum().backward()
    rx, rw, rb, rg = x.double(), w.double(), bias.double(), g.double()
    p = ctx.dot_path(torch.float32)
    ctx.check_dot("DataParallel forward", y, torch.addmm(rb, rx, rw.t()), torch.addmm(rb.abs(), rx.abs(), rw.abs().t()), 257, p)
    ctx.check_dot("grad weight (summed over replicas)", lin.weight.grad, rg.t() @ rx, rg.abs().t() @ rx.abs(), 64, p)
    ctx.details["device_ids"] = ids
    ctx.note = "forward and backward over %d GPU%s" % (len(ids), "" if len(ids) == 1 else "s")


def free_port():
    """A port for rank 0's store that is free now, below the kernel's ephemeral range: between this check and rank
    0's bind (seconds: the rank imports torch first) the kernel hands ephemeral ports to other sockets (NCCL's and
    Gloo's own, of another probe running beside this one), never this one. Falls back to an ephemeral port."""
    low = 32768
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        pass
    for port in random.sample(range(20000, max(20001, low)), min(50, max(1, low - 20000))):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(("127.0.0.1", port))
            return port
        except OSError:
            continue
        finally:
            s.close()
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def address_in_use(answers):
    return any(a and "EADDRINUSE" in a.get("message", "") for a in answers)


def run_distributed(ctx, what, backend, world, limit):
    """The ranks' answers of run_ranks, run again on another port (at most twice) when rank 0 could not listen on
    the one chosen: another program took it between the choice and the bind, which is not the stack's fault."""
    for attempt in range(3):
        answers = run_ranks(ctx, what, backend, world, limit, free_port())
        if not address_in_use(answers):
            break
    ctx.details["rendezvous_attempts"] = attempt + 1
    return answers


RANK_VARIABLES = ("MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE", "LOCAL_RANK", "NCCL_DEBUG", "NCCL_DEBUG_SUBSYS",
                  "NCCL_DEBUG_FILE")


def rank_environment(base, port, rank, world, backend):
    """A rank's environment: the env:// rendezvous on this host and, for NCCL, its INFO lines (they name the
    transports, P2P/SHM/NET, and why P2P is off: IOMMU, ACS); a user's own NCCL_DEBUG/NCCL_DEBUG_SUBSYS win."""
    env = dict(base, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank), WORLD_SIZE=str(world),
               LOCAL_RANK=str(rank))
    if backend == "nccl":
        env.setdefault("NCCL_DEBUG", "INFO")
        env.setdefault("NCCL_DEBUG_SUBSYS", "INIT,BOOTSTRAP,ENV,NET,P2P")
    return env


def start_rank(ctx, what, backend, rank, world, limit, port):
    """Ranks 1.. as child processes running dist_child, in this worker's process group: when the runner kills a hung
    worker's group, the ranks go with it."""
    cmd = [sys.executable, os.path.abspath(__file__), "--dist-child", what, "--dist-backend", backend,
           "--device", ctx.device, "--timeout", str(limit)]
    if ctx.inject:
        cmd += ["--inject", ctx.inject]
    return subprocess.Popen(cmd, env=rank_environment(os.environ, port, rank, world, backend), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True)


def rank_zero_here(ctx, what, backend, world, limit, port):
    """Rank 0 in this worker's own process, which has imported torch already: a process and an `import torch` fewer
    per probe (each import is seconds of CPU while the whole grid starts up). The worker runs only this probe (the
    runner gives each rank-starting probe a worker of its own), so a rank that hangs here ends with the worker, as
    a child would. NCCL's INFO lines go to a file (on stdout they would mix with the worker's protocol). Returns the
    answer and the lines NCCL wrote."""
    saved = {k: os.environ.get(k) for k in RANK_VARIABLES}
    log = None
    env = rank_environment(os.environ, port, 0, world, backend)
    if backend == "nccl" and "NCCL_DEBUG_FILE" not in env:
        log = os.path.join(tempfile.gettempdir(), "stackscope-nccl-%d.log" % os.getpid())
        env["NCCL_DEBUG_FILE"] = log
    os.environ.update({k: env[k] for k in RANK_VARIABLES if k in env})
    try:
        answer = rank_answer(Context(ctx.torch, "cpu" if ctx.is_cpu else "0", ctx.inject), what, backend, 0, world,
                             limit)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    text = ""
    if log:
        try:
            with open(log, errors="replace") as f:
                text = f.read()
            os.remove(log)
        except OSError as e:
            text = ("stackscope: NCCL's INFO lines of rank 0 could not be read from %s (%s); the probe's outcome stands, "
                    "only rank 0's transport lines are missing: check that the temporary folder is writable (TMPDIR), "
                    "or set NCCL_DEBUG_FILE to a writable path and read them there\n" % (log, e))
    return answer, text


def collect_rank(p, rank, deadline, hung):
    """A child rank's answer and what it printed (NCCL's INFO lines go to stdout: kept with its stderr)."""
    try:
        out, err = p.communicate(timeout=max(0.1, deadline - time.time()))
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        hung.append(rank)
    answer, printed = None, []
    for line in out.splitlines():
        if line.startswith("{"):
            answer = json.loads(line)
        else:
            printed.append(line + "\n")
    if answer is None and rank not in hung:
        answer = {"outcome": "crash" if p.returncode < 0 else "error",
                  "message": "rank %d ended with %s before it answered" % (
                      rank, "signal %d" % -p.returncode if p.returncode < 0 else "exit code %d" % p.returncode)}
    return answer, "".join(printed) + err


def run_ranks(ctx, what, backend, world, limit, port):
    """One process per rank (env:// rendezvous on this host): rank 0 in this worker (rank_zero_here), the others
    children running dist_child; their output (NCCL_DEBUG lines) is copied to this probe's stderr and kept in the
    details. Returns the ranks' answers."""
    procs = [start_rank(ctx, what, backend, rank, world, limit, port) for rank in range(1, world)]
    deadline = time.time() + limit
    zero, zero_text = rank_zero_here(ctx, what, backend, world, limit, port)
    answers, texts, hung = [zero], [zero_text], []
    for rank, p in enumerate(procs, start=1):
        answer, text = collect_rank(p, rank, deadline, hung)
        answers.append(answer)
        texts.append(text)
    for rank, text in enumerate(texts):
        sys.stderr.write("--- rank %d ---\n%s" % (rank, text))
    ctx.details["ranks_stderr_tail"] = [t[-2000:] for t in texts]
    ctx.details["rank0_in_worker"] = True
    if backend == "nccl":
        ctx.details["nccl_info_lines"] = sum(1 for t in texts for l in t.splitlines() if "NCCL INFO" in l)
    if hung:
        raise Hang("rank%s %s did not finish within %.0f s (a collective waits for a rank that never joined: see "
                   "the NCCL/RCCL lines in the captured output)" % ("s" if len(hung) > 1 else "",
                                                                      ", ".join(map(str, hung)), limit))
    return answers


def probe_distributed(ctx, backend, limit):
    torch = ctx.torch
    if not torch.distributed.is_available():
        raise Unsupported("this PyTorch was built without torch.distributed")
    if backend == "nccl":
        need_gpus(ctx, 1, "nccl needs a GPU")
        if not torch.distributed.is_nccl_available():
            raise Unsupported("this PyTorch has no NCCL/RCCL backend")
    # World size: every visible GPU; the CPU cell uses two processes, the fewest that exchange anything.
    world = 2 if ctx.is_cpu else torch.cuda.device_count()
    answers = run_distributed(ctx, "collectives", backend, world, limit)
    merge_answers(ctx, answers)
    ctx.details.update({"backend": backend, "world_size": world})
    ctx.note = "%s: init_process_group, all_reduce, broadcast, barrier over %d process%s" % (
        backend if backend == "gloo" or not getattr(torch.version, "hip", None) else "nccl (RCCL)", world,
        "" if world == 1 else "es")
    if backend == "nccl":
        n = ctx.details.get("nccl_info_lines", 0)
        ctx.note += ("; %d NCCL INFO lines kept" % n) if n else (
            "; NCCL printed no INFO lines (NCCL_DEBUG=%s, NCCL_DEBUG_FILE=%s): its transport choice is not known"
            % (os.environ.get("NCCL_DEBUG", "INFO"), os.environ.get("NCCL_DEBUG_FILE", "unset")))


def probe_fsdp(ctx, limit):
    torch = ctx.torch
    count = need_gpus(ctx, 2, "FSDP needs two or more GPUs")
    answers = run_distributed(ctx, "fsdp", "nccl", count, limit)
    merge_answers(ctx, answers)
    ctx.details["world_size"] = count
    ctx.note = "one FSDP training step over %d GPUs" % count


def merge_answers(ctx, answers):
    for rank, a in enumerate(answers):
        if a.get("outcome") in ("error", "crash", "unsupported"):
            raise RuntimeError("rank %d: %s" % (rank, a.get("message", "")))
        for c in a.get("checks", []):
            worst = c["ratio"] if c["ratio"] is not None else math.inf
            if worst > ctx.worst_ratio:
                ctx.worst_ratio = worst
                ctx.worst_error = c["error"] if c["error"] is not None else math.inf
                ctx.worst_bound = c["bound"] if c["bound"] is not None else 0.0
                ctx.worst_what = "rank %d %s" % (rank, c["what"])
            if not worst <= 1.0 and not ctx.wrong_what:
                ctx.wrong_what = "rank %d %s" % (rank, c["what"])
        ctx.models.extend("rank %d %s" % (rank, m) for m in a.get("models", []))


def rank_answer(ctx, what, backend, rank, world, limit):
    """One rank of probe_distributed / probe_fsdp (the rendezvous from the environment): its answer with its
    comparisons."""
    import datetime
    torch = ctx.torch
    dist = torch.distributed
    ctx.child_checks = []
    try:
        if not ctx.is_cpu:
            torch.cuda.set_device(ctx.dev)
        dist.init_process_group(backend, init_method="env://", rank=rank, world_size=world,
                                timeout=datetime.timedelta(seconds=max(1.0, limit)))
        if what == "fsdp":
            child_fsdp(ctx, dist, rank, world)
        else:
            child_collectives(ctx, dist, rank, world)
        dist.barrier()
        dist.destroy_process_group()
        return {"outcome": "ok", "checks": ctx.child_checks, "models": ctx.models}
    except Exception as e:
        return {"outcome": "error", "message": "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")}


def dist_child(args):
    """A rank 1.. of run_ranks in its own process: prints one JSON answer."""
    import torch
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    ctx = Context(torch, "cpu" if args.device == "cpu" else str(rank), args.inject or "")
    answer = rank_answer(ctx, args.dist_child, args.dist_backend, rank, world, args.timeout)
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()


def child_check(ctx, what, out, ref, bound, model):
    ctx.check(what, out, ref, bound, model)
    ratio, err, lim = ctx.last
    ctx.child_checks.append({"what": what, "ratio": finite(ratio), "error": finite(err), "bound": finite(lim)})


def child_collectives(ctx, dist, rank, world):
    torch = ctx.torch
    n = 1 << 16
    parts = [ctx.randn((n,), 100 + r) for r in range(world)]
    ref = sum(p.double() for p in parts)
    abs_sum = sum(p.double().abs() for p in parts)
    t = parts[rank].to(ctx.dev)
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    child_check(ctx, "all_reduce sum", t, ref, gamma(world, U_FP32) * abs_sum, "sum of %d fp32 values" % world)
    src = ctx.randn((n,), 200)
    b = (src if rank == 0 else torch.zeros(n)).to(ctx.dev)
    dist.broadcast(b, src=0)
    child_check(ctx, "broadcast from rank 0", b, src.double(), 0.0, "exact")


def child_fsdp(ctx, dist, rank, world):
    torch = ctx.torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    x, w, bias, g = ctx.randn((64, 256), 6), ctx.randn((128, 256), 7) / 16, ctx.randn((128,), 8), ctx.randn((64, 128), 9)
    lin = torch.nn.Linear(256, 128)
    with torch.no_grad():
        lin.weight.copy_(w)
        lin.bias.copy_(bias)
    model = FSDP(lin.to(ctx.dev), device_id=ctx.dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    y = model(x.to(ctx.dev))
    (y * g.to(ctx.dev)).sum().backward()
    opt.step()
    rx, rw, rb = x.double(), w.double(), bias.double()
    p = ctx.dot_path(torch.float32)
    ref = torch.addmm(rb, rx, rw.t())
    child_check(ctx, "FSDP forward", y, ref, ctx.dot_bound(ref, torch.addmm(rb.abs(), rx.abs(), rw.abs().t()), 257, p),
                describe(p, 257))
    with FSDP.summon_full_params(model):
        full = lin.weight.detach().clone()
    child_check(ctx, "weight after a step with lr 0", full, rw, 0.0, "exact")


def probe_user_checks(ctx):
    """The seed user's own script: tensor creation, matmul, conv2d, batchnorm, memory allocated/reserved."""
    torch = ctx.torch
    dev = ctx.dev
    ctx.check_exact("torch.ones(3, 3).sum()", torch.ones(3, 3, device=dev).sum().reshape(1), torch.tensor([9.0], dtype=torch.float64))
    ctx.check_exact("torch.arange(10)", torch.arange(10, device=dev), torch.arange(10, dtype=torch.float64))
    torch.manual_seed(0)
    x = torch.randn(1024, 1024, device=dev)
    y = x @ x
    rx = x.cpu().double()
    ctx.check_dot("x @ x (1024x1024)", y, rx @ rx, rx.abs() @ rx.abs(), 1024, ctx.dot_path(torch.float32))
    conv = torch.nn.Conv2d(3, 16, 3).to(dev)
    img = torch.randn(8, 3, 64, 64, device=dev)
    out = conv(img)
    ri, rw, rb = img.cpu().double(), conv.weight.detach().cpu().double(), conv.bias.detach().cpu().double()
    ref = torch.conv2d(ri, rw, rb)
    ctx.check_dot("nn.Conv2d(3, 16, 3)", out, ref, torch.conv2d(ri.abs(), rw.abs(), rb.abs()), 28,
                  ctx.dot_path(torch.float32, True))
    bn = torch.nn.BatchNorm2d(16).to(dev)
    z = bn(out.detach())
    # The reference normalises the device's conv output (rounded fp32 values), so only batch norm's error remains.
    ro = out.detach().cpu().double()
    shape = (1, 16, 1, 1)
    yb, bound, _, _ = norm_bound(ro, [0, 2, 3], ro.numel() // 16, torch.ones(shape, dtype=torch.float64),
                                 torch.zeros(shape, dtype=torch.float64), 1e-5)
    ctx.check("nn.BatchNorm2d(16) in training mode", z, yb, bound, "normalisation over %d values per channel, fp32" % (ro.numel() // 16))
    ctx.sync()
    if ctx.is_cpu:
        ctx.note = "tensor creation, matmul, conv2d, batchnorm on the CPU"
        return
    allocated, reserved = torch.cuda.memory_allocated(dev), torch.cuda.memory_reserved(dev)
    ctx.details.update({"allocated_bytes": allocated, "reserved_bytes": reserved})
    if allocated <= 0 or reserved < allocated:
        ctx.wrong_what = "memory_allocated %d and memory_reserved %d do not add up while tensors are held" % (allocated, reserved)
    ctx.note = "memory allocated %d MiB, reserved %d MiB" % (allocated >> 20, reserved >> 20)


def probes(torch, timeout):
    dist_limit = 0.8 * timeout  # the worker reports a hung collective itself, before the runner's limit kills it
    return {
        "device_info": probe_device_info,
        "alloc_zeros": probe_alloc_zeros,
        "alloc_empty_1gib": probe_alloc_empty,
        "randn": probe_randn,
        "elementwise": probe_elementwise,
        "reduction": probe_reduction,
        "matmul_fp32": lambda c: probe_matmul(c, torch.float32),
        "matmul_fp16": lambda c: probe_matmul(c, torch.float16),
        "matmul_bf16": lambda c: probe_matmul(c, torch.bfloat16),
        "linear_fp32": lambda c: probe_linear(c, torch.float32),
        "linear_bf16": lambda c: probe_linear(c, torch.bfloat16),
        "conv2d": probe_conv2d,
        "batch_norm": probe_batch_norm,
        "layer_norm": probe_layer_norm,
        "softmax": probe_softmax,
        "autocast_bf16_mlp": probe_autocast_mlp,
        "copy_h2d": lambda c: probe_copy(c, True),
        "copy_d2h": lambda c: probe_copy(c, False),
        "peer_copy": probe_peer_copy,
        "all_reduce": probe_all_reduce,
        "memory_stats": probe_memory_stats,
        "torch_compile_fn": probe_compile_fn,
        "torch_compile_mlp": probe_compile_mlp,
        "sdpa": probe_sdpa,
        "data_parallel": probe_data_parallel,
        "dist_gloo": lambda c: probe_distributed(c, "gloo", dist_limit),
        "dist_nccl": lambda c: probe_distributed(c, "nccl", dist_limit),
        "fsdp_step": lambda c: probe_fsdp(c, dist_limit),
        "user_checks": probe_user_checks,
    }


# --- the protocol ------------------------------------------------------------------------------------------------

def clean(v):
    """JSON that nlohmann reads: non-finite floats become null, anything else unknown becomes text."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, dict):
        return {str(k): clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [clean(x) for x in v]
    if v is None or isinstance(v, (bool, int, str)):
        return v
    return str(v)


class ProtocolOut(object):
    """The protocol gets its own descriptor; fd 1 then points at stderr, so whatever a library prints on stdout is
    captured with the warnings instead of breaking a JSON line."""

    def __init__(self):
        sys.stdout.flush()
        self.fd = os.dup(1)
        os.dup2(2, 1)

    def send(self, message):
        data = (json.dumps(clean(message)) + "\n").encode("utf-8")
        try:
            while data:
                data = data[os.write(self.fd, data):]
        except OSError:
            pass  # the runner is gone: nothing left to tell


def marker(probe):
    sys.stdout.flush()
    sys.stderr.write(MARKER + probe + "\n")
    sys.stderr.flush()


def inject_process_fault(kind):
    sys.stderr.write("stackscope: injected %s\n" % ("crash (SIGSEGV)" if kind == "crash" else kind))
    sys.stderr.flush()
    if kind == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif kind == "abort":
        os.abort()
    while True:  # hang: a kernel that never returns
        time.sleep(1)


def backend_of(torch):
    if getattr(torch.version, "hip", None):
        return "rocm"
    return "cuda" if torch.version.cuda else "cpu"


def list_devices(torch):
    devices = [{"id": "cpu", "name": "CPU"}]
    if backend_of(torch) != "cpu" and torch.cuda.is_available():
        for i in range(torch.cuda.device_count()):
            devices.append({"id": str(i), "name": torch.cuda.get_device_name(i)})
    return devices


def run_probe(torch, table, probe, args, inject):
    ctx = Context(torch, args.device, inject)
    if probe not in table:
        return {"outcome": "unsupported", "message": "this worker has no probe '%s'; update StackScope" % probe}
    if not ctx.is_cpu:
        if backend_of(torch) == "cpu":
            return {"outcome": "unsupported", "message": "this PyTorch is a CPU-only build; install a CUDA or ROCm build"}
        # Float32 accumulation for 16-bit gemms, as the error model assumes (docs/probe-error-model.md, "Paths"); a
        # PyTorch without a switch (the bf16 one came in 2.0) has no reduced-precision reduction to turn off.
        for switch in ("allow_bf16_reduced_precision_reduction", "allow_fp16_reduced_precision_reduction"):
            try:
                setattr(torch.backends.cuda.matmul, switch, False)
            except AttributeError:
                ctx.details.setdefault("absent_switches", []).append(switch)
    try:
        if inject == "oom":
            huge = torch.empty(1 << 50, dtype=torch.uint8, device=ctx.dev)
            huge.fill_(0)
        table[probe](ctx)
        ctx.sync()
    except Unsupported as e:
        return {"outcome": "unsupported", "message": str(e), "details": ctx.details}
    except Hang as e:
        return {"outcome": "hang", "message": str(e), "details": ctx.details}
    except Exception as e:
        text = "%s: %s" % (type(e).__name__, e)
        if ctx.is_cpu and "not implemented for '" in text:
            return {"outcome": "unsupported", "message": "this PyTorch has no CPU kernel for it: " + text,
                    "details": ctx.details}
        sys.stderr.write(traceback.format_exc())
        return {"outcome": "error", "message": text, "details": ctx.details}
    return result_of(ctx)


def parse_args(argv):
    p = argparse.ArgumentParser(description="StackScope probe worker for this Python's PyTorch (JSON lines on stdout)")
    p.add_argument("--device", default="cpu", help="cpu or a GPU index")
    p.add_argument("--probe", action="append", default=[], help="probe id to run (repeatable; default: the catalogue)")
    p.add_argument("--inject", default="", choices=["", "crash", "abort", "hang", "wrong", "perturb", "oom"],
                   help="tests only: the fault to inject")
    p.add_argument("--inject-probe", default="", help="tests only: the probe that gets the fault (default: the first)")
    p.add_argument("--timeout", type=float, default=30.0, help="the runner's limit per probe in seconds")
    p.add_argument("--list-devices", action="store_true", help="print the devices this PyTorch sees and exit")
    p.add_argument("--wait-go", action="store_true",
                   help="after the hello, start the probes only when stdin says 'go' (the runner's GPU turn)")
    p.add_argument("--dist-child", default="", help=argparse.SUPPRESS)
    p.add_argument("--dist-backend", default="gloo", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    if args.dist_child:
        dist_child(args)
        return 0
    out = ProtocolOut()
    hello = {"type": "hello", "protocol": PROTOCOL, "pid": os.getpid(), "python": sys.executable,
             "python_version": "%d.%d.%d" % tuple(sys.version_info[:3])}
    try:
        import torch
    except BaseException as e:
        torch = None
        hello["error"] = "import torch failed in %s: %s: %s" % (sys.executable, type(e).__name__, e)
    if torch is not None:
        hello.update({"backend": backend_of(torch), "torch_version": torch.__version__})
        if os.environ.get("STACKSCOPE_PROBE_DISABLE_ONEDNN") == "1":
            torch.backends.mkldnn.enabled = False
    out.send(hello)
    if args.list_devices:
        if torch is None:
            out.send({"type": "devices", "backend": None, "devices": [{"id": "cpu", "name": "CPU"}], "error": hello["error"]})
        else:
            out.send({"type": "devices", "backend": backend_of(torch), "torch_version": torch.__version__,
                      "devices": list_devices(torch)})
        out.send({"type": "done"})
        return 0
    if args.wait_go and sys.stdin.readline().strip() != "go":
        return 0  # the runner stopped before this worker's turn
    table = probes(torch, args.timeout) if torch is not None else {}
    wanted = args.probe or list(table)
    inject_probe = args.inject_probe or (wanted[0] if wanted else "")
    for probe in wanted:
        marker(probe)
        out.send({"type": "start", "probe": probe})
        inject = args.inject if probe == inject_probe else ""
        if inject in ("crash", "abort", "hang"):
            inject_process_fault(inject)
        t0 = time.perf_counter()
        if torch is None:
            result = {"outcome": "error", "message": hello["error"]}
        else:
            result = run_probe(torch, table, probe, args, inject)
        sys.stdout.flush()
        sys.stderr.flush()
        result.update({"type": "result", "probe": probe, "seconds": time.perf_counter() - t0})
        out.send(result)
    out.send({"type": "done"})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
