// The bandwidth and compute suite (`bench bandwidth`), measured the way nvbandwidth and nccl-tests measure: buffers
// allocated once, a warm-up, then each trial times a batch of operations between two device synchronizations, and
// the median of the trials is the figure. Sizes sweep from min_bytes to max_bytes by fours; the figure is judged at
// the largest (core/perf/verdict.h). Copies go through libtorch (copy-engine memcpy for contiguous copies; a kernel
// for a strided destination), so the same code runs on CUDA and ROCm builds.
#include "core/runtime/perf_module_api.h"

#include "core/torch/module_strings.h"
#include "core/torch/probe_collectives.h"
#include "core/torch/trainer_dist.h"
#include "core/util/task_runner.h"

#include <torch/cuda.h>
#include <torch/torch.h>
#if defined(STACKSCOPE_TORCH_CUDA)
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <functional>

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Plan {
    std::vector<int> gpus;
    std::vector<std::string> tests; // empty: all
    int64_t minBytes = 4096;
    int64_t maxBytes = int64_t(1) << 30;
    int trials = 5;
    std::vector<std::string> gemmDtypes {"fp32", "tf32", "bf16", "fp16", "fp64"};
    std::map<int, std::string> skip; // GPU -> why it is left out
    bool wants(const std::string& id) const
    {
        return tests.empty() || std::find(tests.begin(), tests.end(), id) != tests.end();
    }
};

