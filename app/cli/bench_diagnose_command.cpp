// `stackscope-cli bench diagnose`: the diagnosis rules scored on real bug reports (tests/fixtures/reports):
// top-1 and top-3 accuracy against each thread's cause, error findings on healthy texts, per family.
#include "app/cli/command.h"

#include "core/diagnosis/log_diagnosis.h"
#include "core/diagnosis/report_corpus.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <optional>
#include <iostream>

namespace stackscope::cli {

namespace {

double percent(int part, int whole)
{
    return whole ? 100.0 * part / whole : 0.0;
}

void printScore(const CorpusScore& s, const std::string& corpus, double seconds)
{
    int other = 0;
    for (const auto& r : s.reports)
        other += r.expectedRule == std::optional<std::string>(kCauseOutsideRules) ? 1 : 0;
    std::cout << fmt::format("bench diagnose: {} reports from {} ({:.3f} s); {} with a cause no id names (OTHER: right "
                             "when nothing is claimed)\n", s.scored, corpus, seconds, other);
    std::cout << fmt::format("  top-1 {}/{} = {:.1f} %   top-3 {}/{} = {:.1f} %\n", s.top1, s.scored,
                             percent(s.top1, s.scored), s.top3, s.scored, percent(s.top3, s.scored));
    if (s.relabelled)
        std::cout << fmt::format("  top-1 under the later vocabulary ({} OTHER threads relabelled blind): {}/{} = {:.1f} %\n",
                                 s.relabelled, s.top1Later, s.scored, percent(s.top1Later, s.scored));
    std::cout << fmt::format("  healthy texts: {}, error findings on them: {}\n\n", s.healthy, s.healthyErrors);
    std::cout << fmt::format("  {:<30} {:>7} {:>6} {:>6}\n", "family", "reports", "top-1", "top-3");
    for (const auto& [name, f] : s.families)
        std::cout << fmt::format("  {:<30} {:>7} {:>6} {:>6}\n", name, f.reports, f.top1, f.top3);
    std::cout << "\n  misses (expected -> ranked findings):\n";
    for (const auto& r : s.reports) {
        if (r.top1)
            continue;
        std::cout << fmt::format("    {}: {} -> [{}]{}\n", r.name, r.expectedRule.value_or("(no claim)"),
                                 fmt::join(r.ranked, ", "), r.top3 ? " (top-3)" : "");
    }
}

// The blind labels of OTHER threads under later ids, used when --later-labels is not given and the file is there.
std::string defaultLaterLabels()
{
    std::error_code ec;
    const std::string path = "tests/fixtures/diagnosis/later-labels.tsv";
    return std::filesystem::is_regular_file(path, ec) ? path : std::string();
}

// The corpora scored when --corpus is not given: the seen part, then the held-out part (issue 32) when present.
std::vector<std::string> defaultCorpora()
{
    std::vector<std::string> out {"tests/fixtures/reports"};
    std::error_code ec;
    if (std::filesystem::is_directory("tests/fixtures/reports-heldout", ec))
        out.push_back("tests/fixtures/reports-heldout");
    return out;
}

void addBenchDiagnose(CLI::App& bench, CommandContext& ctx)
{
    auto* cmd = bench.add_subcommand("diagnose", "Score the diagnosis rules on real bug reports (top-1/top-3, false errors)");
    auto corpora = std::make_shared<std::vector<std::string>>();
    auto json = std::make_shared<bool>(false);
    auto rulesFile = std::make_shared<std::string>();
    auto noFacts = std::make_shared<bool>(false);
    auto laterLabels = std::make_shared<std::string>(defaultLaterLabels());
    cmd->add_option("--corpus", *corpora, "Folder of NN_name/{report.txt,expected.json}; repeat for several, each scored "
                                          "apart (default: tests/fixtures/reports, then tests/fixtures/reports-heldout)");
    cmd->add_flag("--json", *json, "Print the scores as JSON (schema stackscope.bench-diagnose/2: one entry per corpus)");
    cmd->add_option("--rules", *rulesFile, "Score this rules file, or a folder laid out like resources/rules (diagnosis.json, catalogues/*.json), instead of the built-in rules (an older version, a draft)");
    cmd->add_flag("--no-facts", *noFacts, "Diagnose the text alone, without the facts it states (the engine before issue 22)");
    cmd->add_option("--later-labels", *laterLabels, "Also score OTHER threads under the labels this file gives them with "
                                                   "ids added later (default: tests/fixtures/diagnosis/later-labels.tsv when present; '' for none)");
    cmd->callback([corpora, json, rulesFile, noFacts, laterLabels, &ctx] {
        const auto folders = corpora->empty() ? defaultCorpora() : *corpora;
        std::vector<std::vector<CorpusReport>> reports;
        try {
            for (const auto& folder : folders) {
                reports.push_back(loadReportCorpus(folder));
                if (!laterLabels->empty())
                    applyLaterLabels(reports.back(), folder, *laterLabels);
            }
        } catch (const CorpusError& e) {
            throw UsageError(e.what());
        }
        std::optional<DiagnosisRules> custom;
        if (!rulesFile->empty()) {
            try {
                custom = DiagnosisRules::fromFile(*rulesFile);
            } catch (const DiagnosisRulesError& e) {
                throw UsageError(e.what());
            }
        }
        const DiagnosisRules& rules = custom ? *custom : DiagnosisRules::builtIn();
        nlohmann::json all = {{"schema", "stackscope.bench-diagnose/2"}, {"rules", rulesFile->empty() ? "built in" : *rulesFile},
                              {"facts", !*noFacts}, {"corpora", nlohmann::json::array()}};
        for (std::size_t i = 0; i < folders.size(); ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            const auto score = scoreCorpus(reports[i], [&](const CorpusReport& r) {
                return diagnoseLogText(r.text, r.name, rules, !*noFacts).findings;
            }, rules);
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (*json) {
                auto j = corpusScoreToJson(score);
                j["corpus"] = folders[i];
                j["seconds"] = s;
                all["corpora"].push_back(std::move(j));
            } else {
                printScore(score, folders[i], s);
            }
        }
        if (*json)
            std::cout << all.dump(2) << "\n";
        ctx.exitCode = ExitOk;
    });
}

const BenchRegistration registration {"diagnose", 40, &addBenchDiagnose};

} // namespace

} // namespace stackscope::cli
