// `stackscope-cli bench vpoc`: GPU profile build vs the device's D2D copy bandwidth and vs libtorch, and the CPU on N threads.
#include "app/cli/command.h"

#include "core/torch/vpoc_torch_api.h"
#include "core/util/program_paths.h"
#include "core/vpoc/gpu_profiles.h"
#include "core/vpoc/synthetic_batch.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <iostream>
#include <thread>
#include <type_traits>

namespace stackscope::cli {

namespace {

template <typename F>
double bestSeconds(int repeats, F&& f)
{
    double best = 1e300;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

// The libtorch baseline lives in libstackscope_torch.so, opened at run time like every torch use, so that the
// CLI starts (and the CPU/GPU figures are measured) where libtorch is missing or broken.
struct TorchVpoc {
    decltype(&stackscope_torch_vpoc_profiles) profiles = nullptr;
    std::string path;
};

bool openTorchVpoc(TorchVpoc& out, std::string& why)
{
    std::vector<std::string> candidates;
    if (const char* p = std::getenv("STACKSCOPE_TORCH_MODULE"); p && *p)
        candidates.push_back(p);
    else
        for (const auto& dir : moduleDirectories())
            candidates.push_back(dir + "/libstackscope_torch.so");
    std::vector<std::string> reasons;
    for (const auto& path : candidates) {
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) {
            reasons.push_back(path + ": not there");
            continue;
        }
        // Kept open for the life of the process: libtorch is not safe to unload.
        void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char* e = ::dlerror();
            reasons.push_back(fmt::format("{}: {}", path, e ? e : "cannot be loaded"));
            continue;
        }
        auto abi = reinterpret_cast<decltype(&stackscope_torch_vpoc_abi)>(::dlsym(h, "stackscope_torch_vpoc_abi"));
        auto fn =
            reinterpret_cast<decltype(&stackscope_torch_vpoc_profiles)>(::dlsym(h, "stackscope_torch_vpoc_profiles"));
        if (!abi || !fn) {
            reasons.push_back(path + ": has no VPOC baseline (an older build); rebuild target stackscope_torch");
            continue;
        }
        if (abi() != STACKSCOPE_TORCH_VPOC_ABI) {
            reasons.push_back(fmt::format("{}: VPOC baseline ABI {} but this program needs {}; rebuild StackScope",
                                          path, abi(), STACKSCOPE_TORCH_VPOC_ABI));
            continue;
        }
        out.profiles = fn;
        out.path = path;
        return true;
    }
    why = fmt::format("no usable libstackscope_torch.so ({}); build StackScope with libtorch (CMAKE_PREFIX_PATH)",
                      fmt::join(reasons, "; "));
    return false;
}

std::vector<unsigned> parseThreads(const std::string& list, unsigned hw)
{
    std::vector<unsigned> out;
    size_t pos = 0;
    while (pos <= list.size()) {
        const size_t comma = std::min(list.find(',', pos), list.size());
        const std::string item = list.substr(pos, comma - pos);
        if (item == "all") {
            out.push_back(hw);
        } else {
            char* end = nullptr;
            const unsigned long v = std::strtoul(item.c_str(), &end, 10);
            if (item.empty() || *end != '\0' || v == 0 || v > 4096)
                throw UsageError(fmt::format("--threads: '{}' is not a thread count; give a list such as 1,2,all",
                                             item));
            out.push_back(static_cast<unsigned>(v));
        }
        pos = comma + 1;
    }
    // "all" may equal a count already listed (2 on a 2-core machine): time each count once.
    std::vector<unsigned> unique;
    for (unsigned t : out)
        if (std::find(unique.begin(), unique.end(), t) == unique.end())
            unique.push_back(t);
    return unique;
}

void addBenchVpoc(CLI::App& bench, CommandContext& ctx)
{
    auto* cmd = bench.add_subcommand(
        "vpoc", "VPOC profile build: GPU (GB/s vs D2D copy and vs libtorch), CPU on 1, 2 and all threads");
    struct Options {
        unsigned log2 = 27;
        uint32_t sessions = 64;
        uint64_t budget = 4096;
        int repeats = 5;
        std::string threads = "1,2,all";
        std::string torchDevice = "cuda";
        bool json = false;
        bool skipGpu = false;
        bool skipTorch = false;
    };
    auto o = std::make_shared<Options>();
    cmd->add_option("--trades-log2", o->log2, "log2 of the number of trades (default 27)")->check(CLI::Range(10, 31));
    cmd->add_option("--sessions", o->sessions, "Sessions the trades are spread over")->check(CLI::Range(1, 65536));
    cmd->add_option("--vram-budget", o->budget, "GPU memory in MiB (must hold the whole input for the resident timing)");
    cmd->add_option("--repeats", o->repeats, "Timed runs (the best is kept)")->check(CLI::Range(1, 1000));
    cmd->add_option("--threads", o->threads, "CPU thread counts to time, comma-separated ('all' = every hardware thread)");
    cmd->add_option("--torch-device", o->torchDevice, "Device of the libtorch baseline")
        ->check(CLI::IsMember({"cuda", "cpu"}));
    cmd->add_flag("--json", o->json, "Print the figures as JSON");
    cmd->add_flag("--no-gpu", o->skipGpu, "No StackScope GPU figures");
    cmd->add_flag("--no-torch", o->skipTorch, "No libtorch baseline");
    cmd->callback([o, &ctx] {
        const uint64_t n = 1ull << o->log2;
        const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
        const auto threadCounts = parseThreads(o->threads, hw);
        const auto batch = vpoc::syntheticBatch(n, o->sessions, false, 1);
        const double bytes = static_cast<double>(n) * 8; // int32 level offset + uint32 size per trade, read once
        vpoc::ProfileOptions po;
        nlohmann::json j;
        j["trades"] = n;
        j["sessions"] = o->sessions;
        j["input_bytes"] = n * 8;

        // CPU: the same batch on each thread count, best of --repeats; 1 -> 2 is the scaling goal. The thread
        // counts take turns (1, 2, all, 1, 2, all, ...) so that frequency drift and noisy neighbours on a shared
        // machine hit every count alike instead of whichever happened to be timed first.
        std::vector<vpoc::SessionResult> cpu;
        std::map<unsigned, double> seconds;
        for (int r = 0; r < o->repeats; ++r)
            for (unsigned t : threadCounts) {
                const double s = bestSeconds(1, [&] { cpu = vpoc::computeBatchCpu(batch, po, t); });
                seconds[t] = r == 0 ? s : std::min(seconds[t], s);
            }
        nlohmann::json runs = nlohmann::json::array();
        for (unsigned t : threadCounts)
            runs.push_back({{"threads", t}, {"seconds", seconds[t]}, {"gb_per_s", bytes / seconds[t] / 1e9}});
        j["cpu"] = {{"hardware_threads", hw}, {"runs", runs}};
        if (seconds.count(1) && seconds.count(2))
            j["cpu"]["speedup_1_to_2"] = seconds[1] / seconds[2];
        if (seconds.count(1) && seconds.count(hw))
            j["cpu"]["speedup_1_to_all"] = seconds[1] / seconds[hw];

        double gpuGbps = 0;
        if (!o->skipGpu) {
            std::string why;
            auto gpu = vpoc::GpuProfiler::open(o->budget << 20, why);
            if (!gpu) {
                j["gpu"] = {{"error", why}};
            } else {
                const auto g = gpu->compute(batch, po); // also loads the input: it stays resident for the timing
                bool same = g.size() == cpu.size();
                for (size_t i = 0; same && i < g.size(); ++i)
                    same = g[i].pocTick == cpu[i].pocTick && g[i].vahTick == cpu[i].vahTick
                        && g[i].valTick == cpu[i].valTick && g[i].volume == cpu[i].volume;
                const double ms = gpu->timeResidentMs(o->repeats * 4);
                const double copy = gpu->copyBandwidth(n * 8);
                gpuGbps = bytes / (ms / 1000.0) / 1e9;
                j["gpu"] = {{"vendor", gpu->vendor()},
                            {"device", gpu->deviceName()},
                            {"module", gpu->modulePath()},
                            {"ms", ms},
                            {"gb_per_s", gpuGbps},
                            {"d2d_copy_gb_per_s", copy / 1e9},
                            {"fraction_of_copy", gpuGbps * 1e9 / copy},
                            {"matches_cpu", same}};
                if (!same)
                    ctx.exitCode = ExitCheckFailed;
            }
        }

        if (!o->skipTorch) {
            TorchVpoc torch;
            std::string why;
            if (!openTorchVpoc(torch, why)) {
                j["libtorch"] = {{"error", why}};
            } else {
                // The same sessions laid end to end, and the CPU's profiles to check libtorch's against.
                std::vector<StackscopeTorchVpocSession> table;
                uint64_t levels = 0;
                for (const auto& s : batch.sessions) {
                    table.push_back({s.elemBegin, s.elemEnd, static_cast<int64_t>(levels), s.width, 0});
                    levels += static_cast<uint64_t>(s.width);
                }
                vpoc::ProfileOptions keep = po;
                keep.keepProfiles = true;
                std::vector<uint64_t> expected;
                expected.reserve(levels);
                for (const auto& r : vpoc::computeBatchCpu(batch, keep, 0))
                    expected.insert(expected.end(), r.profile.begin(), r.profile.end());
                j["libtorch"] = {{"module", torch.path}, {"device", o->torchDevice}};
                double bestTorch = 0;
                for (auto [name, method] : {std::pair {"index_add_", STACKSCOPE_TORCH_VPOC_INDEX_ADD},
                                            std::pair {"bincount", STACKSCOPE_TORCH_VPOC_BINCOUNT}}) {
                    std::vector<uint64_t> got(levels, 0);
                    double ms = 0;
                    char err[1024] = {0};
                    if (torch.profiles(o->torchDevice.c_str(), method, batch.offset.data(), batch.volume.data(), n,
                                       table.data(), static_cast<uint32_t>(table.size()), levels, o->repeats, &ms,
                                       got.data(), err, sizeof err)
                        != 0) {
                        j["libtorch"][name] = {{"error", err}};
                        continue;
                    }
                    const double gbps = bytes / (ms / 1000.0) / 1e9;
                    const bool same = got == expected;
                    j["libtorch"][name] = {{"ms", ms}, {"gb_per_s", gbps}, {"matches_cpu", same}};
                    if (!same)
                        ctx.exitCode = ExitCheckFailed;
                    bestTorch = std::max(bestTorch, gbps);
                }
                if (bestTorch > 0) {
                    j["libtorch"]["best_gb_per_s"] = bestTorch;
                    if (gpuGbps > 0)
                        j["gpu_over_libtorch"] = gpuGbps / bestTorch;
                }
            }
        }

        if (o->json) {
            std::cout << j.dump(2) << "\n";
            return;
        }
        std::cout << fmt::format("VPOC bench: {} trades in {} sessions ({:.2f} GB of input)\n", n, o->sessions,
                                 bytes / 1e9);
        for (const auto& r : j["cpu"]["runs"])
            std::cout << fmt::format("  CPU {:>3} threads  {:.3f} s  {:.2f} GB/s\n", r["threads"].get<unsigned>(),
                                     r["seconds"].get<double>(), r["gb_per_s"].get<double>());
        if (j["cpu"].contains("speedup_1_to_2"))
            std::cout << fmt::format("  CPU speedup 1 -> 2 threads {:.2f}x\n", j["cpu"]["speedup_1_to_2"].get<double>());
        if (j.contains("gpu"))
            std::cout << "  GPU " << j["gpu"].dump() << "\n";
        if (j.contains("libtorch"))
            std::cout << "  libtorch " << j["libtorch"].dump() << "\n";
        if (j.contains("gpu_over_libtorch"))
            std::cout << fmt::format("  GPU / libtorch {:.2f}x\n", j["gpu_over_libtorch"].get<double>());
    });
}

const BenchRegistration registration {"vpoc", 20, &addBenchVpoc};

} // namespace

} // namespace stackscope::cli