double monotonicSeconds()
{
    timespec ts {};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

void syncAll(const std::vector<int>& gpus)
{
    for (int g : gpus)
        torch::cuda::synchronize(g);
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const auto n = v.size();
    return n == 0 ? 0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

// Operations per timed batch: enough that one batch moves at least 64 MiB (launch and synchronization costs
// are then below 1 % for copies faster than 10 us), at most 64.
int repsFor(int64_t bytes)
{
    return static_cast<int>(std::clamp<int64_t>((int64_t(64) << 20) / std::max<int64_t>(bytes, 1), 1, 64));
}

std::vector<int64_t> sweepSizes(const Plan& p)
{
    std::vector<int64_t> out;
    for (int64_t b = p.minBytes; b <= p.maxBytes; b *= 4)
        out.push_back(b);
    if (out.empty() || out.back() != p.maxBytes)
        out.push_back(p.maxBytes);
    return out;
}

// Times `op(bytes)` over the sweep: per size a warm-up batch, then `trials` batches; value = bytesCounted / seconds.
// `counted(bytes)` is what one op moves by the test's definition (a triad counts three arrays).
json measure(const std::string& test, const Plan& p, const std::vector<int>& syncGpus,
             const std::function<void(int64_t)>& op, const std::function<double(int64_t)>& counted,
             const std::vector<int64_t>& sizes, double unitScale = 1e-9)
{
    json sweep = json::array();
    json figure {{"test", test}, {"trials", p.trials}};
    figure["start_s"] = monotonicSeconds();
    std::vector<double> last;
    for (const int64_t bytes : sizes) {
        const int reps = repsFor(bytes);
        std::vector<double> values;
        for (int t = -1; t < p.trials; ++t) { // t = -1: warm-up
            syncAll(syncGpus);
            const auto t0 = Clock::now();
            for (int r = 0; r < reps; ++r)
                op(bytes);
            syncAll(syncGpus);
            const double s = std::chrono::duration<double>(Clock::now() - t0).count();
            if (t >= 0)
                values.push_back(counted(bytes) * reps / s * unitScale);
        }
        sweep.push_back({{"bytes", bytes}, {"value", median(values)}});
        last = values;
        figure["bytes"] = bytes;
    }
    figure["end_s"] = monotonicSeconds();
    figure["sweep"] = sweep;
    figure["value"] = median(last);
    figure["low"] = last.empty() ? 0 : *std::min_element(last.begin(), last.end());
    figure["high"] = last.empty() ? 0 : *std::max_element(last.begin(), last.end());
    return figure;
}

torch::TensorOptions onGpu(int g)
{
    return torch::TensorOptions().dtype(torch::kByte).device(torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(g)));
}

// Runs `body`, turning a failure into the figure's error (an OOM names the size; the run goes on).
void guarded(json& figures, json base, const std::function<json()>& body)
{
    try {
        auto f = body();
        f.update(base);
        figures.push_back(std::move(f));
    } catch (const c10::Error& e) {
        base["error"] = std::string(e.what_without_backtrace()).substr(0, 600);
        figures.push_back(std::move(base));
    } catch (const std::exception& e) {
        base["error"] = std::string(e.what()).substr(0, 600);
        figures.push_back(std::move(base));
    }
}

void hostFigures(const Plan& p, json& figures)
{
    if (!p.wants("host_memcpy") && !p.wants("h2d_pageable") && !p.wants("d2h_pageable"))
        return;
    guarded(figures, {{"test", "host_memcpy"}, {"gpu", -1}}, [&] {
        auto a = torch::ones({p.maxBytes}, torch::kByte), b = torch::zeros({p.maxBytes}, torch::kByte);
        auto* src = a.data_ptr<uint8_t>();
        auto* dst = b.data_ptr<uint8_t>();
        return measure("host_memcpy", p, {}, [&](int64_t n) { std::memcpy(dst, src, static_cast<size_t>(n)); },
                       [](int64_t n) { return double(n); }, {p.maxBytes});
    });
}

void hostLinkFigures(const Plan& p, int g, json& figures)
{
    const auto sizes = sweepSizes(p);
    for (const bool pinned : {true, false}) {
        for (const bool toDevice : {true, false}) {
            const std::string id = std::string(toDevice ? "h2d_" : "d2h_") + (pinned ? "pinned" : "pageable");
            if (!p.wants(id))
                continue;
            guarded(figures, {{"test", id}, {"gpu", g}}, [&] {
                auto host = torch::ones({p.maxBytes}, torch::TensorOptions().dtype(torch::kByte).pinned_memory(pinned));
                auto dev = torch::empty({p.maxBytes}, onGpu(g));
                return measure(id, p, {g}, [&](int64_t n) {
                    if (toDevice)
                        dev.narrow(0, 0, n).copy_(host.narrow(0, 0, n), /*non_blocking=*/pinned);
                    else
                        host.narrow(0, 0, n).copy_(dev.narrow(0, 0, n), /*non_blocking=*/pinned);
                }, [](int64_t n) { return double(n); }, sizes);
            });
        }
    }
}

void memoryFigures(const Plan& p, int g, json& figures)
{
    const auto sizes = sweepSizes(p);
    if (p.wants("d2d"))
        guarded(figures, {{"test", "d2d"}, {"gpu", g}}, [&] {
            auto a = torch::ones({p.maxBytes}, onGpu(g)), b = torch::empty({p.maxBytes}, onGpu(g));
            return measure("d2d", p, {g}, [&](int64_t n) { b.narrow(0, 0, n).copy_(a.narrow(0, 0, n)); },
                           [](int64_t n) { return double(n); }, sizes);
        });
    if (p.wants("triad"))
        guarded(figures, {{"test", "triad"}, {"gpu", g}}, [&] {
            const auto opts = onGpu(g).dtype(torch::kFloat);
            const int64_t n = p.maxBytes / 4;
            auto a = torch::empty({n}, opts), b = torch::ones({n}, opts), c = torch::full({n}, 0.5, opts);
            return measure("triad", p, {g}, [&](int64_t bytes) {
                const int64_t k = bytes / 4;
                auto out = a.narrow(0, 0, k);
                torch::add_out(out, b.narrow(0, 0, k), c.narrow(0, 0, k), 2.0);
            }, [](int64_t bytes) { return 3.0 * double(bytes); }, sizes);
        });
}

void gemmFigures(const Plan& p, int g, json& figures)
{
    if (!p.wants("gemm"))
        return;
    for (const auto& dtype : p.gemmDtypes) {
        guarded(figures, {{"test", "gemm"}, {"gpu", g}, {"dtype", dtype}}, [&] {
            const auto type = dtype == "bf16" ? torch::kBFloat16 : dtype == "fp16" ? torch::kHalf
                            : dtype == "fp64" ? torch::kDouble : torch::kFloat;
            const int64_t m = 8192;
            const auto opts = torch::TensorOptions().dtype(type).device(torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(g)));
            auto a = torch::randn({m, m}, opts), b = torch::randn({m, m}, opts), c = torch::empty({m, m}, opts);
            const bool tf32 = at::globalContext().allowTF32CuBLAS();
            at::globalContext().setAllowTF32CuBLAS(dtype == "tf32");
            auto f = measure("gemm", p, {g}, [&](int64_t) { torch::mm_out(c, a, b); },
                             [&](int64_t) { return 2.0 * double(m) * double(m) * double(m); }, {m * m * int64_t(a.element_size())},
                             1e-12);
            at::globalContext().setAllowTF32CuBLAS(tf32);
            f["sweep"] = json::array();
            return f;
        });
    }
}

