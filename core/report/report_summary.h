// What a report document says at a glance (its machine, probe results, findings, what was not checked, redaction),
// read once from the report's JSON into typed values: the summary card draws these.
#pragma once

#include "core/probes/probe_runner.h"
#include "core/report/redactor.h"
#include "core/snapshot/finding.h"
#include "core/snapshot/snapshot.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stackscope::report {

struct ReportSummary {
    std::string version; // StackScope's build that wrote it
    std::optional<Snapshot> snapshot; // none: the report has none, or it could not be read (snapshotError)
    std::string snapshotError;
    std::vector<ProbeRecord> probes; // empty: not run (probesNote), or unreadable (probesError)
    std::string probesError;
    std::string probesNote; // the report's "probes_note"
    std::vector<Finding> findings; // the report's "findings" (the diagnosis's)
    std::string findingsError; // they could not be read
    std::vector<std::pair<std::string, std::string>> notChecked; // what, why
    bool redacted = false;
    std::vector<std::string> redactedKinds; // each kind of private data replaced, in the order first met
};

// What a report's "redaction" says was replaced when it was written (kind, placeholder, times); nullopt when it was
// written unredacted (--no-redact) or does not say. Never throws: an entry it cannot read has empty fields.
std::optional<std::vector<RedactionEntry>> writtenRedaction(const nlohmann::json& report);

// Never throws: a part that cannot be read says why in its error field.
ReportSummary reportSummary(const nlohmann::json& report);

} // namespace stackscope::report
