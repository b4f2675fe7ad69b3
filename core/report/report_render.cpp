// The report document rendered for people: Markdown (for an issue tracker) and self-contained HTML.
#include "core/report/report.h"

#include "core/diagnosis/diagnosis.h"

#include "core/snapshot/probe_outcome.h"
#include "core/probes/probe_document.h"
#include "core/report/report_bandwidth.h"
#include "core/report/report_json_access.h"
#include "core/snapshot/snapshot_json.h"
#include "core/snapshot/stack_rows.h"

#include "core/util/text_escape.h"

#include <fmt/format.h>

#include <algorithm>

namespace stackscope::report {

using nlohmann::json;
using doc::at;
using doc::str;

namespace {

std::string firstLine(const std::string& s, std::size_t max = 200)
{
    return cutAtWord(std::string_view(s).substr(0, s.find('\n')), max);
}

std::string bytesText(const json& v)
{
    if (!v.is_number())
        return "?";
    return fmt::format("{:.1f} GiB", v.get<double>() / (1024.0 * 1024.0 * 1024.0));
}

// Markdown table cells: pipes and newlines would break the table.
std::string cell(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n' || c == '\r')
            out += ' ';
        else
            out += c;
    }
    return out;
}

// The rows both renderings share (label, value): the System page's stack table (core/snapshot/stack_rows.h) of the
// report's snapshot, one line per row; a snapshot that cannot be read is one row saying why.
// The report's findings mark the rows their cause lies in, as on the System page (a list that cannot be read marks
// none: the findings section says why).
std::vector<std::pair<std::string, std::string>> stackTable(const json& s, const json& findingsJson)
{
    std::vector<std::pair<std::string, std::string>> rows;
    Snapshot snapshot;
    try {
        snapshot = snapshotFromJson(s);
    } catch (const std::exception& e) {
        rows.emplace_back("Snapshot", std::string("could not be read: ") + e.what());
        return rows;
    }
    std::vector<Finding> findings;
    try {
        findings = findingsFromJson(findingsJson, "findings");
    } catch (const SnapshotError&) {
        findings.clear();
    }
    for (const auto& r : stackRows(snapshot, findings)) {
        std::string value = r.version;
        if (!r.location.empty() && r.location != "-")
            value += " (" + r.location + ")";
        if (r.status != StackStatus::Ok)
            value += std::string(" [") + stackStatusName(r.status) + "]";
        if (!r.note.empty())
            value += ": " + firstLine(r.note, 600); // a note is one sentence: whole unless absurd
        rows.emplace_back(r.component, value);
    }
    return rows;
}

// The probe results of the report as records (core/probes/probe_document.h); `problem` says why there are none
// when the document cannot be read (the renderings never throw on a loaded report).
std::vector<ProbeRecord> probeRecords(const json& report, std::string& problem)
{
    try {
        return probeRecordsFromDocument(at(report, "probes"));
    } catch (const std::exception& e) {
        problem = fmt::format("The probe results cannot be read: {}.", e.what());
        return {};
    }
}

std::vector<ProbeRecord> failingProbes(const std::vector<ProbeRecord>& records)
{
    std::vector<ProbeRecord> out;
    for (const auto& r : records) {
        if (isFailure(r.outcome.outcome))
            out.push_back(r);
    }
    return out;
}

// The diagnosis findings (the report's) and the system checks (its snapshot's), one type both; a list that cannot be
// read is left out and `problem` says why.
struct ReportFindings {
    std::vector<Finding> diagnosis;
    std::vector<Finding> checks;
    std::string problem;
};

ReportFindings reportFindings(const json& report)
{
    ReportFindings out;
    try {
        out.diagnosis = findingsFromJson(at(report, "findings"), "findings");
        // A report written since the one diagnosis (diagnoseMachine) holds the checks in its findings too.
        for (auto& check : findingsFromJson(at(at(report, "snapshot"), "findings"), "snapshot.findings")) {
            if (std::none_of(out.diagnosis.begin(), out.diagnosis.end(), [&](const Finding& f) { return f.id == check.id; }))
                out.checks.push_back(std::move(check));
        }
    } catch (const SnapshotError& e) {
        out.problem = fmt::format("The findings cannot be read: {}.", e.what());
    }
    return out;
}

std::string fixStatus(const FixAdvice& fix)
{
    if (fix.diagnostic || fix.env.empty())
        return "";
    if (!fix.verified)
        return " (not verified)";
    return *fix.verified ? " (verified here)" : " (did not work here)";
}

std::string redactionSummary(const json& report)
{
    const auto& r = at(report, "redaction");
    if (at(r, "enabled") != json(true))
        return "OFF: this report contains user, host and device names as found";
    std::string list;
    if (at(r, "replaced").is_array()) {
        for (const auto& e : at(r, "replaced"))
            list += fmt::format("{}{} {} x{}", list.empty() ? "" : ", ", str(e, "kind"), str(e, "placeholder"),
                                str(e, "count"));
    }
    std::string uncertain;
    if (at(r, "uncertain").is_array()) {
        for (const auto& u : at(r, "uncertain"))
            if (u.is_string())
                uncertain += "; not certain: " + u.get<std::string>();
    }
    return "on: " + (list.empty() ? std::string("nothing private was found") : list) + uncertain;
}

std::string markdownProbes(const json& report)
{
    std::string md = "\n### Failing probes\n\n";
    std::string problem;
    const auto records = probeRecords(report, problem);
    const auto failing = failingProbes(records);
    if (!problem.empty())
        return md + problem + "\n\n";
    if (at(report, "probes").is_null())
        return md + str(report, "probes_note", "No probe results.") + "\n\n";
    if (failing.empty())
        return md + fmt::format("None: {} results, all ok or unsupported.\n\n", records.size());
    md += "| probe | device | variant | outcome | message |\n|---|---|---|---|---|\n";
    for (const auto& r : failing) {
        const auto& p = r.outcome;
        md += fmt::format("| {} | {} | {} | {} | {} |\n", cell(p.probeId), cell(p.device), cell(p.variant),
                          probeResultName(p.outcome), cell(firstLine(p.message)));
    }
    return md + "\n";
}

// One finding, a diagnosis rule's or a system check's: the same lines for both.
std::string markdownFinding(const Finding& f)
{
    std::string md = fmt::format("- **[{}] {}**: {} (confidence {})\n", severityName(f.severity), f.id, findingHeadline(f),
                                 confidenceName(f.confidence));
    if (!f.detail.empty())
        md += fmt::format("  - {}\n", firstLine(f.detail, 400));
    if (!f.fix.empty())
        md += fmt::format("  - fix: {}\n", firstLine(f.fix, 400));
    int n = 1;
    for (const auto& fix : f.fixes)
        md += fmt::format("  - fix {}: {}{}\n", n++, fix.text, fixStatus(fix));
    return md;
}

// The report's "not_checked" (what the diagnosis could not check, with why): unknown, never ok. Reports from before
// have none.
std::vector<std::pair<std::string, std::string>> notCheckedLines(const json& report)
{
    std::vector<std::pair<std::string, std::string>> out;
    const auto& list = at(report, "not_checked");
    if (!list.is_array())
        return out;
    for (const auto& n : list)
        out.emplace_back(str(n, "what", "?"), fmt::format("{}. To check: {}", str(n, "why", "?"), str(n, "check", "?")));
    return out;
}

std::string markdownNotChecked(const json& report)
{
    const auto lines = notCheckedLines(report);
    if (lines.empty())
        return {};
    std::string md = "\n### Not checked (unknown)\n\n";
    for (const auto& [what, why] : lines)
        md += fmt::format("- **{}**: {}\n", what, why);
    return md;
}

std::string markdownFindings(const json& report)
{
    std::string md = "### Findings\n\n";
    const auto found = reportFindings(report);
    if (!found.problem.empty())
        md += found.problem + "\n";
    else if (found.diagnosis.empty() && found.checks.empty())
        md += "No rule matched.\n";
    for (const auto* list : {&found.diagnosis, &found.checks}) {
        for (const auto& f : *list)
            md += markdownFinding(f);
    }
    return md + markdownNotChecked(report);
}

} // namespace