// A destination with padded rows: not contiguous, so libtorch copies with a kernel (reading the peer's memory
// where peer access is on) instead of the copy engine.
void peerFigures(const Plan& p, int a, int b, json& figures)
{
    const auto sizes = sweepSizes(p);
    if (p.wants("peer_ce"))
        guarded(figures, {{"test", "peer_ce"}, {"gpu", a}, {"peer", b}}, [&] {
            auto src = torch::ones({p.maxBytes}, onGpu(a)), dst = torch::empty({p.maxBytes}, onGpu(b));
            return measure("peer_ce", p, {a, b}, [&](int64_t n) { dst.narrow(0, 0, n).copy_(src.narrow(0, 0, n)); },
                           [](int64_t n) { return double(n); }, sizes);
        });
    if (p.wants("peer_kernel"))
        guarded(figures, {{"test", "peer_kernel"}, {"gpu", a}, {"peer", b}}, [&] {
            // 8-byte elements: libtorch's copy kernel moves one element per thread step, and bytes would leave the
            // link idle (a uint8 version measured 329 GB/s where nvbandwidth's SM copy read 376 on the same H200s).
            constexpr int64_t kRow = 16384, kPad = 128; // bytes of a row, and of the padding after it
            const int64_t rows = p.maxBytes / kRow;
            const auto f64 = [](int g) { return onGpu(g).dtype(torch::kDouble); };
            auto src = torch::ones({rows, kRow / 8}, f64(a)), dst = torch::empty({rows, (kRow + kPad) / 8}, f64(b));
            std::vector<int64_t> kernelSizes;
            for (auto s : sizes)
                if (s >= kRow)
                    kernelSizes.push_back(s);
            return measure("peer_kernel", p, {a, b}, [&](int64_t n) {
                const int64_t r = n / kRow;
                dst.narrow(0, 0, r).narrow(1, 0, kRow / 8).copy_(src.narrow(0, 0, r));
            }, [](int64_t n) { return double(n / kRow * kRow); }, kernelSizes);
        });
}

#if defined(STACKSCOPE_TORCH_CUDA)
// Both directions at once: each copy on side streams of its own on both devices, so libtorch's cross-device
// stream synchronization does not order one direction after the other.
void bidirFigure(const Plan& p, int a, int b, json& figures)
{
    if (!p.wants("peer_bidir_ce"))
        return;
    guarded(figures, {{"test", "peer_bidir_ce"}, {"gpu", a}, {"peer", b}}, [&] {
        auto xa = torch::ones({p.maxBytes}, onGpu(a)), xb = torch::empty({p.maxBytes}, onGpu(b));
        auto yb = torch::ones({p.maxBytes}, onGpu(b)), ya = torch::empty({p.maxBytes}, onGpu(a));
        const auto da = static_cast<c10::DeviceIndex>(a), db = static_cast<c10::DeviceIndex>(b);
        auto s1a = c10::cuda::getStreamFromPool(false, da), s1b = c10::cuda::getStreamFromPool(false, db);
        auto s2a = c10::cuda::getStreamFromPool(false, da), s2b = c10::cuda::getStreamFromPool(false, db);
        return measure("peer_bidir_ce", p, {a, b}, [&](int64_t n) {
            {
                c10::cuda::CUDAMultiStreamGuard g({s1a, s1b});
                xb.narrow(0, 0, n).copy_(xa.narrow(0, 0, n));
            }
            {
                c10::cuda::CUDAMultiStreamGuard g({s2a, s2b});
                ya.narrow(0, 0, n).copy_(yb.narrow(0, 0, n));
            }
        }, [](int64_t n) { return 2.0 * double(n); }, sweepSizes(p));
    });
}
#else
void bidirFigure(const Plan& p, int a, int b, json& figures)
{
    if (p.wants("peer_bidir_ce"))
        figures.push_back({{"test", "peer_bidir_ce"}, {"gpu", a}, {"peer", b},
                           {"skipped", "this build measures both directions at once only with a CUDA libtorch "
                                       "(side streams); on ROCm use TransferBench (docs/bandwidth.md)"}});
}
#endif

