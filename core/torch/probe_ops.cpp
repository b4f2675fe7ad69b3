// The op probes of the catalogue (core/probes/probe_catalogue.cpp), run inside the torch module:
// each runs one op on a device and compares it with a float64 CPU reference.
#include "core/torch/module_strings.h"
#include "core/torch/probe_module_api.h"
#include "core/torch/probe_runtime.h"

#include <ATen/autocast_mode.h>
#include <torch/cuda.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <nlohmann/json.hpp>

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

// Tolerances per dtype, the same numbers as core/probes/probe_catalogue.cpp states: max |out - ref|
// divided by max(1, max |ref|). fp32 conv may run in TF32 on Ampere and newer (cuDNN's default).
constexpr double kTolFp32 = 1e-4;
constexpr double kTolFp32Tf32 = 5e-3;
constexpr double kTolFp16 = 5e-3;
constexpr double kTolBf16 = 3e-2;

// A probe that found something a person must act on but that is not a libtorch exception.
struct Unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ProbeContext {
    torch::Device device = torch::kCPU;
    bool isCpu = true;
    bool injectWrong = false;
    json details = json::object();
    double maxError = 0.0;
    double tolerance = 0.0;
    std::string wrongWhat; // first comparison that failed
    std::string note;      // for the message of an ok probe (bandwidth, sizes)
};

torch::Tensor cpuDouble(const torch::Tensor& t)
{
    return t.detach().to(torch::kCPU).to(torch::kDouble);
}

// Compares `out` (any device, any dtype) with a float64 reference; the worst comparison is kept.
void compare(ProbeContext& ctx, const std::string& what, torch::Tensor out, const torch::Tensor& ref, double tol)
{
    auto o = cpuDouble(out);
    if (ctx.injectWrong)
        o = o + 1.0; // fault injection for tests: a result that is plainly off
    const auto r = ref.to(torch::kDouble);
    if (o.sizes() != r.sizes())
        throw std::runtime_error(what + ": shape differs from the reference");
    double err;
    if (!torch::isfinite(o).all().item<bool>())
        err = INFINITY;
    else {
        const double scale = std::max(1.0, r.abs().max().item<double>());
        err = (o - r).abs().max().item<double>() / scale;
    }
    if (err / tol > ctx.maxError / std::max(ctx.tolerance, 1e-300) || ctx.tolerance == 0.0) {
        ctx.maxError = err;
        ctx.tolerance = tol;
    }
    if (!(err <= tol) && ctx.wrongWhat.empty())
        ctx.wrongWhat = what;
}

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

void probeAllocZeros(ProbeContext& ctx)
{
    auto t = torch::zeros({1024, 1024}, torch::TensorOptions().device(ctx.device));
    compare(ctx, "zeros", t, torch::zeros({1024, 1024}, torch::kDouble), kTolFp32);
}

void probeAllocEmpty(ProbeContext& ctx)
{
    const int64_t bytes = int64_t(1) << 30;
    auto t = torch::empty({bytes}, torch::TensorOptions().dtype(torch::kUInt8).device(ctx.device));
    // Touch it so a lazy allocator has to back the memory.
    t.fill_(3);
    // min and max stay in uint8 (a sum would widen the whole GiB to int64 first).
    const int lo = t.min().item<int>(), hi = t.max().item<int>();
    ctx.details["bytes"] = bytes;
    if ((lo != 3 || hi != 3) && !ctx.injectWrong)
        ctx.wrongWhat = "after fill_(3) of 1 GiB the values range from " + std::to_string(lo) + " to " + std::to_string(hi);
    if (ctx.injectWrong)
        compare(ctx, "empty 1 GiB", torch::ones({1}), torch::zeros({1}, torch::kDouble), kTolFp32);
    ctx.note = "1 GiB allocated and filled";
}

void probeRandn(ProbeContext& ctx)
{
    auto t = torch::randn({1 << 20}, torch::TensorOptions().device(ctx.device));
    const auto c = cpuDouble(t);
    const double mean = c.mean().item<double>();
    const double stdev = c.std().item<double>();
    ctx.details["mean"] = mean;
    ctx.details["std"] = stdev;
    // 2^20 samples: the mean's standard error is 0.001; 0.01 is ten of them.
    compare(ctx, "randn mean/std", torch::tensor({mean, stdev}), torch::tensor({0.0, 1.0}, torch::kDouble), 1e-2);
}