std::string reportMarkdown(const json& report)
{
    const auto& s = at(report, "snapshot");
    std::string md;
    md += "## StackScope support report\n\n";
    md += fmt::format("StackScope {}, created {}. Redaction {}.\n\n", str(report, "version", "?"),
                      str(report, "created_at", "?"), redactionSummary(report));
    md += "### GPUs\n\n";
    const auto& gpus = at(s, "gpus");
    if (!gpus.is_array() || gpus.empty()) {
        md += "No GPU found.\n\n";
    } else {
        md += "| # | GPU | arch | VRAM | driver |\n|---|---|---|---|---|\n";
        for (const auto& g : gpus)
            md += fmt::format("| {} | {} | {} | {} | {} |\n", str(g, "index"), cell(str(g, "name")), cell(str(g, "arch", "?")),
                              bytesText(at(g, "vram_total_bytes")), cell(str(g, "driver_version", "-")));
        md += "\n";
    }
    md += "### Stack\n\n";
    for (const auto& [label, value] : stackTable(s, at(report, "findings")))
        md += fmt::format("- **{}**: {}\n", label, value);
    md += markdownProbes(report);
    md += markdownBandwidth(report);
    md += markdownFindings(report);
    // Placeholders such as <home> would be taken for HTML tags and hidden by issue trackers; the text has no
    // markup of its own with '<', so every one is escaped.
    std::string escaped;
    escaped.reserve(md.size());
    for (char c : md) {
        if (c == '<')
            escaped += '\\';
        escaped += c;
    }
    return escaped;
}