// The collectives, one thread per GPU in one process (one NCCL/RCCL communicator), nccl-tests' definitions:
// algbw = S / t with S the whole buffer (all_gather: the output; reduce_scatter: the input; all_reduce: the
// buffer), busbw = algbw x 2(n-1)/n for all_reduce and (n-1)/n for the others.
void collectiveFigures(const Plan& p, json& figures, std::chrono::milliseconds timeout)
{
    const int n = static_cast<int>(p.gpus.size());
    const std::vector<std::string> ops {"all_reduce", "all_gather", "reduce_scatter"};
    std::vector<std::string> wanted;
    for (const auto& op : ops)
        if (p.wants(op))
            wanted.push_back(op);
    if (wanted.empty())
        return;
    for (int r = 0; r < n; ++r)
        if (p.gpus[static_cast<size_t>(r)] != r) {
            for (const auto& op : wanted)
                figures.push_back({{"test", op}, {"gpu", 0}, {"ranks", n},
                                   {"skipped", "the collectives run over GPUs 0..n-1; a GPU was left out"}});
            return;
        }
    if (n < 2 || !stackscope::trainer::ncclAvailable()) {
        for (const auto& op : wanted)
            figures.push_back({{"test", op}, {"gpu", 0}, {"ranks", n},
                               {"skipped", n < 2 ? "needs two or more GPUs" : "this build has no NCCL/RCCL process group"}});
        return;
    }
    stackscope::trainer::DistSettings s;
    s.worldSize = n;
    s.masterPort = stackscope::probe::loopbackPort();
    s.backend = "nccl";
    s.timeout = timeout;
    std::vector<json> results(static_cast<size_t>(n));
    std::vector<std::string> errors(static_cast<size_t>(n));
    const auto sizes = sweepSizes(p);
    // The ranks meet in every collective: together() runs them at the same time, each on a thread of its own.
    stackscope::TaskRunner::shared().together(static_cast<size_t>(n), [&](size_t rank) {
        const int r = static_cast<int>(rank);
        try {
            auto rs = s;
            rs.rank = r;
            rs.storeServer = r == 0;
            const torch::Device dev(torch::kCUDA, static_cast<c10::DeviceIndex>(r));
            auto group = stackscope::trainer::DistGroup::join(rs, dev);
            const auto opts = torch::TensorOptions().dtype(torch::kFloat).device(dev);
            auto big = torch::ones({p.maxBytes / 4}, opts), out = torch::empty({p.maxBytes / 4}, opts);
            json mine = json::array();
            for (const auto& op : wanted) {
                const double factor = op == "all_reduce" ? 2.0 * (n - 1) / n : double(n - 1) / n;
                // Every rank times the same batches (the collective itself keeps them in step); rank 0's figure
                // is reported, as nccl-tests reports its slowest rank's (they agree within a batch).
                auto f = measure(op, p, {r}, [&](int64_t bytes) {
                    const int64_t k = (bytes / 4) / n * n;
                    if (op == "all_reduce") {
                        auto t = big.narrow(0, 0, k);
                        group->allReduceSum(t, op);
                    } else if (op == "all_gather") {
                        auto in = big.narrow(0, 0, k / n), o = out.narrow(0, 0, k);
                        group->allGather(o, in, op);
                    } else {
                        auto in = big.narrow(0, 0, k), o = out.narrow(0, 0, k / n);
                        group->reduceScatterSum(o, in, op);
                    }
                }, [&](int64_t bytes) { return double((bytes / 4) / n * n * 4) * factor; }, sizes);
                f["gpu"] = 0;
                f["ranks"] = n;
                f["backend"] = group->backendName();
                mine.push_back(f);
            }
            results[static_cast<size_t>(r)] = mine;
        } catch (const std::exception& e) {
            errors[static_cast<size_t>(r)] = "rank " + std::to_string(r) + ": " + e.what();
        }
    });
    std::string error;
    for (const auto& e : errors)
        if (!e.empty())
            error += (error.empty() ? "" : "; ") + e;
    if (!error.empty()) {
        for (const auto& op : wanted)
            figures.push_back({{"test", op}, {"gpu", 0}, {"ranks", n}, {"error", error.substr(0, 900)}});
        return;
    }
    for (auto& f : results[0])
        figures.push_back(f);
}

