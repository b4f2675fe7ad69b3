// `stackscope-cli bench diagnose`: the diagnosis rules scored on real bug reports (tests/fixtures/reports):
// top-1 and top-3 accuracy against each thread's cause, error findings on healthy texts, per family.
#include "app/cli/command.h"

#include "core/diagnosis/log_diagnosis.h"
#include "core/diagnosis/report_corpus.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <chrono>
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
    std::cout << fmt::format("bench diagnose: {} reports from {} ({:.3f} s)\n", s.scored, corpus, seconds);
    std::cout << fmt::format("  top-1 {}/{} = {:.1f} %   top-3 {}/{} = {:.1f} %\n", s.top1, s.scored,
                             percent(s.top1, s.scored), s.top3, s.scored, percent(s.top3, s.scored));
    std::cout << fmt::format("  healthy texts: {}, error findings on them: {}\n\n", s.healthy, s.healthyErrors);
    std::cout << fmt::format("  {:<30} {:>7} {:>6} {:>6}\n", "family", "reports", "top-1", "top-3");
    for (const auto& [name, f] : s.families)
        std::cout << fmt::format("  {:<30} {:>7} {:>6} {:>6}\n", name, f.reports, f.top1, f.top3);
    std::cout << "\n  misses (expected -> ranked claims):\n";
    for (const auto& r : s.reports) {
        if (r.top1)
            continue;
        std::cout << fmt::format("    {}: {} -> [{}]{}\n", r.name, r.expectedRule.value_or("(no claim)"),
                                 fmt::join(r.ranked, ", "), r.top3 ? " (top-3)" : "");
    }
}

void addBenchDiagnose(CLI::App& bench, CommandContext& ctx)
{
    auto* cmd = bench.add_subcommand("diagnose", "Score the diagnosis rules on real bug reports (top-1/top-3, false errors)");
    auto corpus = std::make_shared<std::string>("tests/fixtures/reports");
    auto json = std::make_shared<bool>(false);
    auto rulesFile = std::make_shared<std::string>();
    auto noFacts = std::make_shared<bool>(false);
    cmd->add_option("--corpus", *corpus, "Folder of NN_name/{report.txt,expected.json} (default: tests/fixtures/reports)");
    cmd->add_flag("--json", *json, "Print the score as JSON (schema stackscope.bench-diagnose/1)");
    cmd->add_option("--rules", *rulesFile, "Score this rules file instead of the built-in rules (e.g. an older version)");
    cmd->add_flag("--no-facts", *noFacts, "Diagnose the text alone, without the facts it states (the engine before issue 22)");
    cmd->callback([corpus, json, rulesFile, noFacts, &ctx] {
        std::vector<CorpusReport> reports;
        try {
            reports = loadReportCorpus(*corpus);
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
        const auto t0 = std::chrono::steady_clock::now();
        const auto score = scoreCorpus(reports, [&](const CorpusReport& r) {
            return diagnoseLogText(r.text, r.name, rules, !*noFacts).findings;
        });
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (*json) {
            auto j = corpusScoreToJson(score);
            j["corpus"] = *corpus;
            j["seconds"] = s;
            j["rules"] = rulesFile->empty() ? "built in" : *rulesFile;
            j["facts"] = !*noFacts;
            std::cout << j.dump(2) << "\n";
        } else {
            printScore(score, *corpus, s);
        }
        ctx.exitCode = ExitOk;
    });
}

const BenchRegistration registration {"diagnose", 40, &addBenchDiagnose};

} // namespace

} // namespace stackscope::cli
