// The report document rendered for people: Markdown (for an issue tracker) and self-contained HTML.
#include "core/report/report.h"

#include "core/diagnosis/probe_outcome.h"
#include "core/report/report_json_access.h"
#include "core/snapshot/snapshot_json.h"
#include "core/snapshot/stack_rows.h"

#include <fmt/format.h>

namespace stackscope::report {

using nlohmann::json;
using doc::at;
using doc::str;

namespace {

std::string firstLine(const std::string& s, std::size_t max = 200)
{
    auto line = s.substr(0, s.find('\n'));
    if (line.size() > max)
        line = line.substr(0, max) + "...";
    return line;
}

std::string bytesText(const json& v)
{
    if (!v.is_number())
        return "?";
    return fmt::format("{:.1f} GiB", v.get<double>() / (1024.0 * 1024.0 * 1024.0));
}

// A result's "outcome" as the enum: an unknown name counts as a failure (it is not ok).
bool isFailureName(const std::string& outcome)
{
    const auto r = probeResultFromName(outcome);
    return !r || isFailure(*r);
}

std::string escapeHtml(const std::string& s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
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
std::vector<std::pair<std::string, std::string>> stackTable(const json& s)
{
    std::vector<std::pair<std::string, std::string>> rows;
    Snapshot snapshot;
    try {
        snapshot = snapshotFromJson(s);
    } catch (const std::exception& e) {
        rows.emplace_back("Snapshot", std::string("could not be read: ") + e.what());
        return rows;
    }
    for (const auto& r : stackRows(snapshot)) {
        std::string value = r.version;
        if (!r.location.empty() && r.location != "-")
            value += " (" + r.location + ")";
        if (r.status != StackStatus::Ok)
            value += std::string(" [") + stackStatusName(r.status) + "]";
        if (!r.note.empty())
            value += ": " + firstLine(r.note);
        rows.emplace_back(r.component, value);
    }
    return rows;
}

std::vector<json> failingProbes(const json& report)
{
    std::vector<json> out;
    const auto& results = at(at(report, "probes"), "results");
    if (!results.is_array())
        return out;
    for (const auto& r : results) {
        if (isFailureName(str(r, "outcome")))
            out.push_back(r);
    }
    return out;
}

std::string fixStatus(const json& fix)
{
    if (at(fix, "diagnostic") == json(true) || !at(fix, "env").is_object() || at(fix, "env").empty())
        return "";
    if (at(fix, "verified") == json(true))
        return " (verified here)";
    if (at(fix, "verified") == json(false))
        return " (did not work here)";
    return " (not verified)";
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
    for (const auto& [label, value] : stackTable(s))
        md += fmt::format("- **{}**: {}\n", label, value);
    md += "\n### Failing probes\n\n";
    const auto failing = failingProbes(report);
    if (at(report, "probes").is_null()) {
        md += str(report, "probes_note", "No probe results.") + "\n\n";
    } else if (failing.empty()) {
        md += fmt::format("None: {} results, all ok or unsupported.\n\n", at(at(report, "probes"), "results").size());
    } else {
        md += "| probe | device | variant | outcome | message |\n|---|---|---|---|---|\n";
        for (const auto& p : failing)
            md += fmt::format("| {} | {} | {} | {} | {} |\n", cell(str(p, "probe")), cell(str(p, "device")),
                              cell(str(p, "variant")), cell(str(p, "outcome")), cell(firstLine(str(p, "message"))));
        md += "\n";
    }
    md += "### Findings\n\n";
    const auto& findings = at(report, "findings");
    const auto& checks = at(s, "findings");
    if ((!findings.is_array() || findings.empty()) && (!checks.is_array() || checks.empty()))
        md += "No rule matched.\n";
    if (findings.is_array()) {
        for (const auto& f : findings) {
            md += fmt::format("- **[{}] {}**: {} (confidence {})\n  - cause: {}\n", str(f, "severity"), str(f, "rule"),
                              str(f, "title"), str(f, "confidence"), firstLine(str(f, "cause"), 400));
            int n = 1;
            if (at(f, "fixes").is_array()) {
                for (const auto& fix : at(f, "fixes"))
                    md += fmt::format("  - fix {}: {}{}\n", n++, str(fix, "text"), fixStatus(fix));
            }
        }
    }
    if (checks.is_array()) {
        for (const auto& f : checks) {
            md += fmt::format("- **[{}] {}**: {}\n", str(f, "severity"), str(f, "id"), str(f, "title"));
            if (!str(f, "fix").empty())
                md += fmt::format("  - fix: {}\n", firstLine(str(f, "fix"), 400));
        }
    }
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

std::string htmlMachine(const json& s)
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
    for (const auto& [label, value] : stackTable(s))
        h += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", esc(label), esc(value));
    return h + "</table>\n";
}

std::string htmlProbes(const json& report)
{
    std::string h = "<h2>Probes</h2>\n";
    const auto& probes = at(report, "probes");
    if (!at(probes, "results").is_array())
        return h + fmt::format("<p>{}</p>\n", esc(str(report, "probes_note", "No probe results.")));
    h += "<table><tr><th>probe</th><th>device</th><th>variant</th><th>outcome</th><th>seconds</th><th>message</th></tr>\n";
    for (const auto& p : at(probes, "results"))
        h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td><td>{}</td></tr>\n",
                         esc(str(p, "probe")), esc(str(p, "device")), esc(str(p, "variant")),
                         isFailureName(str(p, "outcome")) ? "error" : "", esc(str(p, "outcome")), esc(str(p, "seconds")),
                         esc(firstLine(str(p, "message"), 400)));
    return h + "</table>\n";
}

std::string htmlFindings(const json& report, const json& s)
{
    std::string h = "<h2>Findings</h2>\n";
    const auto& findings = at(report, "findings");
    if (!findings.is_array() || findings.empty())
        h += "<p>No diagnosis rule matched.</p>\n";
    else {
        for (const auto& f : findings) {
            h += fmt::format("<h3 class=\"{}\">[{}] {}: {}</h3>\n<p>Cause: {}</p>\n<p>Confidence {}. Sources: {}</p>\n<ol>\n",
                             esc(str(f, "severity")), esc(str(f, "severity")), esc(str(f, "rule")), esc(str(f, "title")),
                             esc(str(f, "cause")), esc(str(f, "confidence")), esc(at(f, "sources").is_array() ? at(f, "sources").dump() : ""));
            if (at(f, "fixes").is_array()) {
                for (const auto& fix : at(f, "fixes"))
                    h += fmt::format("<li>{}{}</li>\n", esc(str(fix, "text")), esc(fixStatus(fix)));
            }
            h += "</ol>\n";
        }
    }
    if (at(s, "findings").is_array() && !at(s, "findings").empty()) {
        h += "<h3>System checks</h3>\n<ul>\n";
        for (const auto& f : at(s, "findings"))
            h += fmt::format("<li class=\"{}\"><b>{}</b>: {}. {} <i>{}</i></li>\n", esc(str(f, "severity")), esc(str(f, "id")),
                             esc(str(f, "title")), esc(str(f, "detail")), esc(str(f, "fix")));
        h += "</ul>\n";
    }
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
    std::string h = htmlHead(report) + htmlMachine(s) + htmlProbes(report) + htmlFindings(report, s) + htmlScreenshots(images);
    for (const auto& [title, key] : {std::pair {"Architecture coverage", "arch_coverage"}, std::pair {"Last VPOC run", "vpoc"},
                                     std::pair {"Last training run", "training"}, std::pair {"Telemetry", "telemetry"}})
        h += htmlJsonSection(report, title, key);
    return h + htmlLogs(report) + "</body></html>\n";
}

} // namespace stackscope::report
