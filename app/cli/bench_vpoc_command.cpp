// `stackscope-cli bench vpoc`: GPU profile build vs the device's D2D copy bandwidth, and the CPU on 1 and all threads.
#include "app/cli/command.h"

#include "core/vpoc/gpu_profiles.h"
#include "core/vpoc/synthetic_batch.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <iostream>
#include <thread>

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

void addBenchVpoc(CLI::App& bench, CommandContext& ctx)
{
    auto* cmd = bench.add_subcommand("vpoc", "VPOC profile build: GPU (GB/s vs D2D copy), CPU 1 and all threads");
    struct Options {
        unsigned log2 = 27;
        uint32_t sessions = 64;
        uint64_t budget = 4096;
        int repeats = 5;
        bool json = false;
        bool skipGpu = false;
    };
    auto o = std::make_shared<Options>();
    cmd->add_option("--trades-log2", o->log2, "log2 of the number of trades (default 27)")->check(CLI::Range(10, 31));
    cmd->add_option("--sessions", o->sessions, "Sessions the trades are spread over");
    cmd->add_option("--vram-budget", o->budget, "GPU memory in MiB (must hold the whole input for the resident timing)");
    cmd->add_option("--repeats", o->repeats, "Timed runs (the best is kept)");
    cmd->add_flag("--json", o->json, "Print the figures as JSON");
    cmd->add_flag("--no-gpu", o->skipGpu, "CPU figures only");
    cmd->callback([o, &ctx] {
        const uint64_t n = 1ull << o->log2;
        const auto batch = vpoc::syntheticBatch(n, o->sessions, false, 1);
        vpoc::ProfileOptions po;
        nlohmann::json j;
        j["trades"] = n;
        j["sessions"] = o->sessions;
        j["input_bytes"] = n * 8; // int32 tick offset + uint32 size per trade
        const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
        std::vector<vpoc::SessionResult> cpu;
        const double cpu1 = bestSeconds(o->repeats, [&] { cpu = vpoc::computeBatchCpu(batch, po, 1); });
        const double cpuAll = bestSeconds(o->repeats, [&] { cpu = vpoc::computeBatchCpu(batch, po, hw); });
        j["cpu"] = {{"threads_all", hw}, {"seconds_1", cpu1}, {"seconds_all", cpuAll}, {"speedup", cpu1 / cpuAll},
                    {"gb_per_s_1", n * 8 / cpu1 / 1e9}, {"gb_per_s_all", n * 8 / cpuAll / 1e9}};
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
                const double gbps = n * 8 / (ms / 1000.0);
                j["gpu"] = {{"vendor", gpu->vendor()},
                            {"device", gpu->deviceName()},
                            {"ms", ms},
                            {"gb_per_s", gbps / 1e9},
                            {"d2d_copy_gb_per_s", copy / 1e9},
                            {"fraction_of_copy", gbps / copy},
                            {"matches_cpu", same}};
                if (!same)
                    ctx.exitCode = ExitCheckFailed;
            }
        }
        j["libtorch"] = "not measured by this command yet (index_add_/bincount comparison left to the torch module)";
        if (o->json) {
            std::cout << j.dump(2) << "\n";
        } else {
            std::cout << fmt::format("VPOC bench: {} trades in {} sessions ({:.2f} GB of input)\n", n, o->sessions,
                                     n * 8 / 1e9);
            std::cout << fmt::format("  CPU 1 thread   {:.3f} s  {:.2f} GB/s\n", cpu1, n * 8 / cpu1 / 1e9);
            std::cout << fmt::format("  CPU {} threads {:.3f} s  {:.2f} GB/s  speedup {:.2f}x\n", hw, cpuAll,
                                     n * 8 / cpuAll / 1e9, cpu1 / cpuAll);
            if (j.contains("gpu"))
                std::cout << "  GPU " << j["gpu"].dump() << "\n";
        }
    });
}

const BenchRegistration registration {"vpoc", 20, &addBenchVpoc};

} // namespace

} // namespace stackscope::cli