json runSuite(const json& request)
{
    Plan p;
    p.gpus = request.value("gpus", std::vector<int>());
    p.tests = request.value("tests", std::vector<std::string>());
    p.minBytes = std::max<int64_t>(request.value("min_bytes", p.minBytes), 4096);
    p.maxBytes = std::max<int64_t>(request.value("max_bytes", p.maxBytes), p.minBytes);
    p.trials = std::clamp(request.value("trials", p.trials), 1, 1000);
    if (request.contains("gemm_dtypes"))
        p.gemmDtypes = request["gemm_dtypes"].get<std::vector<std::string>>();
    const auto timeout = std::chrono::milliseconds(request.value("collective_timeout_ms", 30000));
    json skipped = request.value("skip", json::object());
    const int count = static_cast<int>(torch::cuda::device_count());
    if (p.gpus.empty())
        for (int g = 0; g < count; ++g)
            p.gpus.push_back(g);
    json figures = json::array();
    hostFigures(p, figures);
    std::vector<int> usable;
    for (int g : p.gpus) {
        if (g < 0 || g >= count) {
            figures.push_back({{"test", "d2d"}, {"gpu", g}, {"error", "libtorch sees " + std::to_string(count) + " GPUs"}});
            continue;
        }
        if (skipped.contains(std::to_string(g))) {
            figures.push_back({{"test", "d2d"}, {"gpu", g}, {"skipped", skipped[std::to_string(g)]}});
            continue;
        }
        usable.push_back(g);
        hostLinkFigures(p, g, figures);
        memoryFigures(p, g, figures);
        gemmFigures(p, g, figures);
    }
    for (int a : usable)
        for (int b : usable)
            if (a != b) {
                peerFigures(p, a, b, figures);
                if (a < b)
                    bidirFigure(p, a, b, figures);
            }
    Plan cp = p;
    cp.gpus = usable;
    if (usable.size() == p.gpus.size())
        collectiveFigures(cp, figures, timeout);
    else
        for (const char* op : {"all_reduce", "all_gather", "reduce_scatter"})
            if (p.wants(op))
                figures.push_back({{"test", op}, {"gpu", 0}, {"ranks", static_cast<int>(p.gpus.size())},
                                   {"skipped", "a GPU of the group was left out (above)"}});
    return {{"figures", figures}, {"torch_version", TORCH_VERSION}, {"gpu_count", count}};
}

} // namespace

extern "C" int stackscope_torch_perf_abi(void)
{
    return STACKSCOPE_TORCH_PERF_ABI;
}

extern "C" char* stackscope_torch_run_perf(const char* request_json)
{
    try {
        return stackscope::torchmodule::mallocCopy(runSuite(json::parse(request_json ? request_json : "{}")).dump());
    } catch (const std::exception& e) {
        return stackscope::torchmodule::mallocCopy(json {{"error", std::string("the suite failed: ") + e.what()}}.dump());
    }
}
