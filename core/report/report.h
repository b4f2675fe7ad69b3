// The support report as a JSON document ("stackscope.report/1") and its Markdown and HTML renderings.
#pragma once

#include "core/util/error.h"

#include "core/perf/suite_run.h"
#include "core/report/redactor.h"
#include "core/snapshot/snapshot.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace stackscope::report {

inline constexpr const char* kReportSchema = "stackscope.report/1";

// A report that cannot be read or written; what() says which file, where, and what to do.
class ReportError : public Error {
public:
    explicit ReportError(const std::string& what)
        : Error(what, ErrorKind::Input)
    {
    }
};

// What goes into a report; every json member may be null ("not given", said so in the report).
struct ReportInputs {
    Snapshot snapshot;
    nlohmann::json probes;      // the `stackscope-cli probe --json` document
    nlohmann::json vpocRun;     // `stackscope-cli vpoc --json` output (trimmed by buildReport)
    nlohmann::json trainingRun; // model_metadata.json ("stackscope.training/1")
    nlohmann::json telemetry;   // telemetrySummary() or {"available": false, "reason": ...}
    std::vector<std::string> logLines;
    // Why there are no probe results, when probes is null ("not run: give --probes FILE or --run-probes").
    std::string probesNote;
    // The bandwidth run shown (`bench bandwidth --json`, the System page's topology): judged against `snapshot`
    // where it is the machine that ran it (report_bandwidth.h); why there is none when empty.
    std::optional<perf::SuiteRun> bandwidth;
    std::string bandwidthNote;
};

// A PNG with its file name ("system.png", written under screenshots/) and caption.
struct ReportImage {
    std::string name;
    std::string title;
    std::string png; // the encoded bytes
};

// Findings are recomputed from the snapshot, the probe results and the logs with the current rules.
// With a redactor everything is redacted (snapshot, probes, logs, vpoc, training, findings) and
// "redaction" lists what was replaced; null (--no-redact) keeps everything and says so.
// Keys: schema, version, created_at, redaction {enabled, replaced[]}, snapshot, probes, probes_note,
// findings (the checks and the rules, diagnoseMachine), verdict ("ok", "problem", "no_gpu", "unknown"), not_checked
// [{id, what, why, check}], arch_coverage, vpoc, training, telemetry, logs.
nlohmann::json buildReport(const ReportInputs& inputs, Redactor* redactor);

// Findings with the current rules, from a report's (or a snapshot's) facts: the GUI's replay.
// `probes` is a `probe --json` document or null; throws ReportError when it is neither.
nlohmann::json recomputeFindings(const Snapshot& snapshot, const nlohmann::json& probes,
                                 const std::vector<std::string>& logLines);

// The probe set of a `probe --json` document, so "Run these probes here" can run the same grid.
struct ProbeSet {
    std::vector<std::string> probeIds;   // in first-seen order
    std::vector<std::string> devices;    // "cpu", "0", ...
    nlohmann::json variants = nlohmann::json::array(); // [{"name", "env": {K: V or null}}]
};
// Throws ReportError when `probes` is not such a document (or null).
ProbeSet probeSetOf(const nlohmann::json& probes);

// Short, ready to paste into an issue: GPUs, stack, failing probes, findings with fixes, redaction.
std::string reportMarkdown(const nlohmann::json& report);
// One self-contained page; images are embedded as base64 data URIs; all text is HTML-escaped.
std::string reportHtml(const nlohmann::json& report, const std::vector<ReportImage>& images);

std::string base64Encode(const std::string& bytes);

} // namespace stackscope::report
