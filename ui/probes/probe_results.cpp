// Outcome counts per grid column for the Probes page's chart.
#include "ui/probes/probe_results.h"

#include <algorithm>
#include <filesystem>

namespace stackscope::ui {

void OutcomeCounts::add(const ProbeRecord& r)
{
    const ProbeColumnKey key = columnKeyOf(r);
    auto it = std::find(columns.begin(), columns.end(), key);
    if (it == columns.end()) {
        columns.push_back(key);
        counts.push_back({});
        it = columns.end() - 1;
    }
    const auto col = static_cast<std::size_t>(it - columns.begin());
    for (std::size_t i = 0; i < kShown.size(); ++i) {
        if (kShown[i] == r.outcome.outcome)
            ++counts[col][i];
    }
}

int OutcomeCounts::count(std::size_t column, ProbeResult r) const
{
    if (column >= counts.size())
        return 0;
    for (std::size_t i = 0; i < kShown.size(); ++i) {
        if (kShown[i] == r)
            return counts[column][i];
    }
    return 0;
}

int OutcomeCounts::maxTotal() const
{
    int best = 0;
    for (const auto& c : counts) {
        int total = 0;
        for (int v : c)
            total += v;
        best = std::max(best, total);
    }
    return best;
}

ProbeColumnKey columnKeyOf(const ProbeRecord& r)
{
    return {r.outcome.variant, r.outcome.device, r.outcome.environment};
}

std::string environmentShortName(const std::string& environment)
{
    const std::string prefix = "python:";
    if (environment.compare(0, prefix.size(), prefix) != 0)
        return environment;
    const std::filesystem::path interpreter(environment.substr(prefix.size()));
    const auto bin = interpreter.parent_path();
    const auto env = bin.parent_path().filename().string();
    if (bin.filename() != "bin" || env.empty() || env == "usr" || env == "local" || env == "/")
        return interpreter.string();
    return env;
}

std::string columnLabel(const ProbeColumnKey& key, bool withEnvironment)
{
    std::string out = key.device == "cpu" ? "cpu" : "gpu " + key.device;
    if (withEnvironment)
        out = environmentShortName(key.environment) + " \u00b7 " + out;
    if (key.variant != "baseline")
        out += " \u00b7 " + key.variant;
    return out;
}

} // namespace stackscope::ui
