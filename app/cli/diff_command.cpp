// `stackscope-cli diff A B`: the differences that matter between two snapshots or reports, then the values one side
// does not know (not counted); exit 1 when a difference matters. The GUI's Compare shows the same rows.
#include "app/cli/command.h"

#include "core/report/report_loader.h"
#include "core/report/snapshot_diff.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>

namespace stackscope::cli {

namespace {

report::LoadedReport load(const std::string& path, const char* which)
{
    try {
        return report::loadReport(path);
    } catch (const report::ReportError& e) {
        throw UsageError(fmt::format("{}: {}", which, e.what()));
    }
}

// "7 differences that matter; 14 values unknown on one side, listed below them and not counted" (Compare's words).
std::string countsLine(std::size_t matter, std::size_t unknown)
{
    std::string line = matter == 0 ? "No difference that matters"
                                   : fmt::format("{} difference{} that matter{}", matter, matter == 1 ? "" : "s",
                                                 matter == 1 ? "s" : "");
    if (unknown > 0)
        line += fmt::format("; {} value{} unknown on one side (not recorded, not read or not queried), listed {} and "
                            "not counted", unknown, unknown == 1 ? "" : "s", matter == 0 ? "above" : "below them");
    return line;
}

// The rows that matter, then those unknown on one side under their own heading; then the counts.
void printTable(const std::string& a, const std::string& b, const std::vector<report::DiffRow>& rows, std::size_t matter)
{
    if (rows.empty()) {
        std::cout << fmt::format("No differences that matter between {} and {}.\n", a, b);
        return;
    }
    std::size_t wArea = 4, wItem = 4, wA = 1;
    for (const auto& r : rows) {
        wArea = std::max(wArea, r.area.size());
        wItem = std::max(wItem, std::min<std::size_t>(r.item.size(), 48));
        wA = std::max(wA, std::min<std::size_t>(r.a.size(), 48));
    }
    std::cout << fmt::format("A: {}\nB: {}\n\n", a, b);
    std::cout << fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", "area", wArea, "item", wItem, "A", wA, "B");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        if (i == matter)
            std::cout << fmt::format("{}unknown on one side, not counted:\n", matter == 0 ? "" : "\n");
        std::cout << fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", r.area, wArea, r.item, wItem, r.a, wA, r.b);
    }
    std::cout << "\n" << countsLine(matter, rows.size() - matter) << "\n";
}

void addDiffCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand("diff", "Compare two snapshots or reports (versions, GPUs, libraries, environment, "
                                           "access, coverage); exit 1 when they differ");
    struct Options {
        std::string a;
        std::string b;
        bool json = false;
    };
    auto opts = std::make_shared<Options>();
    cmd->add_option("A", opts->a, "Snapshot JSON, report.json, a report folder or its .zip")->required();
    cmd->add_option("B", opts->b, "The same kinds as A")->required();
    cmd->add_flag("--json", opts->json,
                  "Print {\"a\", \"b\", \"equal\", \"matter\", \"unknown\", \"differences\": [{area, item, a, b, matters, "
                  "a_unknown, b_unknown}]}");
    cmd->callback([opts, &ctx] {
        const auto a = load(opts->a, "A");
        const auto b = load(opts->b, "B");
        const auto rows = report::diffSnapshots(a.snapshot, b.snapshot);
        const std::size_t matter = report::countThatMatter(rows);
        if (opts->json) {
            nlohmann::json j {{"a", opts->a}, {"b", opts->b}, {"equal", matter == 0}, {"matter", matter},
                              {"unknown", rows.size() - matter}, {"differences", report::diffToJson(rows)}};
            std::cout << j.dump(2) << "\n";
        } else {
            printTable(opts->a, opts->b, rows, matter);
        }
        ctx.exitCode = matter == 0 ? ExitOk : ExitCheckFailed;
    });
}

const CommandRegistration registration {"diff", 75, &addDiffCommand};

} // namespace

} // namespace stackscope::cli
