// `stackscope-cli monitor`: samples GPU telemetry (NVML, rocm_smi) and prints one line per sample.
#include "app/cli/command.h"

#include "core/telemetry/sampler.h"
#include "core/telemetry/telemetry_output.h"

#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <thread>

namespace stackscope::cli {

namespace {

using namespace stackscope::telemetry;

std::string formatValue(Quantity q, const Reading& r)
{
    if (!r.present())
        return fmt::format("n/a ({})", missingReasonKey(r.reason));
    const double v = *r.value;
    if (std::string(quantityUnit(q)) == "B")
        return fmt::format("{:.2f} GiB", v / double(1ULL << 30));
    return fmt::format("{:.0f} {}", v, quantityUnit(q));
}

void printText(const TelemetrySample& s, bool first)
{
    if (first) {
        for (const auto& src : s.sources) {
            std::cout << fmt::format("# {}: {}\n", src.source,
                                     src.available ? "loaded " + src.detail : std::string(missingReasonKey(src.reason)) +
                                                                                  ": " + src.detail);
        }
        if (s.gpus.empty())
            std::cout << "# no GPU visible to NVML or rocm_smi\n";
    }
    if (s.gpus.empty()) {
        std::cout << fmt::format("{}  no GPUs\n", isoTimeUtc(s.timeMs));
        return;
    }
    for (const auto& g : s.gpus) {
        std::cout << fmt::format("{}  {}:{} {}  VRAM {} / {}  util {}  temp {}  power {}  sm {}  mem {}\n",
                                 isoTimeUtc(s.timeMs), g.vendor, g.index, g.name,
                                 formatValue(Quantity::VramUsed, g.at(Quantity::VramUsed)),
                                 formatValue(Quantity::VramTotal, g.at(Quantity::VramTotal)),
                                 formatValue(Quantity::Utilisation, g.at(Quantity::Utilisation)),
                                 formatValue(Quantity::Temperature, g.at(Quantity::Temperature)),
                                 formatValue(Quantity::Power, g.at(Quantity::Power)),
                                 formatValue(Quantity::SmClock, g.at(Quantity::SmClock)),
                                 formatValue(Quantity::MemoryClock, g.at(Quantity::MemoryClock)));
    }
}

void addMonitorCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand("monitor", "Sample GPU VRAM, utilisation, temperature, power and clocks "
                                              "(NVML / rocm_smi) and print one line per sample");
    struct Options {
        int intervalMs = TelemetrySampler::kDefaultIntervalMs;
        long long count = 0;
        bool json = false;
    };
    auto opts = std::make_shared<Options>();
    cmd->add_option("--interval", opts->intervalMs,
                    fmt::format("Milliseconds between samples, {}-{} (1-20 Hz)", TelemetrySampler::kMinIntervalMs,
                                TelemetrySampler::kMaxIntervalMs))
        ->capture_default_str();
    cmd->add_option("--count", opts->count, "Stop after N samples (0: run until interrupted)")->capture_default_str();
    cmd->add_flag("--json", opts->json,
                  "One JSON object per line: time, per-GPU readings with source, or null with the reason "
                  "(not_supported, library_not_loaded, permission, not_reported, failed)");
    cmd->callback([opts, &ctx] {
        if (opts->intervalMs < TelemetrySampler::kMinIntervalMs || opts->intervalMs > TelemetrySampler::kMaxIntervalMs)
            throw UsageError(fmt::format("--interval {}: give {}-{} milliseconds (1-20 samples a second)",
                                         opts->intervalMs, TelemetrySampler::kMinIntervalMs,
                                         TelemetrySampler::kMaxIntervalMs));
        if (opts->count < 0)
            throw UsageError(fmt::format("--count {}: give a number of samples >= 0 (0 runs until interrupted)",
                                         opts->count));
        // The sampler's thread is not needed here: the command samples on its own schedule and prints
        // each sample as it is taken (the store would only buffer what is printed at once).
        TelemetrySampler sampler(defaultTelemetrySources(), std::make_shared<TelemetryStore>());
        using clock = std::chrono::steady_clock;
        auto next = clock::now();
        for (long long i = 0; opts->count == 0 || i < opts->count; ++i) {
            if (i > 0) {
                next += std::chrono::milliseconds(opts->intervalMs);
                std::this_thread::sleep_until(next);
            }
            const TelemetrySample s = sampler.sampleOnce();
            if (opts->json)
                std::cout << sampleToJson(s).dump() << "\n";
            else
                printText(s, i == 0);
            std::cout.flush();
        }
        ctx.exitCode = ExitOk;
    });
}

const CommandRegistration registration {"monitor", 55, &addMonitorCommand};

} // namespace

} // namespace stackscope::cli
