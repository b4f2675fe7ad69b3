// Loads the report corpus and scores diagnoses against it (see report_corpus.h).
#include "core/diagnosis/report_corpus.h"

#include "core/util/file_read.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>

namespace stackscope {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string readWhole(const fs::path& p)
{
    std::string why;
    auto text = readRegularFile(p, kWrittenFileCap, &why);
    if (!text)
        throw CorpusError(fmt::format("{}: cannot be read ({}); every report folder needs report.txt and expected.json",
                                      p.string(), why));
    return std::move(*text);
}

// "line L, column C" of a byte offset, for JSON parse errors.
std::string position(const std::string& text, std::size_t offset)
{
    offset = std::min(offset, text.size());
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
    const auto lastNl = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    const auto column = lastNl == std::string::npos || offset == 0 ? offset + 1 : offset - lastNl;
    return fmt::format("{}:{}", line, column);
}

std::string requireString(const json& j, const char* key, const fs::path& file)
{
    if (!j.contains(key) || !j[key].is_string() || j[key].get<std::string>().empty())
        throw CorpusError(fmt::format("{}: \"{}\" must be a non-empty string; see tests/fixtures/reports/README.md",
                                      file.string(), key));
    return j[key].get<std::string>();
}

CorpusReport loadOne(const fs::path& folder)
{
    CorpusReport r;
    r.name = folder.filename().string();
    r.text = readWhole(folder / "report.txt");
    const auto file = folder / "expected.json";
    const std::string raw = readWhole(file);
    json j;
    try {
        j = json::parse(raw);
    } catch (const json::parse_error& e) {
        throw CorpusError(fmt::format("{}:{}: not valid JSON ({}); fix the file", file.string(),
                                      position(raw, e.byte == 0 ? 0 : e.byte - 1), e.what()));
    }
    if (!j.is_object())
        throw CorpusError(fmt::format("{}:1:1: must be a JSON object", file.string()));
    r.url = requireString(j, "url", file);
    if (r.url.rfind("https://", 0) != 0 && r.url.rfind("http://", 0) != 0)
        throw CorpusError(fmt::format("{}: \"url\" must be the thread's http(s) address, found '{}'", file.string(), r.url));
    r.family = requireString(j, "family", file);
    if (j.contains("vendor") && j["vendor"].is_string())
        r.vendor = j["vendor"].get<std::string>();
    if (!j.contains("expected_rule"))
        throw CorpusError(fmt::format("{}: \"expected_rule\" is missing (a rule id, or null)", file.string()));
    if (j["expected_rule"].is_string())
        r.expectedRule = j["expected_rule"].get<std::string>();
    else if (!j["expected_rule"].is_null())
        throw CorpusError(fmt::format("{}: \"expected_rule\" must be a rule id, \"{}\" or null", file.string(), kCauseOutsideRules));
    requireString(j, "cause", file);
    return r;
}

} // namespace

std::vector<CorpusReport> loadReportCorpus(const std::string& dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw CorpusError(fmt::format("{}: no such folder; give --corpus tests/fixtures/reports (or another corpus)", dir));
    std::vector<fs::path> folders;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.is_directory())
            folders.push_back(e.path());
    }
    std::sort(folders.begin(), folders.end());
    std::vector<CorpusReport> out;
    for (const auto& f : folders)
        out.push_back(loadOne(f));
    if (out.empty())
        throw CorpusError(fmt::format("{}: holds no report folders (NN_name/report.txt + expected.json)", dir));
    return out;
}

void applyLaterLabels(std::vector<CorpusReport>& reports, const std::string& corpusDir, const std::string& labelsFile)
{
    std::ifstream in(labelsFile);
    if (!in)
        throw CorpusError(fmt::format("{}: cannot be read; give --later-labels tests/fixtures/diagnosis/later-labels.tsv or leave it out", labelsFile));
    std::string folder = fs::path(corpusDir).lexically_normal().filename().string();
    if (folder.empty())
        folder = fs::path(corpusDir).lexically_normal().parent_path().filename().string();
    std::map<std::string, CorpusReport*> byName;
    for (auto& r : reports)
        byName[r.name] = &r;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty() || line[0] == '#')
            continue;
        const auto tab1 = line.find('\t');
        const auto tab2 = tab1 == std::string::npos ? std::string::npos : line.find('\t', tab1 + 1);
        const auto slash = line.find('/');
        if (tab2 == std::string::npos || slash == std::string::npos || slash > tab1)
            throw CorpusError(fmt::format("{}:{}: expected '<folder>/<thread dir>\\t<ID or OTHER>\\t<reason>'", labelsFile, number));
        if (line.compare(0, slash, folder) != 0 || slash != folder.size())
            continue;
        const std::string thread = line.substr(slash + 1, tab1 - slash - 1);
        const auto it = byName.find(thread);
        if (it == byName.end())
            throw CorpusError(fmt::format("{}:{}: {} has no thread '{}'", labelsFile, number, corpusDir, thread));
        if (it->second->expectedRule != std::optional<std::string>(kCauseOutsideRules))
            throw CorpusError(fmt::format("{}:{}: {}/{} is labelled '{}', not OTHER; the file relabels OTHER threads only",
                                          labelsFile, number, folder, thread, it->second->expectedRule.value_or("null")));
        it->second->laterRule = line.substr(tab1 + 1, tab2 - tab1 - 1);
    }
}

