// Outcome counts per grid column for the Probes page's chart.
#include "ui/probes/probe_results.h"

#include <algorithm>

namespace stackscope::ui {

void OutcomeCounts::add(const ProbeRecord& r)
{
    const ProbeColumnKey key {r.outcome.variant, r.outcome.device};
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

std::string columnLabel(const ProbeColumnKey& key)
{
    std::string out = key.device == "cpu" ? "cpu" : "gpu " + key.device;
    if (key.variant != "baseline")
        out += " \u00b7 " + key.variant;
    return out;
}

} // namespace stackscope::ui