void probeElementwise(ProbeContext& ctx)
{
    const auto a = randnCpu({512, 512}, 1), b = randnCpu({512, 512}, 2);
    const auto da = a.to(ctx.device), db = b.to(ctx.device);
    auto out = da * db + torch::sin(da) - torch::exp(db / 4);
    const auto ra = a.to(torch::kDouble), rb = b.to(torch::kDouble);
    compare(ctx, "a*b + sin(a) - exp(b/4)", out, ra * rb + torch::sin(ra) - torch::exp(rb / 4), kTolFp32);
}

void probeReduction(ProbeContext& ctx)
{
    const auto a = randnCpu({1024, 1024}, 3);
    const auto d = a.to(ctx.device);
    const auto r = a.to(torch::kDouble);
    compare(ctx, "sum(dim=1)", d.sum(1), r.sum(1), kTolFp32);
    compare(ctx, "mean", d.mean(), r.mean(), kTolFp32);
    compare(ctx, "amax(dim=0)", std::get<0>(d.max(0)), std::get<0>(r.max(0)), kTolFp32);
}

void probeMatmul(ProbeContext& ctx, torch::ScalarType dtype, double tol)
{
    const auto a = randnCpu({512, 512}, 4).to(dtype), b = randnCpu({512, 512}, 5).to(dtype);
    auto out = torch::matmul(a.to(ctx.device), b.to(ctx.device));
    compare(ctx, "matmul", out, torch::matmul(a.to(torch::kDouble), b.to(torch::kDouble)), tol);
}

// linear = addmm with a bias: the path cuBLASLt/hipBLASLt take (DISABLE_ADDMM_CUDA_LT switches it).
void probeLinear(ProbeContext& ctx, torch::ScalarType dtype, double tol)
{
    const auto x = randnCpu({64, 256}, 6).to(dtype), w = (randnCpu({128, 256}, 7) / 16).to(dtype);
    const auto bias = randnCpu({128}, 8).to(dtype), g = randnCpu({64, 128}, 9).to(dtype);
    auto dx = x.to(ctx.device).requires_grad_(true);
    auto dw = w.to(ctx.device).requires_grad_(true);
    auto db = bias.to(ctx.device).requires_grad_(true);
    auto y = torch::linear(dx, dw, db);
    (y * g.to(ctx.device)).sum().backward();
    const auto rx = x.to(torch::kDouble), rw = w.to(torch::kDouble), rb = bias.to(torch::kDouble),
               rg = g.to(torch::kDouble);
    compare(ctx, "linear forward", y, torch::addmm(rb, rx, rw.t()), tol);
    compare(ctx, "grad input", dx.grad(), torch::matmul(rg, rw), tol);
    compare(ctx, "grad weight", dw.grad(), torch::matmul(rg.t(), rx), tol);
    compare(ctx, "grad bias", db.grad(), rg.sum(0), tol);
}

void probeConv2d(ProbeContext& ctx)
{
    const auto x = randnCpu({8, 16, 32, 32}, 10), w = randnCpu({32, 16, 3, 3}, 11) / 12, b = randnCpu({32}, 12);
    auto out = torch::conv2d(x.to(ctx.device), w.to(ctx.device), b.to(ctx.device), 1, 1);
    compare(ctx, "conv2d 3x3", out,
            torch::conv2d(x.to(torch::kDouble), w.to(torch::kDouble), b.to(torch::kDouble), 1, 1), kTolFp32Tf32);
}

void probeBatchNorm(ProbeContext& ctx)
{
    const auto x = randnCpu({16, 32, 16, 16}, 13) * 2 + 1, w = randnCpu({32}, 14), b = randnCpu({32}, 15);
    auto rm = torch::zeros({32}, torch::TensorOptions().device(ctx.device));
    auto rv = torch::ones({32}, torch::TensorOptions().device(ctx.device));
    auto out = torch::batch_norm(x.to(ctx.device), w.to(ctx.device), b.to(ctx.device), rm, rv, true, 0.1, 1e-5, false);
    auto rrm = torch::zeros({32}, torch::kDouble), rrv = torch::ones({32}, torch::kDouble);
    auto ref = torch::batch_norm(x.to(torch::kDouble), w.to(torch::kDouble), b.to(torch::kDouble), rrm, rrv, true, 0.1,
                                 1e-5, false);
    compare(ctx, "batch_norm output", out, ref, kTolFp32);
    compare(ctx, "running mean", rm, rrm, kTolFp32);
    compare(ctx, "running var", rv, rrv, kTolFp32);
}