std::vector<std::string> rankedClaims(const std::vector<Finding>& findings)
{
    std::vector<std::string> out;
    for (const auto& f : findings) {
        if (f.severity != Severity::Info)
            out.push_back(f.id);
    }
    return out;
}

namespace {

// Top-1 and top-3 against one label: an id (the first finding names it / one of the first three does), or null and
// OTHER (no claim at all).
std::pair<bool, bool> matches(const std::vector<std::string>& ranked, const std::vector<Finding>& findings,
                              const std::optional<std::string>& expected, const DiagnosisRules& rules)
{
    if (!expected || *expected == kCauseOutsideRules) {
        const bool none = rankedClaims(findings).empty();
        return {none, none};
    }
    const auto it = std::find_if(ranked.begin(), ranked.end(), [&](const std::string& id) { return rules.names(id, *expected); });
    return {it == ranked.begin() && it != ranked.end(), it != ranked.end() && it - ranked.begin() < 3};
}

} // namespace

ReportScore scoreReport(const CorpusReport& report, const std::vector<Finding>& findings, const DiagnosisRules& rules)
{
    ReportScore s {report.name, report.family, report.expectedRule, {}, false, false, 0, report.laterRule, false};
    for (const auto& f : findings) {
        s.ranked.push_back(f.id);
        s.errorFindings += f.severity == Severity::Error ? 1 : 0;
    }
    const auto [top1, top3] = matches(s.ranked, findings, report.expectedRule, rules);
    s.top1 = top1;
    s.top3 = top3;
    s.top1Later = report.laterRule ? matches(s.ranked, findings, report.laterRule, rules).first : top1;
    return s;
}

CorpusScore scoreCorpus(const std::vector<CorpusReport>& reports, const ReportDiagnoser& diagnoseOne, const DiagnosisRules& rules)
{
    CorpusScore out;
    for (const auto& r : reports) {
        auto s = scoreReport(r, diagnoseOne(r), rules);
        auto& fam = out.families[r.family];
        ++fam.reports;
        fam.top1 += s.top1 ? 1 : 0;
        fam.top3 += s.top3 ? 1 : 0;
        ++out.scored;
        out.top1 += s.top1 ? 1 : 0;
        out.top3 += s.top3 ? 1 : 0;
        out.top1Later += s.top1Later ? 1 : 0;
        out.relabelled += r.laterRule && *r.laterRule != kCauseOutsideRules ? 1 : 0;
        if (r.family == "healthy") {
            ++out.healthy;
            out.healthyErrors += s.errorFindings;
        }
        out.reports.push_back(std::move(s));
    }
    return out;
}

json corpusScoreToJson(const CorpusScore& score)
{
    json families = json::object();
    for (const auto& [name, f] : score.families)
        families[name] = {{"reports", f.reports}, {"top1", f.top1}, {"top3", f.top3}};
    json reports = json::array();
    for (const auto& r : score.reports) {
        reports.push_back({{"name", r.name}, {"family", r.family},
                           {"expected_rule", r.expectedRule ? json(*r.expectedRule) : json(nullptr)},
                           {"ranked", r.ranked}, {"top1", r.top1}, {"top3", r.top3}, {"error_findings", r.errorFindings},
                           {"later_rule", r.laterRule ? json(*r.laterRule) : json(nullptr)}, {"top1_later", r.top1Later}});
    }
    const double n = score.scored ? score.scored : 1;
    return {{"schema", "stackscope.bench-diagnose/1"}, {"reports", score.scored},
            {"top1", score.top1}, {"top3", score.top3},
            {"top1_fraction", score.top1 / n}, {"top3_fraction", score.top3 / n},
            {"healthy_reports", score.healthy}, {"healthy_error_findings", score.healthyErrors},
            {"top1_later_vocabulary", score.top1Later}, {"relabelled_by_later_labels", score.relabelled},
            {"families", families}, {"per_report", reports}};
}

} // namespace stackscope
