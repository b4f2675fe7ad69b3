// Builds the report document from its inputs (redacted unless told not to); report_render.cpp renders it.
#include "core/report/report.h"

#include "core/report/report_bandwidth.h"
#include "core/report/report_json_access.h"

#include "core/diagnosis/machine_diagnosis.h"
#include "core/inspect/inspector.h"
#include "core/probes/probe_document.h"
#include "core/snapshot/snapshot_json.h"
#include "core/snapshot/stack_rows.h"
#include "core/util/build_info.h"

#include <fmt/format.h>

#include <algorithm>

namespace stackscope::report {

using nlohmann::json;
using doc::at;
using doc::str;

namespace {

constexpr std::size_t kMaxLogLines = 2000;
constexpr std::size_t kMaxLogLineBytes = 4096;
constexpr std::size_t kMaxVpocSessions = 20;

// The VPOC run without per-level profiles: the options, counts and the last sessions' levels.
json trimVpoc(const json& v)
{
    if (!v.is_object())
        return nullptr;
    json out = json::object();
    for (const char* key : {"backend", "backend_note", "options", "rows", "outside_sessions", "skipped", "extra_columns",
                            "wall_seconds", "seconds"}) {
        if (v.contains(key))
            out[key] = v[key];
    }
    const auto& sessions = at(v, "sessions");
    if (sessions.is_array()) {
        out["session_count"] = sessions.size();
        auto kept = json::array();
        const std::size_t first = sessions.size() > kMaxVpocSessions ? sessions.size() - kMaxVpocSessions : 0;
        for (std::size_t i = first; i < sessions.size(); ++i) {
            json s = sessions[i];
            if (s.is_object())
                s.erase("profile");
            kept.push_back(std::move(s));
        }
        out["sessions"] = std::move(kept);
        out["sessions_note"] = first > 0 ? fmt::format("the last {} of {} sessions", kMaxVpocSessions, sessions.size())
                                         : std::string("all sessions");
    }
    return out;
}

// model_metadata.json ("stackscope.training/1"): the configuration, epochs and best values, and the trainer's advice
// to train on one GPU (a replayed report's Training page offers it again).
json trimTraining(const json& t)
{
    if (!t.is_object())
        return nullptr;
    json out = json::object();
    for (const char* key : {"schema", "status", "config", "features", "target", "data", "versions", "devices", "epochs",
                            "best_epoch", "best_val_loss", "files_note", "epochs_not_in_files", "device_advice"}) {
        if (t.contains(key))
            out[key] = t[key];
    }
    return out;
}

std::vector<std::string> trimLogs(const std::vector<std::string>& lines)
{
    const std::size_t first = lines.size() > kMaxLogLines ? lines.size() - kMaxLogLines : 0;
    std::vector<std::string> out;
    for (std::size_t i = first; i < lines.size(); ++i) {
        auto l = lines[i];
        if (l.size() > kMaxLogLineBytes)
            l = l.substr(0, kMaxLogLineBytes) + " [cut]";
        out.push_back(std::move(l));
    }
    return out;
}

} // namespace

std::string base64Encode(const std::string& bytes)
{
    static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8)
                           | static_cast<unsigned char>(bytes[i + 2]);
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += kAlphabet[(v >> 6) & 63];
        out += kAlphabet[v & 63];
    }
    if (i + 1 == bytes.size()) {
        const unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += "==";
    } else if (i + 2 == bytes.size()) {
        const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8);
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += kAlphabet[(v >> 6) & 63];
        out += '=';
    }
    return out;
}

namespace {

// The records of a `probe --json` document (null: none); one that is not such a document is an error to fix.
std::vector<ProbeRecord> recordsOf(const json& probes)
{
    try {
        return probeRecordsFromDocument(probes);
    } catch (const std::exception& e) {
        throw ReportError(fmt::format("{}; the probe results are not from `stackscope-cli probe --json`, give that file instead",
                                      e.what()));
    }
}

template <typename T>
void addOnce(std::vector<T>& list, const T& value)
{
    if (std::find(list.begin(), list.end(), value) == list.end())
        list.push_back(value);
}

} // namespace

