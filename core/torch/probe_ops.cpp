// The op probes of the catalogue (core/probes/probe_catalogue.cpp), run inside the torch module:
// each runs one op on a device and compares it with a float64 CPU reference.
#include "core/torch/module_strings.h"
#include "core/runtime/probe_module_api.h"
#include "core/torch/probe_checks.h"
#include "core/torch/probe_collectives.h"
#include "core/torch/probe_runtime.h"

#include <ATen/autocast_mode.h>
#include <torch/cuda.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 9)
#include <c10/core/CachingDeviceAllocator.h>
#define STACKSCOPE_HAVE_DEVICE_ALLOCATOR_STATS 1
#endif

namespace {

using nlohmann::json;
using stackscope::probe::ProbeContext;
using stackscope::probe::Unsupported;
using stackscope::probe::check;
using stackscope::probe::checkDot;
using stackscope::probe::checkExact;
using stackscope::probe::dotPath;
namespace em = stackscope::errormodel;

void synchronize(const ProbeContext& ctx)
{
    if (!ctx.isCpu)
        torch::cuda::synchronize(ctx.device.index());
}

torch::Tensor randnCpu(at::IntArrayRef shape, int64_t seed)
{
    torch::manual_seed(seed);
    return torch::randn(shape, torch::kFloat);
}

void probeDeviceInfo(ProbeContext& ctx)
{
    if (ctx.isCpu) {
        ctx.details["name"] = "CPU";
        ctx.details["threads"] = at::get_num_threads();
        ctx.note = "CPU, " + std::to_string(at::get_num_threads()) + " threads";
        return;
    }
    const int count = static_cast<int>(torch::cuda::device_count());
    ctx.details["visible_devices"] = count;
    if (ctx.device.index() >= count)
        throw std::runtime_error("device " + std::to_string(ctx.device.index()) + " is not visible to libtorch (" +
                                 std::to_string(count) + " visible); check CUDA_VISIBLE_DEVICES/HIP_VISIBLE_DEVICES");
    // A first op creates the context: failures here are the classic "no kernel image" ones.
    const auto one = torch::ones({4}, torch::TensorOptions().device(ctx.device)).sum().item<float>();
    if (one != 4.0f)
        throw std::runtime_error("ones(4).sum() gave " + std::to_string(one) + " on the device");
    ctx.details.update(stackscope::probe::gpuProperties(ctx.device.index()));
    ctx.note = ctx.details.value("name", std::string("GPU ") + std::to_string(ctx.device.index()));
}


torch::Tensor dbl(const torch::Tensor& t)
{
    return t.to(torch::kDouble);
}

void probeAllocZeros(ProbeContext& ctx)
{
    auto t = torch::zeros({1024, 1024}, torch::TensorOptions().device(ctx.device));
    checkExact(ctx, "zeros", t, torch::zeros({1024, 1024}, torch::kDouble));
}

// 1 GiB on a GPU: its allocator has to back it. On the CPU it is host memory the GPU stack has no part in, and a
// 1 GiB fill took past the 30 s limit on the loaded 2-core machine (a false hang, tests/bench/RESULTS.md): 64 MiB.
void probeAllocEmpty(ProbeContext& ctx)
{
    const int64_t bytes = int64_t(1) << (ctx.isCpu ? 26 : 30);
    auto t = torch::empty({bytes}, torch::TensorOptions().dtype(torch::kUInt8).device(ctx.device));
    // Touch it so a lazy allocator has to back the memory.
    t.fill_(3);
    // min and max stay in uint8 (a sum would widen the whole GiB to int64 first).
    const int lo = t.min().item<int>(), hi = t.max().item<int>();
    ctx.details["bytes"] = bytes;
    const std::string size = ctx.isCpu ? "64 MiB" : "1 GiB";
    checkExact(ctx, "min and max after fill_(3) of " + size, torch::tensor({double(lo), double(hi)}),
               torch::tensor({3.0, 3.0}, torch::kDouble));
    ctx.note = size + " allocated and filled";
}

void probeRandn(ProbeContext& ctx)
{
    const int64_t n = int64_t(1) << 20;
    auto t = torch::randn({n}, torch::TensorOptions().device(ctx.device));
    const auto c = dbl(t.cpu());
    const double mean = c.mean().item<double>();
    const double stdev = c.std().item<double>();
    ctx.details["mean"] = mean;
    ctx.details["std"] = stdev;
    // Standard errors of the sample mean (1/sqrt(n)) and standard deviation (1/sqrt(2n)), kSigmas of each.
    const auto bound = torch::tensor({em::kSigmas / std::sqrt(double(n)), em::kSigmas / std::sqrt(2.0 * n)}, torch::kDouble);
    check(ctx, "randn mean/std", torch::tensor({mean, stdev}), torch::tensor({0.0, 1.0}, torch::kDouble), bound,
          "statistical, 10 standard errors of 2^20 samples");
}

void probeElementwise(ProbeContext& ctx)
{
    const auto a = randnCpu({512, 512}, 1), b = randnCpu({512, 512}, 2);
    const auto da = a.to(ctx.device), db = b.to(ctx.device);
    auto out = da * db + torch::sin(da) - torch::exp(db / 4);
    const auto ra = dbl(a), rb = dbl(b);
    const auto ab = ra * rb, s = torch::sin(ra), e = torch::exp(rb / 4);
    const auto bound = em::kElementwiseUnits * em::kUnitFp32 * (ab.abs() + s.abs() + e.abs());
    check(ctx, "a*b + sin(a) - exp(b/4)", out, ab + s - e, bound, "elementwise, 16 u of the terms' magnitudes");
}

void probeReduction(ProbeContext& ctx)
{
    const auto a = randnCpu({1024, 1024}, 3);
    const auto d = a.to(ctx.device);
    const auto r = dbl(a), absR = r.abs();
    const double u = em::kUnitFp32;
    check(ctx, "sum(dim=1)", d.sum(1), r.sum(1), em::gamma(1024, u) * absR.sum(1), "sum of depth 1024, fp32");
    const double n = double(r.numel());
    check(ctx, "mean", d.mean(), r.mean(), em::gamma(n + 1, u) * absR.mean(), "sum of depth 2^20 then a division, fp32");
    checkExact(ctx, "amax(dim=0)", std::get<0>(d.max(0)), std::get<0>(r.max(0)));
}

void probeMatmul(ProbeContext& ctx, torch::ScalarType dtype)
{
    // Inputs rounded to the dtype first: the float64 reference multiplies the same rounded values.
    const auto a = randnCpu({512, 512}, 4).to(dtype), b = randnCpu({512, 512}, 5).to(dtype);
    auto out = torch::matmul(a.to(ctx.device), b.to(ctx.device));
    const auto ra = dbl(a), rb = dbl(b);
    checkDot(ctx, "matmul", out, torch::matmul(ra, rb), torch::matmul(ra.abs(), rb.abs()), 512, dotPath(ctx, dtype));
}

// linear = addmm with a bias: the path cuBLASLt/hipBLASLt take (DISABLE_ADDMM_CUDA_LT switches it).
void probeLinear(ProbeContext& ctx, torch::ScalarType dtype)
{
    const auto x = randnCpu({64, 256}, 6).to(dtype), w = (randnCpu({128, 256}, 7) / 16).to(dtype);
    const auto bias = randnCpu({128}, 8).to(dtype), g = randnCpu({64, 128}, 9).to(dtype);
    auto dx = x.to(ctx.device).requires_grad_(true);
    auto dw = w.to(ctx.device).requires_grad_(true);
    auto db = bias.to(ctx.device).requires_grad_(true);
    auto y = torch::linear(dx, dw, db);
    (y * g.to(ctx.device)).sum().backward();
    const auto rx = dbl(x), rw = dbl(w), rb = dbl(bias), rg = dbl(g);
    const auto path = dotPath(ctx, dtype);
    checkDot(ctx, "linear forward", y, torch::addmm(rb, rx, rw.t()), torch::addmm(rb.abs(), rx.abs(), rw.abs().t()), 257, path);
    checkDot(ctx, "grad input", dx.grad(), torch::matmul(rg, rw), torch::matmul(rg.abs(), rw.abs()), 128, path);
    checkDot(ctx, "grad weight", dw.grad(), torch::matmul(rg.t(), rx), torch::matmul(rg.abs().t(), rx.abs()), 64, path);
    checkDot(ctx, "grad bias", db.grad(), rg.sum(0), rg.abs().sum(0), 64, path);
}

void probeConv2d(ProbeContext& ctx)
{
    const auto x = randnCpu({8, 16, 32, 32}, 10), w = randnCpu({32, 16, 3, 3}, 11) / 12, b = randnCpu({32}, 12);
    auto out = torch::conv2d(x.to(ctx.device), w.to(ctx.device), b.to(ctx.device), 1, 1);
    const auto rx = dbl(x), rw = dbl(w), rb = dbl(b);
    checkDot(ctx, "conv2d 3x3", out, torch::conv2d(rx, rw, rb, 1, 1), torch::conv2d(rx.abs(), rw.abs(), rb.abs(), 1, 1),
             16 * 9 + 1, dotPath(ctx, torch::kFloat, /*convolution=*/true));
}

// Normalisation (layer and batch norm) over `dims` of x, then * w + b, in float32: the bound of y = (x - mu) *
// rstd * w + b. The mean is a sum of depth n (error e_mu <= gamma_{n+1} mean|x|); the variance's relative error
// is below 4 gamma_n kappa^2, kappa^2 = 1 + mu^2/var, for the textbook, two-pass and Welford algorithms (Chan,
// Golub & LeVeque, "Algorithms for computing the sample variance", 1983,
// https://doi.org/10.1080/00031305.1983.10483115); rsqrt adds up to 4u; the subtraction, two products and the
// addition one rounding each.
struct NormBound {
    torch::Tensor y;        // exact output
    torch::Tensor bound;    // per element
    torch::Tensor meanErr;  // per group
    torch::Tensor relVar;   // per group
};

NormBound normBound(const torch::Tensor& x, at::IntArrayRef dims, double n, const torch::Tensor& w, const torch::Tensor& b,
                    double eps)
{
    const double u = em::kUnitFp32;
    const auto mu = x.mean(dims, true);
    const auto var = (x - mu).pow(2).mean(dims, true);
    const auto rstd = (var + eps).rsqrt();
    const auto eMu = em::gamma(n + 1, u) * x.abs().mean(dims, true);
    const auto relVar = 4 * em::gamma(n, u) * (1 + mu.pow(2) / var) + eMu.pow(2) / var;
    const auto relRstd = relVar / 2 + 5 * u;
    const auto xhat = (x - mu) * rstd;
    const auto y = xhat * w + b;
    const auto bound = w.abs() * rstd * (eMu + u * (x - mu).abs()) + (w * xhat).abs() * relRstd +
        3 * u * ((w * xhat).abs() + b.abs());
    return {y, bound, eMu, relVar};
}

void probeBatchNorm(ProbeContext& ctx)
{
    const auto x = randnCpu({16, 32, 16, 16}, 13) * 2 + 1, w = randnCpu({32}, 14), b = randnCpu({32}, 15);
    auto rm = torch::zeros({32}, torch::TensorOptions().device(ctx.device));
    auto rv = torch::ones({32}, torch::TensorOptions().device(ctx.device));
    auto out = torch::batch_norm(x.to(ctx.device), w.to(ctx.device), b.to(ctx.device), rm, rv, true, 0.1, 1e-5, false);
    const auto rx = dbl(x);
    const std::vector<int64_t> shape {1, 32, 1, 1};
    const double n = 16 * 16 * 16;
    const auto nb = normBound(rx, {0, 2, 3}, n, dbl(w).view(shape), dbl(b).view(shape), 1e-5);
    const auto mu = rx.mean({0, 2, 3}), varUnbiased = rx.var({0, 2, 3}, /*unbiased=*/true);
    const double u = em::kUnitFp32;
    check(ctx, "batch_norm output", out, nb.y, nb.bound, "normalisation over 4096 values per channel, fp32");
    const auto refMean = 0.1 * mu, refVar = 0.9 + 0.1 * varUnbiased;
    check(ctx, "running mean", rm, refMean, 0.1 * nb.meanErr.view({32}) + 2 * u * refMean.abs(), "0.1 x the mean, fp32");
    check(ctx, "running var", rv, refVar, 0.1 * varUnbiased * nb.relVar.view({32}) + 3 * u * refVar.abs(),
          "0.9 + 0.1 x the unbiased variance, fp32");
}

void probeLayerNorm(ProbeContext& ctx)
{
    const auto x = randnCpu({64, 512}, 16) * 3, w = randnCpu({512}, 17), b = randnCpu({512}, 18);
    auto out = torch::layer_norm(x.to(ctx.device), {512}, w.to(ctx.device), b.to(ctx.device));
    const auto nb = normBound(dbl(x), {1}, 512, dbl(w), dbl(b), 1e-5);
    check(ctx, "layer_norm", out, nb.y, nb.bound, "normalisation over 512 values, fp32");
}

// softmax(x)_i = exp(x_i - m) / sum_j exp(x_j - m): the subtraction's rounding grows by |x_i - m| through exp, exp
// itself is within 4u, the sum of n positive terms within gamma_n, the division one rounding.
void probeSoftmax(ProbeContext& ctx)
{
    const auto x = randnCpu({64, 1000}, 19) * 4;
    const auto rx = dbl(x), ref = torch::softmax(rx, 1);
    const double u = em::kUnitFp32;
    const auto d = (rx - std::get<0>(rx.max(1, true))).abs();
    const auto rel = u * (d + std::get<0>(d.max(1, true))) + em::gamma(1000, u) + 12 * u;
    check(ctx, "softmax(dim=1)", torch::softmax(x.to(ctx.device), 1), ref, ref.abs() * rel,
          "exp, a sum of 1000 positive terms and a division, fp32");
}

// Enables autocast to bf16 for the device type for the probe's lifetime.
class AutocastScope {
public:
    explicit AutocastScope(bool cpu)
        : m_cpu(cpu)
    {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
        const auto type = cpu ? at::kCPU : at::kCUDA;
        at::autocast::set_autocast_dtype(type, at::kBFloat16);
        at::autocast::set_autocast_enabled(type, true);
#else
        if (cpu) {
            at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
            at::autocast::set_cpu_enabled(true);
        } else {
            at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
            at::autocast::set_enabled(true);
        }
#endif
    }
    ~AutocastScope()
    {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
        at::autocast::set_autocast_enabled(m_cpu ? at::kCPU : at::kCUDA, false);
#else
        if (m_cpu)
            at::autocast::set_cpu_enabled(false);
        else
            at::autocast::set_enabled(false);
#endif
        at::autocast::clear_cache();
    }
    AutocastScope(const AutocastScope&) = delete;
    AutocastScope& operator=(const AutocastScope&) = delete;

private:
    bool m_cpu;
};

// Each linear accumulates on the device's bf16 path, the hidden layer is stored in bfloat16 and its error reaches
// the output through |W2| (relu is 1-Lipschitz).
void probeAutocastMlp(ProbeContext& ctx)
{
    const auto x = randnCpu({64, 256}, 20), w1 = randnCpu({512, 256}, 21) / 16, b1 = randnCpu({512}, 22),
               w2 = randnCpu({256, 512}, 23) / 22, b2 = randnCpu({256}, 24);
    torch::Tensor out;
    {
        torch::NoGradGuard noGrad;
        AutocastScope autocast(ctx.isCpu);
        const auto h = torch::relu(torch::linear(x.to(ctx.device), w1.to(ctx.device), b1.to(ctx.device)));
        out = torch::linear(h, w2.to(ctx.device), b2.to(ctx.device));
    }
    ctx.details["output_dtype"] = std::string(c10::toString(out.scalar_type()));
    if (out.scalar_type() != torch::kBFloat16)
        ctx.wrongWhat = std::string("autocast left the output in ") + c10::toString(out.scalar_type()) + ", not BFloat16";
    // Autocast rounds inputs, weights and biases to bfloat16 (to nearest even): the reference uses the same
    // rounded values, so only the accumulation, the hidden layer's storage and the output's rounding remain.
    const auto path = dotPath(ctx, torch::kBFloat16);
    const auto r16 = [](const torch::Tensor& t) { return dbl(t.to(torch::kBFloat16)); };
    const auto rx = r16(x), rw1 = r16(w1), rb1 = r16(b1), rw2 = r16(w2), rb2 = r16(b2);
    const auto h1 = torch::addmm(rb1, rx, rw1.t());
    const auto e1 = stackscope::probe::dotBound(h1, torch::addmm(rb1.abs(), rx.abs(), rw1.abs().t()), 257, path);
    const auto h = torch::relu(h1);
    const auto ref = torch::addmm(rb2, h, rw2.t());
    const auto propagated = torch::matmul(e1, rw2.abs().t());
    const auto s2 = torch::addmm(rb2.abs(), h.abs() + e1, rw2.abs().t());
    const auto own = stackscope::probe::dotBound(ref.abs() + propagated, s2, 513, path);
    check(ctx, "MLP under autocast(bf16)", out, ref, own + propagated,
          "two bf16 linears: " + stackscope::probe::describe(path, 257) + "; hidden error through |W2|");
}

double seconds(std::chrono::steady_clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

// The median of `trials` timed runs of `op` after one untimed warm-up (first-touch, peer-access setup and pinned
// allocation stay out of the figure, as in nvbandwidth; `bench bandwidth` sweeps sizes and judges the figure).
double medianSeconds(const std::function<void()>& op, int trials = 5)
{
    op();
    std::vector<double> s;
    for (int t = 0; t < trials; ++t) {
        const auto t0 = std::chrono::steady_clock::now();
        op();
        s.push_back(seconds(std::chrono::steady_clock::now() - t0));
    }
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
}

// Copy bandwidth over 256 MiB, warm, median of 5. On the CPU device it is a host-to-host copy: no link is crossed,
// so its bandwidth says nothing about the stack and only equality is worth checking; 16 MiB (still past every
// cache) checks that in a sixteenth of the time (the Python worker's 256 MiB CPU copies took 19.5 s each on the
// loaded 2-core machine).
void probeCopy(ProbeContext& ctx, bool toDevice)
{
    const int64_t n = int64_t(ctx.isCpu ? 4 : 64) << 20; // floats: 16 MiB on the CPU, 256 MiB to or from a GPU
    const auto hostOptions = torch::TensorOptions().dtype(torch::kFloat).pinned_memory(!ctx.isCpu);
    auto host = torch::empty({n}, hostOptions);
    host.copy_(torch::arange(n, torch::kFloat));
    torch::Tensor dev = toDevice ? torch::empty({n}, torch::TensorOptions().dtype(torch::kFloat).device(ctx.device))
                                 : host.to(ctx.device);
    torch::Tensor back = toDevice ? torch::Tensor() : torch::empty({n}, hostOptions);
    synchronize(ctx);
    const double s = medianSeconds([&] {
        if (toDevice)
            dev.copy_(host, /*non_blocking=*/false);
        else
            back.copy_(dev, false);
        synchronize(ctx);
    });
    const double gbs = double(n * 4) / s / 1e9;
    ctx.details["bytes"] = n * 4;
    ctx.details["gb_per_s"] = gbs;
    const auto checked = (toDevice ? dev : back).to(torch::kCPU);
    // Compared in float32 (exactness needs no float64 copy of 256 MiB): the number of differing elements.
    const auto differing = checked.ne(host).sum().item<int64_t>();
    checkExact(ctx, "elements that differ after the copy", torch::tensor({double(differing)}), torch::zeros({1}, torch::kDouble));
    char buf[128];
    std::snprintf(buf, sizeof buf, "%.1f GB/s (%s, %lld MiB, warm, median of 5)", gbs,
                  ctx.isCpu ? "host to host" : (toDevice ? "host to device, pinned" : "device to host, pinned"),
                  static_cast<long long>(n * 4 >> 20));
    ctx.note = buf;
}

int gpuCount()
{
    return static_cast<int>(torch::cuda::device_count());
}

void probePeerCopy(ProbeContext& ctx)
{
    const int count = gpuCount();
    if (count < 2)
        throw Unsupported("needs two or more GPUs; libtorch sees " + std::to_string(count));
    const int peer = (ctx.device.index() + 1) % count;
    const auto src = randnCpu({16 << 20}, 25); // 64 MiB
    const auto a = src.to(ctx.device);
    auto b = torch::empty_like(a, torch::TensorOptions().device(torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(peer))));
    synchronize(ctx);
    const double s = medianSeconds([&] {
        b.copy_(a);
        torch::cuda::synchronize(peer);
        torch::cuda::synchronize(ctx.device.index());
    });
    const double gbs = double(src.numel() * 4) / s / 1e9;
    ctx.details["peer"] = peer;
    ctx.details["bytes"] = src.numel() * 4;
    ctx.details["gb_per_s"] = gbs;
    checkExact(ctx, "copy to GPU " + std::to_string(peer), b, dbl(src));
    char buf[96];
    std::snprintf(buf, sizeof buf, "to GPU %d: %.1f GB/s (64 MiB, warm, median of 5)", peer, gbs);
    ctx.note = buf;
}

void probeMemoryStats(ProbeContext& ctx)
{
    auto t = torch::empty({int64_t(16) << 20}, torch::TensorOptions().device(ctx.device)); // 64 MiB
    t.fill_(1);
    synchronize(ctx);
    ctx.details["held_bytes"] = t.nbytes();
    if (ctx.isCpu) {
        ctx.note = "64 MiB held; the CPU allocator keeps no statistics";
        return;
    }
#ifdef STACKSCOPE_HAVE_DEVICE_ALLOCATOR_STATS
    if (auto* alloc = dynamic_cast<c10::DeviceAllocator*>(c10::GetAllocator(c10::DeviceType::CUDA))) {
        const auto stats = alloc->getDeviceStats(ctx.device.index());
        const auto allocated = stats.allocated_bytes[0].current, reserved = stats.reserved_bytes[0].current;
        ctx.details["allocated_bytes"] = allocated;
        ctx.details["reserved_bytes"] = reserved;
        if (allocated < static_cast<int64_t>(t.nbytes()))
            ctx.wrongWhat = "the caching allocator reports less allocated than the 64 MiB tensor held";
        ctx.note = "allocated " + std::to_string(allocated >> 20) + " MiB, reserved " + std::to_string(reserved >> 20) +
                   " MiB (caching allocator)";
        return;
    }
#endif
    const auto mem = stackscope::probe::gpuMemory(ctx.device.index());
    ctx.details.update(mem);
    ctx.note = mem.contains("used_bytes")
        ? "device memory used " + std::to_string(mem["used_bytes"].get<uint64_t>() >> 20) + " MiB (runtime; this libtorch "
          "exposes no allocator statistics to C++)"
        : "64 MiB held; " + mem.value("why", std::string("no memory statistics"));
}

using ProbeFn = std::function<void(ProbeContext&)>;

const std::map<std::string, ProbeFn>& probes()
{
    static const std::map<std::string, ProbeFn> table {
        {"device_info", probeDeviceInfo},
        {"alloc_zeros", probeAllocZeros},
        {"alloc_empty_1gib", probeAllocEmpty},
        {"randn", probeRandn},
        {"elementwise", probeElementwise},
        {"reduction", probeReduction},
        {"matmul_fp32", [](ProbeContext& c) { probeMatmul(c, torch::kFloat); }},
        {"matmul_fp16", [](ProbeContext& c) { probeMatmul(c, torch::kHalf); }},
        {"matmul_bf16", [](ProbeContext& c) { probeMatmul(c, torch::kBFloat16); }},
        {"linear_fp32", [](ProbeContext& c) { probeLinear(c, torch::kFloat); }},
        {"linear_bf16", [](ProbeContext& c) { probeLinear(c, torch::kBFloat16); }},
        {"conv2d", probeConv2d},
        {"batch_norm", probeBatchNorm},
        {"layer_norm", probeLayerNorm},
        {"softmax", probeSoftmax},
        {"autocast_bf16_mlp", probeAutocastMlp},
        {"copy_h2d", [](ProbeContext& c) { probeCopy(c, true); }},
        {"copy_d2h", [](ProbeContext& c) { probeCopy(c, false); }},
        {"peer_copy", probePeerCopy},
        {"all_reduce", [](ProbeContext& c) { stackscope::probe::probeCollective(c, "all_reduce"); }},
        {"broadcast", [](ProbeContext& c) { stackscope::probe::probeCollective(c, "broadcast"); }},
        {"barrier", [](ProbeContext& c) { stackscope::probe::probeCollective(c, "barrier"); }},
        {"memory_stats", probeMemoryStats},
    };
    return table;
}

std::string backendName()
{
    const std::string config = at::show_config();
    if (config.find("USE_ROCM=ON") != std::string::npos || config.find("USE_ROCM=1") != std::string::npos)
        return "rocm";
    if (config.find("USE_CUDA=ON") != std::string::npos || config.find("USE_CUDA=1") != std::string::npos)
        return "cuda";
    return "cpu";
}

json listDevices()
{
    json devices = json::array();
    devices.push_back({{"id", "cpu"}, {"name", "CPU"}});
    const std::string backend = backendName();
    const int count = backend == "cpu" ? 0 : gpuCount();
    for (int i = 0; i < count; ++i)
        devices.push_back({{"id", std::to_string(i)}, {"name", stackscope::probe::gpuName(i)}});
    return {{"backend", backend}, {"torch_version", TORCH_VERSION}, {"devices", devices}};
}

// The worker's answer: outcome, message, and the worst compared element's error, bound and their ratio.
json resultOf(ProbeContext& ctx)
{
    json out {{"details", ctx.details}};
    const bool compared = ctx.worstRatio >= 0.0;
    if (compared) {
        const auto number = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
        out["max_error"] = number(ctx.worstError);
        out["tolerance"] = number(ctx.worstBound);
        out["error_ratio"] = number(ctx.worstRatio);
        out["details"]["error_model"] = ctx.models;
    }
    const bool storage = std::any_of(ctx.models.begin(), ctx.models.end(),
                                     [](const std::string& m) { return m.find("probabilistic") != std::string::npos; });
    if (storage)
        out["details"]["accumulation_note"] =
            "this libtorch accumulates 16-bit gemms in 16 bits on this CPU (PyTorch < 2.1 without oneDNN bfloat16, "
            "https://github.com/pytorch/pytorch/pull/96074): results are correct to that precision only";
    char buf[320];
    if (!ctx.wrongWhat.empty()) {
        // The worst violation is the one to show (a probe's later comparisons can be further off than its first).
        if (compared && !(ctx.worstRatio <= 1.0) && ctx.worstBound == 0.0)
            std::snprintf(buf, sizeof buf, "%s: off by %.3g where the error model allows no error (an exact op)",
                          ctx.worstWhat.c_str(), ctx.worstError);
        else if (compared && !(ctx.worstRatio <= 1.0))
            std::snprintf(buf, sizeof buf, "%s: off by %.3g where the error model allows %.3g (%.3g times the bound)",
                          ctx.worstWhat.c_str(), ctx.worstError, ctx.worstBound, ctx.worstRatio);
        else
            std::snprintf(buf, sizeof buf, "%s", ctx.wrongWhat.c_str());
        out["outcome"] = "wrong";
        // What to do next: a wrong result is a broken stack, not a tolerance to raise.
        out["message"] = std::string(buf) + "; rerun the probe to see whether it repeats, then `stackscope-cli report "
                                            "--run-probes` names likely causes (driver, library build, variant fixes)";
        return out;
    }
    out["outcome"] = "ok";
    std::string message = ctx.note;
    if (compared) {
        std::snprintf(buf, sizeof buf, "worst error %.2g of its bound", ctx.worstRatio);
        message += (message.empty() ? "" : "; ") + std::string(buf);
    }
    if (storage)
        message += "; accumulates in 16 bits on this CPU (PyTorch < 2.1 without oneDNN)";
    out["message"] = message;
    return out;
}

json runProbe(const json& request)
{
    const std::string id = request.value("probe", std::string());
    const std::string device = request.value("device", std::string("cpu"));
    const std::string inject = request.value("inject", std::string());
    auto it = probes().find(id);
    if (it == probes().end())
        return {{"outcome", "unsupported"}, {"message", "this torch module has no probe '" + id + "'; rebuild StackScope"}};

    ProbeContext ctx;
    ctx.inject = inject;
    stackscope::probe::applyProbeEnvironment();
    if (device != "cpu") {
        if (backendName() == "cpu")
            return {{"outcome", "unsupported"}, {"message", "this libtorch is a CPU-only build; install a CUDA or ROCm build"}};
        ctx.isCpu = false;
        ctx.device = torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(std::stoi(device)));
        // The probe checks the gemm kernels with float32 reductions: with cuBLAS's default reduced-precision
        // split-K reduction a 16-bit gemm may round partial sums to 16 bits, which no 1 % check survives in bf16.
        at::globalContext().setAllowFP16ReductionCuBLAS(false);
#if TORCH_VERSION_MAJOR >= 2
        at::globalContext().setAllowBF16ReductionCuBLAS(false);
#endif
    }
    try {
        it->second(ctx);
        synchronize(ctx);
    } catch (const Unsupported& e) {
        return {{"outcome", "unsupported"}, {"message", e.what()}, {"details", ctx.details}};
    } catch (const c10::Error& e) {
        const std::string what = e.what_without_backtrace();
        // The CPU is the reference device: an op this libtorch lacks there for a dtype (float16 matmul
        // before PyTorch 2.1) is a gap of the build, not a broken stack.
        if (ctx.isCpu && what.find("not implemented for '") != std::string::npos)
            return {{"outcome", "unsupported"}, {"message", "this libtorch has no CPU kernel for it: " + what},
                    {"details", ctx.details}};
        return {{"outcome", "error"}, {"message", what}, {"details", ctx.details}};
    } catch (const std::exception& e) {
        return {{"outcome", "error"}, {"message", e.what()}, {"details", ctx.details}};
    }
    return resultOf(ctx);
}

} // namespace

extern "C" char* stackscope_torch_run_probe(const char* request_json)
{
    try {
        const auto request = json::parse(request_json ? request_json : "{}");
        if (request.value("op", std::string()) == "devices")
            return stackscope::torchmodule::mallocCopy(listDevices().dump());
        return stackscope::torchmodule::mallocCopy(runProbe(request).dump());
    } catch (const std::exception& e) {
        return stackscope::torchmodule::mallocCopy(json {{"outcome", "error"}, {"message", std::string("probe request failed: ") + e.what()}}.dump());
    }
}
