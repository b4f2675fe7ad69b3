// `stackscope-cli bench vpoc`: GPU profile build vs the device's D2D copy bandwidth and vs libtorch, and the CPU on N threads.
#include "app/cli/command.h"

#include "core/runtime/vpoc_torch_api.h"
#include "core/runtime/torch_module.h"
#include "core/vpoc/gpu_profiles.h"
#include "core/vpoc/synthetic_batch.h"
#include "core/util/task_runner.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <cstdlib>
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

// The libtorch baseline lives in libstackscope_torch.so, opened at run time like every torch use (openTorchModule),
// so that the CLI starts (and the CPU/GPU figures are measured) where libtorch is missing or broken.
struct TorchVpoc {
    decltype(&stackscope_torch_vpoc_profiles) profiles = nullptr;
    std::string path;
};

bool openTorchVpoc(TorchVpoc& out, std::string& why)
{
    const auto lib = openTorchModule("stackscope_torch_vpoc_abi", STACKSCOPE_TORCH_VPOC_ABI, "the VPOC baseline", why);
    if (!why.empty())
        return false;
    out.profiles = lib.symbol<decltype(&stackscope_torch_vpoc_profiles)>("stackscope_torch_vpoc_profiles");
    out.path = lib.loadedPath();
    if (!out.profiles)
        why = out.path + ": has no VPOC baseline (stackscope_torch_vpoc_profiles is missing); rebuild target stackscope_torch";
    return out.profiles != nullptr;
}