void probeLayerNorm(ProbeContext& ctx)
{
    const auto x = randnCpu({64, 512}, 16) * 3, w = randnCpu({512}, 17), b = randnCpu({512}, 18);
    auto out = torch::layer_norm(x.to(ctx.device), {512}, w.to(ctx.device), b.to(ctx.device));
    compare(ctx, "layer_norm", out,
            torch::layer_norm(x.to(torch::kDouble), {512}, w.to(torch::kDouble), b.to(torch::kDouble)), kTolFp32);
}

void probeSoftmax(ProbeContext& ctx)
{
    const auto x = randnCpu({64, 1000}, 19) * 4;
    compare(ctx, "softmax(dim=1)", torch::softmax(x.to(ctx.device), 1), torch::softmax(x.to(torch::kDouble), 1),
            kTolFp32);
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
    const auto d = [](const torch::Tensor& t) { return t.to(torch::kDouble); };
    const auto ref = torch::linear(torch::relu(torch::linear(d(x), d(w1), d(b1))), d(w2), d(b2));
    compare(ctx, "MLP under autocast(bf16)", out, ref, kTolBf16);
}

double seconds(std::chrono::steady_clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

// Copy bandwidth over 256 MiB; on the CPU device a host-to-host copy, so the column has a baseline.
void probeCopy(ProbeContext& ctx, bool toDevice)
{
    const int64_t n = int64_t(64) << 20; // floats: 256 MiB
    const auto hostOptions = torch::TensorOptions().dtype(torch::kFloat).pinned_memory(!ctx.isCpu);
    auto host = torch::empty({n}, hostOptions);
    host.copy_(torch::arange(n, torch::kFloat));
    torch::Tensor dev = toDevice ? torch::empty({n}, torch::TensorOptions().dtype(torch::kFloat).device(ctx.device))
                                 : host.to(ctx.device);
    synchronize(ctx);
    const auto t0 = std::chrono::steady_clock::now();
    torch::Tensor back;
    if (toDevice) {
        dev.copy_(host, /*non_blocking=*/false);
        synchronize(ctx);
    } else {
        back = torch::empty({n}, hostOptions);
        back.copy_(dev, false);
        synchronize(ctx);
    }
    const double s = seconds(std::chrono::steady_clock::now() - t0);
    const double gbs = double(n * 4) / s / 1e9;
    ctx.details["bytes"] = n * 4;
    ctx.details["gb_per_s"] = gbs;
    const auto checked = toDevice ? dev : back;
    const bool same = checked.to(torch::kCPU).equal(host);
    if (!same && !ctx.injectWrong)
        ctx.wrongWhat = "the copied 256 MiB differ from the source";
    if (ctx.injectWrong)
        compare(ctx, "copy", torch::ones({1}), torch::zeros({1}, torch::kDouble), kTolFp32);
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.1f GB/s (%s, 256 MiB)", gbs,
                  ctx.isCpu ? "host to host" : (toDevice ? "host to device, pinned" : "device to host, pinned"));
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
    synchronize(ctx);
    const auto t0 = std::chrono::steady_clock::now();
    const auto b = a.to(torch::Device(torch::kCUDA, peer));
    torch::cuda::synchronize(peer);
    const double s = seconds(std::chrono::steady_clock::now() - t0);
    ctx.details["peer"] = peer;
    ctx.details["gb_per_s"] = double(src.numel() * 4) / s / 1e9;
    compare(ctx, "copy to GPU " + std::to_string(peer), b, src.to(torch::kDouble), 1e-12);
    char buf[64];
    std::snprintf(buf, sizeof buf, "to GPU %d: %.1f GB/s", peer, double(src.numel() * 4) / s / 1e9);
    ctx.note = buf;
}