namespace {

std::string esc(const std::string& t)
{
    return escapeHtml(t);
}

std::string htmlHead(const json& report)
{
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>StackScope support report</title>\n"
                    "<style>body{font-family:sans-serif;margin:2em;max-width:80em;color:#222}table{border-collapse:collapse;"
                    "margin:1em 0}td,th{border:1px solid #bbb;padding:.3em .6em;text-align:left;vertical-align:top}"
                    "th{background:#eee}.error{color:#b00020}.warning{color:#a66000}pre{background:#f4f4f4;padding:1em;"
                    "overflow:auto;max-height:40em}img{max-width:100%;border:1px solid #ccc}figure{margin:1em 0}</style>\n"
                    "</head><body>\n";
    h += "<h1>StackScope support report</h1>\n";
    h += fmt::format("<p>StackScope {}, created {}.</p>\n<p>Redaction {}.</p>\n", esc(str(report, "version", "?")),
                     esc(str(report, "created_at", "?")), esc(redactionSummary(report)));
    return h;
}

std::string htmlMachine(const json& s, const json& findings)
{
    std::string h = "<h2>GPUs</h2>\n<table><tr><th>#</th><th>GPU</th><th>arch</th><th>VRAM</th><th>driver</th><th>PCI</th></tr>\n";
    if (at(s, "gpus").is_array()) {
        for (const auto& g : at(s, "gpus"))
            h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                             esc(str(g, "index")), esc(str(g, "name")), esc(str(g, "arch", "?")),
                             esc(bytesText(at(g, "vram_total_bytes"))), esc(str(g, "driver_version", "-")),
                             esc(str(g, "pci_bus", "-")));
    }
    h += "</table>\n<h2>Stack</h2>\n<table>\n";
    for (const auto& [label, value] : stackTable(s, findings))
        h += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", esc(label), esc(value));
    return h + "</table>\n";
}

std::string htmlProbes(const json& report)
{
    std::string h = "<h2>Probes</h2>\n";
    std::string problem;
    const auto records = probeRecords(report, problem);
    if (!problem.empty())
        return h + fmt::format("<p class=\"error\">{}</p>\n", esc(problem));
    if (!at(at(report, "probes"), "results").is_array())
        return h + fmt::format("<p>{}</p>\n", esc(str(report, "probes_note", "No probe results.")));
    h += "<table><tr><th>probe</th><th>device</th><th>variant</th><th>outcome</th><th>seconds</th><th>message</th></tr>\n";
    for (const auto& r : records) {
        const auto& p = r.outcome;
        h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{:.3f}</td><td>{}</td></tr>\n",
                         esc(p.probeId), esc(p.device), esc(p.variant), isFailure(p.outcome) ? "error" : "",
                         probeResultName(p.outcome), r.seconds, esc(firstLine(p.message, 400)));
    }
    return h + "</table>\n";
}

