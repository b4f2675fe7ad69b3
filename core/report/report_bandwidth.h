// A support report's bandwidth run: the typed run (perf::SuiteRun, schema stackscope.bandwidth/1 through perf_json,
// no second schema) judged against the report's snapshot, its lines in the Markdown and HTML, and read back.
#pragma once

#include "core/perf/suite_run.h"
#include "core/report/redactor.h"
#include "core/snapshot/snapshot.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace stackscope::report {

// Sets report["bandwidth"] (the run judged against `snapshot` by perf::judgeRecordedRun, redacted with `redactor`
// when given) and report["bandwidth_note"] (how it was judged; why there is none when `run` is empty: `whyNone`).
void addBandwidth(nlohmann::json& report, const std::optional<perf::SuiteRun>& run, const Snapshot& snapshot,
                  const std::string& whyNone, Redactor* redactor);

// The run of a loaded report; nullopt when it has none (null or absent). Throws ReportError naming `origin` and the
// key when "bandwidth" is there but is not a bandwidth run.
std::optional<perf::SuiteRun> reportBandwidth(const nlohmann::json& report, const std::string& origin);

// The figures with what they should reach, ratio and verdict: a Markdown section and an HTML section. A run that
// cannot be read is one line saying why (the renderings never throw on a loaded report).
std::string markdownBandwidth(const nlohmann::json& report);
std::string htmlBandwidth(const nlohmann::json& report);

} // namespace stackscope::report
