// The report document's glance, field by field, each part on its own so one unreadable part leaves the others.
#include "core/report/report_summary.h"

#include "core/probes/probe_document.h"
#include "core/snapshot/snapshot_json.h"

#include <algorithm>

namespace stackscope::report {

namespace {

using nlohmann::json;

// A member as text: a string as it is, null or missing as "", anything else as its JSON.
std::string text(const json& j, const char* key)
{
    if (!j.is_object())
        return {};
    const auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return {};
    return it->is_string() ? it->get<std::string>() : it->dump();
}

const json& member(const json& j, const char* key)
{
    static const json null;
    if (!j.is_object())
        return null;
    const auto it = j.find(key);
    return it == j.end() ? null : *it;
}

void readSnapshot(ReportSummary& s, const json& report)
{
    if (!member(report, "snapshot").is_object())
        return;
    try {
        s.snapshot = snapshotFromJson(member(report, "snapshot"));
    } catch (const std::exception& e) {
        s.snapshotError = e.what();
    }
}

void readProbes(ReportSummary& s, const json& report)
{
    try {
        s.probes = probeRecordsFromDocument(member(report, "probes"));
    } catch (const std::exception& e) {
        s.probesError = e.what();
    }
    s.probesNote = text(report, "probes_note");
}

void readFindings(ReportSummary& s, const json& report)
{
    try {
        s.findings = findingsFromJson(member(report, "findings"), "findings");
    } catch (const std::exception& e) {
        s.findingsError = e.what();
    }
}

void readNotChecked(ReportSummary& s, const json& report)
{
    const auto& list = member(report, "not_checked");
    if (!list.is_array())
        return;
    for (const auto& n : list)
        s.notChecked.emplace_back(text(n, "what"), text(n, "why"));
}

void readRedaction(ReportSummary& s, const json& report)
{
    const auto written = writtenRedaction(report);
    s.redacted = written.has_value();
    if (!written)
        return;
    for (const auto& r : *written)
        if (std::find(s.redactedKinds.begin(), s.redactedKinds.end(), r.kind) == s.redactedKinds.end())
            s.redactedKinds.push_back(r.kind);
}

} // namespace

std::optional<std::vector<RedactionEntry>> writtenRedaction(const json& report)
{
    const auto& redaction = member(report, "redaction");
    if (!member(redaction, "enabled").is_boolean() || !member(redaction, "enabled").get<bool>())
        return std::nullopt;
    std::vector<RedactionEntry> replaced;
    if (!member(redaction, "replaced").is_array())
        return replaced;
    for (const auto& r : member(redaction, "replaced")) {
        const auto& count = member(r, "count");
        replaced.push_back({text(r, "kind"), text(r, "placeholder"),
                            count.is_number_unsigned() ? count.get<std::size_t>() : std::size_t {0}});
    }
    return replaced;
}

ReportSummary reportSummary(const json& report)
{
    ReportSummary s;
    s.version = text(report, "version");
    readSnapshot(s, report);
    readProbes(s, report);
    readFindings(s, report);
    readNotChecked(s, report);
    readRedaction(s, report);
    return s;
}

} // namespace stackscope::report
