// A few telemetry readings taken on the caller's thread and reduced to min/max/mean/last per quantity.
#include "core/report/telemetry_summary.h"

#include "core/telemetry/sampler.h"
#include "core/telemetry/telemetry_sources.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <thread>

namespace stackscope::report {

nlohmann::json sampleTelemetrySummary(int readings, std::chrono::milliseconds interval)
{
    using namespace stackscope::telemetry;
    readings = std::clamp(readings, 1, 100);
    TelemetrySampler sampler(defaultTelemetrySources(), std::make_shared<TelemetryStore>());
    struct Stats {
        double min = 0, max = 0, sum = 0, last = 0;
        int n = 0;
    };
    struct Gpu {
        std::string vendor, name;
        int index = 0;
        std::map<Quantity, Stats> stats;
        std::map<Quantity, std::string> missing;
    };
    std::map<std::string, Gpu> gpus;
    std::vector<SourceStatus> sources;
    for (int i = 0; i < readings; ++i) {
        if (i > 0)
            std::this_thread::sleep_for(interval);
        const auto sample = sampler.sampleOnce();
        sources = sample.sources;
        for (const auto& g : sample.gpus) {
            auto& gpu = gpus[gpuId(g)];
            gpu.vendor = g.vendor;
            gpu.name = g.name;
            gpu.index = g.index;
            for (auto q : kAllQuantities) {
                const auto& r = g.at(q);
                if (!r.present()) {
                    gpu.missing[q] = fmt::format("{}: {}", missingReasonKey(r.reason), r.detail);
                    continue;
                }
                auto& s = gpu.stats[q];
                const double v = *r.value;
                s.min = s.n ? std::min(s.min, v) : v;
                s.max = s.n ? std::max(s.max, v) : v;
                s.sum += v;
                s.last = v;
                ++s.n;
            }
        }
    }
    auto sourcesJson = nlohmann::json::array();
    std::string reasons;
    for (const auto& s : sources) {
        sourcesJson.push_back({{"source", s.source}, {"available", s.available}, {"detail", s.detail}});
        if (!s.available)
            reasons += fmt::format("{}{}: {}", reasons.empty() ? "" : "; ", s.source, s.detail);
    }
    bool anyValue = false;
    auto gpusJson = nlohmann::json::array();
    for (const auto& [id, g] : gpus) {
        nlohmann::json quantities = nlohmann::json::object();
        for (const auto& [q, s] : g.stats) {
            anyValue = true;
            quantities[quantityKey(q)] = {{"unit", quantityUnit(q)}, {"min", s.min},   {"max", s.max},
                                          {"mean", s.sum / s.n},     {"last", s.last}, {"readings", s.n}};
        }
        nlohmann::json missing = nlohmann::json::object();
        for (const auto& [q, why] : g.missing) {
            if (!g.stats.count(q))
                missing[quantityKey(q)] = why;
        }
        gpusJson.push_back({{"id", id}, {"vendor", g.vendor}, {"index", g.index}, {"name", g.name},
                            {"quantities", quantities}, {"missing", missing}});
    }
    if (!anyValue) {
        return {{"available", false},
                {"reason", reasons.empty() ? std::string("no GPU reported by NVML or rocm_smi") : reasons},
                {"sources", sourcesJson}};
    }
    return {{"available", true}, {"readings", readings}, {"interval_ms", interval.count()},
            {"sources", sourcesJson}, {"gpus", gpusJson}};
}

} // namespace stackscope::report
