// Checking probe results against float64 references with the error model's element-wise bounds.
#include "core/torch/probe_checks.h"
#include "core/util/environment.h"

#include <torch/version.h>

#include <cmath>
#include <cstdlib>

namespace stackscope::probe {

namespace em = stackscope::errormodel;

namespace {

// Fault injection for tests, applied to the computed result before it is checked.
torch::Tensor injectFault(const ProbeContext& ctx, torch::Tensor o, const torch::Tensor& bound)
{
    if (ctx.inject == "wrong")
        return o + (1.0 + 2.0 * bound); // plainly off, whatever the model allows
    if (ctx.inject == "perturb" && o.numel() > 0) {
        // One element, the largest in magnitude, off by 1 % of its magnitude: what a flaky kernel or a bad memory
        // cell might leave. Caught wherever the bound there is below 1 % (docs/probe-error-model.md says where).
        auto flat = o.reshape({-1}).clone();
        const auto i = flat.abs().argmax().item<int64_t>();
        flat[i] = flat[i] * 1.01;
        return flat.reshape(o.sizes());
    }
    return o;
}

// PyTorch sends a CPU bfloat16 gemm to oneDNN when mkldnn is enabled and the CPU has AVX-512 BW, VL and DQ
// (mkldnn_bf16_device_check in aten/src/ATen/native/mkldnn/Utils.h,
// https://github.com/pytorch/pytorch/blob/v1.13.1/aten/src/ATen/native/mkldnn/Utils.h); oneDNN accumulates in
// float32. Otherwise its own reference gemm runs, which before PyTorch 2.1 accumulated 16-bit products in the
// 16-bit output (https://github.com/pytorch/pytorch/pull/96074, fixing
// https://github.com/pytorch/pytorch/issues/83863 and https://github.com/pytorch/pytorch/issues/95125).
bool cpuHasAvx512BwVlDq()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512dq");
#else
    return false; // other CPUs: assume the reference gemm (the looser bound)
#endif
}

constexpr bool kReferenceGemmAccumulatesInStorage =
    TORCH_VERSION_MAJOR < 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR < 1);

double unitOf(torch::ScalarType dtype)
{
    switch (dtype) {
    case torch::kHalf: return em::kUnitFp16;
    case torch::kBFloat16: return em::kUnitBf16;
    case torch::kDouble: return em::kUnitFp64;
    default: return em::kUnitFp32;
    }
}

std::string unitName(double u)
{
    if (u == em::kUnitFp32)
        return "fp32";
    if (u == em::kUnitBf16)
        return "bf16";
    if (u == em::kUnitFp16)
        return "fp16/tf32";
    return "fp64";
}

} // namespace

void check(ProbeContext& ctx, const std::string& what, const torch::Tensor& out, const torch::Tensor& ref,
           const torch::Tensor& bound, const std::string& model)
{
    const auto r = ref.to(torch::kDouble);
    const auto b = bound.to(torch::kDouble).expand_as(r);
    const auto o = injectFault(ctx, out.detach().to(torch::kCPU).to(torch::kDouble), b);
    if (o.sizes() != r.sizes())
        throw std::runtime_error(what + ": shape differs from the reference");
    ctx.models.push_back(what + ": " + model);
    double err = INFINITY, lim = b.max().item<double>(), ratio = INFINITY;
    if (torch::isfinite(o).all().item<bool>()) {
        const auto diff = (o - r).abs().reshape({-1});
        const auto flatBound = b.reshape({-1});
        // Where the model allows no error (exact ops), any difference is an infinite ratio.
        const auto ratios = torch::where(flatBound > 0, diff / flatBound.clamp_min(1e-300),
                                         torch::where(diff > 0, torch::full_like(diff, INFINITY), torch::zeros_like(diff)));
        const auto i = ratios.argmax().item<int64_t>();
        ratio = ratios[i].item<double>();
        err = diff[i].item<double>();
        lim = flatBound[i].item<double>();
    }
    if (ratio > ctx.worstRatio) {
        ctx.worstRatio = ratio;
        ctx.worstError = err;
        ctx.worstBound = lim;
        ctx.worstWhat = what;
    }
    if (!(ratio <= 1.0) && ctx.wrongWhat.empty())
        ctx.wrongWhat = what;
}

void checkExact(ProbeContext& ctx, const std::string& what, const torch::Tensor& out, const torch::Tensor& ref)
{
    check(ctx, what, out, ref, torch::zeros({1}, torch::kDouble), "exact");
}

em::DotPath dotPath(const ProbeContext& ctx, torch::ScalarType dtype, bool convolution)
{
    em::DotPath p;
    p.uOut = unitOf(dtype);
    const bool reduced = dtype == torch::kHalf || dtype == torch::kBFloat16;
    if (ctx.isCpu) {
        const bool onednn = dtype == torch::kBFloat16 && at::globalContext().userEnabledMkldnn() && cpuHasAvx512BwVlDq();
        if (reduced && !onednn && kReferenceGemmAccumulatesInStorage) {
            p.uAcc = p.uOut;
            p.storageAccumulation = true;
        }
        return p;
    }
    // GPUs: cuBLAS/hipBLAS(Lt) and cuDNN/MIOpen accumulate 16-bit gemms in float32 (PyTorch's CUDABlas.cpp asks for
    // CUBLAS_COMPUTE_32F); the probe turns off the reduced-precision split-K reduction for its own gemms (see
    // applyGpuGemmSettings in probe_ops.cpp). float32 inputs are rounded to TF32 where PyTorch allows it:
    // convolutions by default (torch.backends.cudnn.allow_tf32), matmuls only when asked
    // (https://pytorch.org/docs/stable/notes/cuda.html#tensorfloat-32-tf32-on-ampere-and-later-devices).
    if (dtype == torch::kFloat) {
        const bool tf32 = convolution ? at::globalContext().allowTF32CuDNN() : at::globalContext().allowTF32CuBLAS();
        if (tf32)
            p.uIn = em::kUnitTf32;
    }
    return p;
}

torch::Tensor dotBound(const torch::Tensor& ref, const torch::Tensor& absSum, double depth, const em::DotPath& p)
{
    const double acc = p.storageAccumulation ? em::gammaProbabilistic(depth, p.uAcc) : em::gamma(depth, p.uAcc);
    const auto g = absSum.to(torch::kDouble) * (acc + 2.0 * p.uIn + p.uIn * p.uIn);
    return p.uOut * (ref.to(torch::kDouble).abs() + g) + g;
}

std::string describe(const em::DotPath& p, double depth)
{
    std::string s = "dot product of depth " + std::to_string(static_cast<long long>(depth)) + ", accumulated in " +
        unitName(p.uAcc) + (p.storageAccumulation ? " (probabilistic bound, lambda 8)" : "") + ", stored as " +
        unitName(p.uOut);
    if (p.uIn > 0)
        s += ", inputs rounded to tf32";
    return s;
}

void checkDot(ProbeContext& ctx, const std::string& what, const torch::Tensor& out, const torch::Tensor& ref,
              const torch::Tensor& absSum, double depth, const em::DotPath& p)
{
    check(ctx, what, out, ref, dotBound(ref, absSum, depth, p), describe(p, depth));
}

void applyProbeEnvironment()
{
    // The CPU path PyTorch takes on a CPU without AVX-512 (no oneDNN bfloat16 gemm), reproducible on any CPU:
    // the same switch as torch.backends.mkldnn.enabled = False in Python.
    if (stackscope::envValue(stackscope::EnvVar::ProbeDisableOnednn) == "1")
        at::globalContext().setUserEnabledMkldnn(false);
}

} // namespace stackscope::probe