// An all-reduce (sum) over every visible GPU done with device-to-device copies: plain libtorch has no
// stable C++ collective API, so this checks the peer paths the collectives use, not NCCL/RCCL itself.
void probeAllReduce(ProbeContext& ctx)
{
    const int count = gpuCount();
    if (count < 2)
        throw Unsupported("needs two or more GPUs; libtorch sees " + std::to_string(count));
    std::vector<torch::Tensor> parts;
    torch::Tensor ref = torch::zeros({1 << 20}, torch::kDouble);
    for (int i = 0; i < count; ++i) {
        const auto p = randnCpu({1 << 20}, 100 + i);
        ref += p.to(torch::kDouble);
        parts.push_back(p.to(torch::Device(torch::kCUDA, i)));
    }
    auto acc = parts[0].clone();
    for (int i = 1; i < count; ++i)
        acc += parts[i].to(acc.device());
    for (int i = 0; i < count; ++i)
        compare(ctx, "sum on GPU " + std::to_string(i), acc.to(torch::Device(torch::kCUDA, i)), ref, kTolFp32);
    ctx.note = "sum over " + std::to_string(count) + " GPUs by peer copies (not NCCL)";
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
        {"matmul_fp32", [](ProbeContext& c) { probeMatmul(c, torch::kFloat, kTolFp32); }},
        {"matmul_fp16", [](ProbeContext& c) { probeMatmul(c, torch::kHalf, kTolFp16); }},
        {"matmul_bf16", [](ProbeContext& c) { probeMatmul(c, torch::kBFloat16, kTolBf16); }},
        {"linear_fp32", [](ProbeContext& c) { probeLinear(c, torch::kFloat, kTolFp32); }},
        {"linear_bf16", [](ProbeContext& c) { probeLinear(c, torch::kBFloat16, kTolBf16); }},
        {"conv2d", probeConv2d},
        {"batch_norm", probeBatchNorm},
        {"layer_norm", probeLayerNorm},
        {"softmax", probeSoftmax},
        {"autocast_bf16_mlp", probeAutocastMlp},
        {"copy_h2d", [](ProbeContext& c) { probeCopy(c, true); }},
        {"copy_d2h", [](ProbeContext& c) { probeCopy(c, false); }},
        {"peer_copy", probePeerCopy},
        {"all_reduce", probeAllReduce},
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

json runProbe(const json& request)
{
    const std::string id = request.value("probe", std::string());
    const std::string device = request.value("device", std::string("cpu"));
    const std::string inject = request.value("inject", std::string());
    auto it = probes().find(id);
    if (it == probes().end())
        return {{"outcome", "unsupported"}, {"message", "this torch module has no probe '" + id + "'; rebuild StackScope"}};

    ProbeContext ctx;
    ctx.injectWrong = inject == "wrong";
    if (device != "cpu") {
        if (backendName() == "cpu")
            return {{"outcome", "unsupported"}, {"message", "this libtorch is a CPU-only build; install a CUDA or ROCm build"}};
        ctx.isCpu = false;
        ctx.device = torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(std::stoi(device)));
    }
    try {
        if (inject == "oom") {
            // Fault injection for tests: an allocation no device can satisfy, through the real allocator.
            auto huge = torch::empty({int64_t(1) << 50}, torch::TensorOptions().dtype(torch::kUInt8).device(ctx.device));
            huge.fill_(0);
        }
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
    json out {{"details", ctx.details}};
    if (ctx.tolerance > 0.0 || ctx.maxError > 0.0) {
        out["max_error"] = std::isfinite(ctx.maxError) ? json(ctx.maxError) : json("inf");
        out["tolerance"] = ctx.tolerance;
    }
    if (!ctx.wrongWhat.empty()) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s: max error %.3g (tolerance %.3g, relative to max(1, |reference|))",
                      ctx.wrongWhat.c_str(), ctx.maxError, ctx.tolerance);
        out["outcome"] = "wrong";
        out["message"] = ctx.tolerance > 0.0 ? std::string(buf) : ctx.wrongWhat;
        return out;
    }
    out["outcome"] = "ok";
    out["message"] = ctx.note;
    return out;
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
