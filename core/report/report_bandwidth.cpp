#include "core/report/report_bandwidth.h"

#include "core/perf/link_matrix.h"
#include "core/perf/perf_json.h"
#include "core/perf/recorded_run.h"
#include "core/perf/verdict.h"
#include "core/report/report.h"
#include "core/report/report_json_access.h"

#include "core/util/text_escape.h"

#include <fmt/format.h>

namespace stackscope::report {

using nlohmann::json;

namespace {

// One row per figure: test (dtype), where, measured, expected, ratio, verdict, and the rule where it is not as
// expected. The host memcpy is a reference and says so.
struct Row {
    std::string test, where, measured, expected, ratio, verdict, rule;
};

std::vector<Row> rows(const perf::SuiteRun& run)
{
    std::vector<Row> out;
    for (const auto& f : run.figures) {
        const char* unit = perf::info(f.test).unit;
        Row r;
        r.test = std::string(perf::info(f.test).id) + (f.dtype.empty() ? "" : " " + f.dtype);
        r.where = perf::figureWhere(f);
        r.measured = f.error ? "failed" : f.skipped ? "not measured" : fmt::format("{:.1f} {}", f.value, unit);
        r.expected = f.expected ? fmt::format("{:.1f} {}", f.expected->value, unit) : "-";
        r.ratio = f.ratio ? fmt::format("{:.2f}", *f.ratio) : "-";
        r.verdict = fmt::format("{} {}", perf::verdictMarker(f.verdict), perf::verdictText(f.verdict));
        if (f.verdict != perf::Verdict::AsExpected)
            r.rule = f.rule;
        out.push_back(std::move(r));
    }
    return out;
}

std::string mdCell(std::string s)
{
    for (auto& c : s)
        if (c == '|' || c == '\n')
            c = ' ';
    return s;
}

// The run of the report, or why it cannot be shown ("" with a run).
std::optional<perf::SuiteRun> shownRun(const json& report, std::string& problem)
{
    try {
        return reportBandwidth(report, "the report");
    } catch (const ReportError& e) {
        problem = e.what();
        return std::nullopt;
    }
}

std::string header(const perf::SuiteRun& run, const json& report)
{
    const auto gpus = perf::measuredGpus(run);
    return fmt::format("Measured {} with {} on {} GPU{}: {}. Verdicts: {}.",
                       run.capturedAt.empty() ? "at an unknown time" : run.capturedAt,
                       run.torchVersion.empty() ? "an unknown torch" : "torch " + run.torchVersion, gpus.size(),
                       gpus.size() == 1 ? "" : "s", perf::verdictSummary(run.figures),
                       doc::str(report, "bandwidth_note", "how they were reached is not recorded"));
}

} // namespace

void addBandwidth(json& report, const std::optional<perf::SuiteRun>& run, const Snapshot& snapshot,
                  const std::string& whyNone, Redactor* redactor)
{
    if (!run) {
        report["bandwidth"] = nullptr;
        report["bandwidth_note"] = whyNone.empty() ? std::string("not measured: run `stackscope-cli bench bandwidth --json "
                                                                 "> bw.json`, then give --bandwidth bw.json")
                                                   : whyNone;
        return;
    }
    const auto judged = perf::judgeRecordedRun(*run, &snapshot, "the report's snapshot");
    json doc = perf::toJson(judged.run);
    std::string note = judged.note;
    if (redactor) {
        redactor->learn(doc);
        doc = redactor->redact(doc);
        note = redactor->redact(note);
    }
    report["bandwidth"] = std::move(doc);
    report["bandwidth_note"] = std::move(note);
}

std::optional<perf::SuiteRun> reportBandwidth(const json& report, const std::string& origin)
{
    const auto& b = doc::at(report, "bandwidth");
    if (b.is_null())
        return std::nullopt;
    try {
        return perf::suiteRunFromJson(b);
    } catch (const perf::PerfJsonError& e) {
        throw ReportError(fmt::format("{}: in 'bandwidth': {}; create the report again (stackscope-cli report "
                                      "--bandwidth FILE from `bench bandwidth --json`)",
                                      origin, e.what()));
    }
}

std::string markdownBandwidth(const json& report)
{
    std::string md = "\n### Links and bandwidth\n\n";
    std::string problem;
    const auto run = shownRun(report, problem);
    if (!problem.empty())
        return md + problem + "\n";
    if (!run)
        return md + doc::str(report, "bandwidth_note", "Not measured.") + "\n";
    md += header(*run, report) + "\n\n| test | where | measured | expected | ratio | verdict |\n|---|---|---|---|---|---|\n";
    std::string rules;
    for (const auto& r : rows(*run)) {
        md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", mdCell(r.test), mdCell(r.where), r.measured, r.expected,
                          r.ratio, r.verdict);
        if (!r.rule.empty() && r.verdict.find("unknown") == std::string::npos)
            rules += fmt::format("- {} {}: {}\n", r.test, r.where, r.rule);
    }
    md += "\n" + rules + fmt::format("\nRule: {}\n", perf::verdictRuleText());
    return md;
}

std::string htmlBandwidth(const json& report)
{
    std::string h = "<h2>Links and bandwidth</h2>\n";
    std::string problem;
    const auto run = shownRun(report, problem);
    if (!problem.empty())
        return h + fmt::format("<p class=\"error\">{}</p>\n", escapeHtml(problem));
    if (!run)
        return h + fmt::format("<p>{}</p>\n", escapeHtml(doc::str(report, "bandwidth_note", "Not measured.")));
    h += fmt::format("<p>{}</p>\n<table><tr><th>test</th><th>where</th><th>measured</th><th>expected</th><th>ratio</th>"
                     "<th>verdict</th><th>why</th></tr>\n",
                     escapeHtml(header(*run, report)));
    for (const auto& r : rows(*run)) {
        const char* cls = r.verdict.find("degraded") != std::string::npos || r.verdict.find("broken") != std::string::npos
                              ? " class=\"error\""
                              : "";
        h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td{}>{}</td><td>{}</td></tr>\n",
                         escapeHtml(r.test), escapeHtml(r.where), escapeHtml(r.measured), escapeHtml(r.expected), escapeHtml(r.ratio), cls, escapeHtml(r.verdict),
                         escapeHtml(r.rule));
    }
    return h + fmt::format("</table>\n<p>{}</p>\n", escapeHtml(perf::verdictRuleText()));
}

} // namespace stackscope::report