namespace {

// The one diagnosis (diagnoseMachine, as the System page, the log dialog and `diagnose` make it) over the report's
// snapshot, probe results and logs.
MachineDiagnosis reportDiagnosis(const Snapshot& snapshot, const json& probes, const std::vector<std::string>& logLines)
{
    MachineDiagnosisInput input;
    input.snapshot = &snapshot;
    for (auto& r : recordsOf(probes))
        input.probes.push_back(std::move(r.outcome));
    if (!logLines.empty()) {
        std::string text;
        for (const auto& l : logLines)
            text += l + "\n";
        input.logs.push_back(readLogText(text, "report logs"));
    }
    return diagnoseMachine(input);
}

json notCheckedJson(const std::vector<NotChecked>& notChecked)
{
    json out = json::array();
    for (const auto& n : notChecked)
        out.push_back({{"id", n.id}, {"what", n.what}, {"why", n.why}, {"check", n.check}});
    return out;
}

} // namespace

json recomputeFindings(const Snapshot& snapshot, const json& probes, const std::vector<std::string>& logLines)
{
    return findingsToJson(reportDiagnosis(snapshot, probes, logLines).findings)["findings"];
}

ProbeSet probeSetOf(const json& probes)
{
    ProbeSet set;
    for (const auto& r : recordsOf(probes)) {
        if (!r.outcome.probeId.empty())
            addOnce(set.probeIds, r.outcome.probeId);
        if (!r.outcome.device.empty())
            addOnce(set.devices, r.outcome.device);
    }
    const auto& variants = at(probes, "variants");
    if (variants.is_array()) {
        for (const auto& v : variants) {
            if (v.is_object() && at(v, "name").is_string())
                set.variants.push_back({{"name", v["name"]}, {"env", at(v, "env").is_object() ? v["env"] : json::object()}});
        }
    }
    return set;
}

json buildReport(const ReportInputs& in, Redactor* redactor)
{
    json r = json::object();
    r["schema"] = kReportSchema;
    r["version"] = buildDescription();
    r["created_at"] = nowIsoUtc();

    // Findings come from the unredacted facts (rules may match a path), then go through the redactor.
    const auto logs = trimLogs(in.logLines);
    const MachineDiagnosis diagnosis = reportDiagnosis(in.snapshot, in.probes, logs);
    json findings = findingsToJson(diagnosis.findings)["findings"];
    json notChecked = notCheckedJson(diagnosis.notChecked);

    json snapshot = toJson(in.snapshot);
    json probes = in.probes.is_null() ? json(nullptr) : in.probes;
    json logsJson = logs;
    json vpoc = trimVpoc(in.vpocRun);
    json training = trimTraining(in.trainingRun);
    json telemetry = in.telemetry;
    std::string probesNote = in.probes.is_null() && in.probesNote.empty()
                                 ? std::string("no probe results: give --probes FILE (stackscope-cli probe --json) or --run-probes")
                                 : in.probesNote;
    if (redactor) {
        for (const json* doc : {&snapshot, &probes, &vpoc, &training, &telemetry})
            redactor->learn(*doc);
        snapshot = redactor->redact(snapshot);
        probes = redactor->redact(probes);
        logsJson = redactor->redact(logsJson);
        vpoc = redactor->redact(vpoc);
        training = redactor->redact(training);
        telemetry = redactor->redact(telemetry);
        findings = redactor->redact(findings);
        notChecked = redactor->redact(notChecked);
        probesNote = redactor->redact(probesNote);
    }
    r["snapshot"] = snapshot;
    r["probes"] = probes;
    r["probes_note"] = probesNote;
    r["findings"] = findings;
    r["verdict"] = verdictStateName(diagnosis.verdict);
    r["not_checked"] = notChecked;
    r["arch_coverage"] = snapshot.is_object() && snapshot.contains("arch_coverage") ? snapshot["arch_coverage"] : json(nullptr);
    r["vpoc"] = vpoc;
    r["training"] = training;
    r["telemetry"] = telemetry;
    r["logs"] = logsJson;
    addBandwidth(r, in.bandwidth, in.snapshot, in.bandwidthNote, redactor);
    r["redaction"] = {{"enabled", redactor != nullptr},
                      {"replaced", redactor ? redactor->replacedJson() : json::array()},
                      {"uncertain", redactor ? json(redactor->uncertainties()) : json::array()},
                      {"note", redactor ? "user and host names, home paths, IP and MAC addresses, GPU UUIDs, serials "
                                          "and credentials (tokens, keys, passwords) are replaced by placeholders; the "
                                          "same original has the same placeholder everywhere"
                                        : "redaction was turned off (--no-redact)"}};
    return r;
}

} // namespace stackscope::report