// A count above the machine's `hw` threads is capped at it and `note` says so (more would only queue, and tens of
// thousands abort thread creation); a count that is not a whole number above 0 is a usage error.
std::vector<unsigned> parseThreads(const std::string& list, unsigned hw, std::string& note)
{
    std::vector<unsigned> out;
    size_t pos = 0;
    while (pos <= list.size()) {
        const size_t comma = std::min(list.find(',', pos), list.size());
        const std::string item = list.substr(pos, comma - pos);
        if (item == "all") {
            out.push_back(hw);
        } else {
            // Digits only (strtoul would take "-1" as 2^64 - 1); any length, compared without overflow.
            const size_t digits = item.find_first_not_of('0');
            if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
                digits == std::string::npos)
                throw UsageError(fmt::format("--threads: '{}' is not a thread count; give a list such as 1,2,all",
                                             item));
            const std::string value = item.substr(digits);
            const bool over = value.size() > 9 || std::stoul(value) > hw;
            if (over)
                note = fmt::format("--threads {}: capped at {}, the hardware threads of this machine (more would only "
                                   "queue for the same cores); give at most {}, or all",
                                   item, hw, hw);
            out.push_back(over ? hw : static_cast<unsigned>(std::stoul(value)));
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

struct BenchVpocOptions {
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

// The same batch on each thread count, best of `repeats`. The counts take turns (1, 2, all, 1, 2, all, ...) so
// that frequency drift and noisy neighbours on a shared machine hit every count alike.
nlohmann::json timeCpu(const vpoc::ProfileBatch& batch, const std::vector<unsigned>& threadCounts, unsigned hw,
                       int repeats, double bytes, std::vector<vpoc::SessionResult>& cpu)
{
    std::map<unsigned, double> seconds;
    for (int r = 0; r < repeats; ++r)
        for (unsigned t : threadCounts) {
            const double s = bestSeconds(1, [&] { cpu = vpoc::computeBatchCpu(batch.view(), vpoc::ProfileOptions {}, t); });
            seconds[t] = r == 0 ? s : std::min(seconds[t], s);
        }
    nlohmann::json runs = nlohmann::json::array();
    for (unsigned t : threadCounts)
        runs.push_back({{"threads", t}, {"seconds", seconds[t]}, {"gb_per_s", bytes / seconds[t] / 1e9}});
    nlohmann::json j = {{"hardware_threads", hw}, {"runs", runs}};
    if (seconds.count(1) && seconds.count(2))
        j["speedup_1_to_2"] = seconds[1] / seconds[2];
    if (seconds.count(1) && seconds.count(hw))
        j["speedup_1_to_all"] = seconds[1] / seconds[hw];
    return j;
}

// StackScope's kernel on the resident input against the device's copy bandwidth; `matches` says whether every
// session equals the CPU's.
nlohmann::json timeGpu(const BenchVpocOptions& o, const vpoc::ProfileBatch& batch,
                       const std::vector<vpoc::SessionResult>& cpu, double bytes, bool& matches)
{
    std::string why;
    auto gpu = vpoc::GpuProfiler::open(o.budget << 20, why);
    if (!gpu)
        return {{"error", why}};
    const auto g = gpu->compute(batch.view(), vpoc::ProfileOptions {}); // also loads the input: it stays resident
    matches = g.size() == cpu.size();
    for (size_t i = 0; matches && i < g.size(); ++i)
        matches = g[i].pocTick == cpu[i].pocTick && g[i].vahTick == cpu[i].vahTick && g[i].valTick == cpu[i].valTick
            && g[i].volume == cpu[i].volume;
    const double ms = gpu->timeResidentMs(o.repeats * 4);
    const double copy = gpu->copyBandwidth((1ull << o.log2) * 8);
    const double gbps = bytes / (ms / 1000.0) / 1e9;
    return {{"vendor", gpu->vendor()},   {"device", gpu->deviceName()}, {"module", gpu->modulePath()},
            {"ms", ms},                  {"gb_per_s", gbps},            {"d2d_copy_gb_per_s", copy / 1e9},
            {"fraction_of_copy", gbps * 1e9 / copy}, {"matches_cpu", matches}};
}

// libtorch's index_add_ and bincount on the same sessions laid end to end, each checked against the CPU's profiles.
nlohmann::json timeTorch(const BenchVpocOptions& o, const vpoc::ProfileBatch& batch, double bytes, bool& matches)
{
    TorchVpoc torch;
    std::string why;
    if (!openTorchVpoc(torch, why))
        return {{"error", why}};
    std::vector<StackscopeTorchVpocSession> table;
    uint64_t levels = 0;
    for (const auto& s : batch.sessions) {
        table.push_back({s.elemBegin, s.elemEnd, static_cast<int64_t>(levels), s.width, 0});
        levels += static_cast<uint64_t>(s.width);
    }
    vpoc::ProfileOptions keep;
    keep.keepProfiles = true;
    std::vector<uint64_t> expected;
    expected.reserve(levels);
    for (const auto& r : vpoc::computeBatchCpu(batch.view(), keep, 0))
        expected.insert(expected.end(), r.profile.begin(), r.profile.end());
    nlohmann::json j = {{"module", torch.path}, {"device", o.torchDevice}};
    const uint64_t n = 1ull << o.log2;
    double best = 0;
    for (auto [name, method] : {std::pair {"index_add_", STACKSCOPE_TORCH_VPOC_INDEX_ADD},
                                std::pair {"bincount", STACKSCOPE_TORCH_VPOC_BINCOUNT}}) {
        std::vector<uint64_t> got(levels, 0);
        double ms = 0;
        char err[1024] = {0};
        if (torch.profiles(o.torchDevice.c_str(), method, batch.offset.data(), batch.volume.data(), n, table.data(),
                           static_cast<uint32_t>(table.size()), levels, o.repeats, &ms, got.data(), err, sizeof err)
            != 0) {
            j[name] = {{"error", err}};
            continue;
        }
        const double gbps = bytes / (ms / 1000.0) / 1e9;
        const bool same = got == expected;
        matches = matches && same;
        j[name] = {{"ms", ms}, {"gb_per_s", gbps}, {"matches_cpu", same}};
        best = std::max(best, gbps);
    }
    if (best > 0)
        j["best_gb_per_s"] = best;
    return j;
}

void printBenchVpoc(const nlohmann::json& j, uint32_t sessions, double bytes)
{
    std::cout << fmt::format("VPOC bench: {} trades in {} sessions ({:.2f} GB of input)\n", j["trades"].get<uint64_t>(),
                             sessions, bytes / 1e9);
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
}

// The whole bench; returns the exit code (a GPU or libtorch profile that differs from the CPU's fails it).
int benchVpocNow(const BenchVpocOptions& o)
{
    const uint64_t n = 1ull << o.log2;
    const unsigned hw = usableThreads();
    std::string threadsNote;
    const auto threadCounts = parseThreads(o.threads, hw, threadsNote);
    if (!threadsNote.empty())
        std::cerr << "note: " << threadsNote << "\n";
    const auto batch = vpoc::syntheticBatch(n, o.sessions, false, 1);
    const double bytes = static_cast<double>(n) * 8; // int32 level offset + uint32 size per trade, read once
    nlohmann::json j = {{"trades", n}, {"sessions", o.sessions}, {"input_bytes", n * 8}};
    if (!threadsNote.empty())
        j["threads_note"] = threadsNote;
    std::vector<vpoc::SessionResult> cpu;
    j["cpu"] = timeCpu(batch, threadCounts, hw, o.repeats, bytes, cpu);
    bool matches = true;
    if (!o.skipGpu)
        j["gpu"] = timeGpu(o, batch, cpu, bytes, matches);
    if (!o.skipTorch)
        j["libtorch"] = timeTorch(o, batch, bytes, matches);
    if (j.contains("gpu") && j["gpu"].contains("gb_per_s") && j.contains("libtorch") && j["libtorch"].contains("best_gb_per_s"))
        j["gpu_over_libtorch"] = j["gpu"]["gb_per_s"].get<double>() / j["libtorch"]["best_gb_per_s"].get<double>();
    if (o.json)
        std::cout << j.dump(2) << "\n";
    else
        printBenchVpoc(j, o.sessions, bytes);
    return matches ? ExitOk : ExitCheckFailed;
}

void addBenchVpoc(CLI::App& bench, CommandContext& ctx)
{
    auto* cmd = bench.add_subcommand(
        "vpoc", "VPOC profile build: GPU (GB/s vs D2D copy and vs libtorch), CPU on 1, 2 and all threads");
    auto o = std::make_shared<BenchVpocOptions>();
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
    cmd->callback([o, &ctx] { ctx.exitCode = benchVpocNow(*o); });
}

const BenchRegistration registration {"vpoc", 20, &addBenchVpoc};

} // namespace

} // namespace stackscope::cli