// One finding, a diagnosis rule's or a system check's: the same block for both.
std::string htmlFinding(const Finding& f)
{
    std::string sources;
    for (const auto& src : f.sources)
        sources += (sources.empty() ? "" : ", ") + src;
    std::string h = fmt::format("<h3 class=\"{0}\">[{0}] {1}: {2}</h3>\n<p>{3}</p>\n<p>Confidence {4}. Sources: {5}</p>\n<ol>\n",
                                severityName(f.severity), esc(f.id), esc(findingHeadline(f)), esc(f.detail),
                                confidenceName(f.confidence), esc(sources.empty() ? "none" : sources));
    if (!f.fix.empty())
        h += fmt::format("<li>{}</li>\n", esc(f.fix));
    for (const auto& fix : f.fixes)
        h += fmt::format("<li>{}{}</li>\n", esc(fix.text), esc(fixStatus(fix)));
    return h + "</ol>\n";
}

std::string htmlFindings(const json& report)
{
    std::string h = "<h2>Findings</h2>\n";
    const auto found = reportFindings(report);
    if (!found.problem.empty())
        return h + fmt::format("<p class=\"error\">{}</p>\n", esc(found.problem));
    if (found.diagnosis.empty())
        h += "<p>No diagnosis rule matched.</p>\n";
    for (const auto& f : found.diagnosis)
        h += htmlFinding(f);
    if (!found.checks.empty())
        h += "<h3>System checks</h3>\n";
    for (const auto& f : found.checks)
        h += htmlFinding(f);
    const auto notChecked = notCheckedLines(report);
    if (!notChecked.empty())
        h += "<h3>Not checked (unknown)</h3>\n<ul>\n";
    for (const auto& [what, why] : notChecked)
        h += fmt::format("<li><b>{}</b>: {}</li>\n", esc(what), esc(why));
    if (!notChecked.empty())
        h += "</ul>\n";
    return h;
}

std::string htmlScreenshots(const std::vector<ReportImage>& images)
{
    if (images.empty())
        return {};
    std::string h = "<h2>Screenshots</h2>\n";
    for (const auto& img : images)
        h += fmt::format("<figure><img alt=\"{}\" src=\"data:image/png;base64,{}\"><figcaption>{}</figcaption></figure>\n",
                         esc(img.title), base64Encode(img.png), esc(img.title));
    return h;
}

// A section kept as JSON (coverage, the last runs, telemetry): folded, with the note on its files if there is one.
std::string htmlJsonSection(const json& report, const char* title, const char* key)
{
    const auto& v = at(report, key);
    std::string h = fmt::format("<h2>{}</h2>\n", title);
    if (v.is_object() && v.contains("files_note") && v["files_note"].is_string())
        h += fmt::format("<p class=\"warning\">{}</p>\n", esc(v["files_note"].get<std::string>()));
    if (v.is_null())
        return h + "<p>Not included.</p>\n";
    return h + fmt::format("<details><summary>JSON</summary><pre>{}</pre></details>\n", esc(v.dump(2)));
}

std::string htmlLogs(const json& report)
{
    std::string logs;
    if (at(report, "logs").is_array()) {
        for (const auto& l : at(report, "logs"))
            logs += (l.is_string() ? l.get<std::string>() : l.dump()) + "\n";
    }
    return "<h2>Recent logs</h2>\n" + (logs.empty() ? std::string("<p>No log lines.</p>\n") : fmt::format("<pre>{}</pre>\n", esc(logs)));
}

} // namespace

std::string reportHtml(const json& report, const std::vector<ReportImage>& images)
{
    const auto& s = at(report, "snapshot");
    std::string h = htmlHead(report) + htmlMachine(s, at(report, "findings")) + htmlProbes(report) + htmlBandwidth(report) + htmlFindings(report) + htmlScreenshots(images);
    for (const auto& [title, key] : {std::pair {"Architecture coverage", "arch_coverage"}, std::pair {"Last VPOC run", "vpoc"},
                                     std::pair {"Last training run", "training"}, std::pair {"Telemetry", "telemetry"}})
        h += htmlJsonSection(report, title, key);
    return h + htmlLogs(report) + "</body></html>\n";
}

} // namespace stackscope::report
