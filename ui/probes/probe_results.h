// The probe results of one session as plain data: the grid's axes, the outcome counts for the chart.
#pragma once

#include "core/probes/probe_runner.h"

#include <array>
#include <string>
#include <vector>

namespace stackscope::ui {

// A column of the grid: one device under one environment variant, in one PyTorch ("libtorch" or "python:" + path).
struct ProbeColumnKey {
    std::string variant;
    std::string device;
    std::string environment = "libtorch";
    bool operator==(const ProbeColumnKey& o) const
    {
        return variant == o.variant && device == o.device && environment == o.environment;
    }
};

ProbeColumnKey columnKeyOf(const ProbeRecord& r);

// Outcome counts per column for the stacked bar chart: ok/error/crash/hang/wrong, and unsupported last (in grey):
// left out, the bars summed to 21 of a column's 47 results (walkthrough 2026-11-27 third, problem 10).
struct OutcomeCounts {
    static constexpr std::array<ProbeResult, 6> kShown {ProbeResult::Ok, ProbeResult::Error, ProbeResult::Crash,
                                                        ProbeResult::Hang, ProbeResult::Wrong, ProbeResult::Unsupported};
    std::vector<ProbeColumnKey> columns;
    std::vector<std::array<int, kShown.size()>> counts; // counts[column][index in kShown]

    void add(const ProbeRecord& r);
    int count(std::size_t column, ProbeResult r) const;
    int maxTotal() const; // the tallest bar, for the axis range
};

// "cpu", "gpu 0", with " · VAR=1" for a variant other than baseline; withEnvironment: after the environment's
// short name ("libtorch · cpu", ".venv · gpu 0").
std::string columnLabel(const ProbeColumnKey& key, bool withEnvironment = false);
// "libtorch", or a Python environment's folder name (".venv", "rocm-torch"), or its interpreter's path when the
// interpreter is the system's (/usr/bin/python3).
std::string environmentShortName(const std::string& environment);

} // namespace stackscope::ui
