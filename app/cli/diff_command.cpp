// `stackscope-cli diff A B`: the differences that matter between two snapshots or reports; exit 1 when they differ.
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
    cmd->add_flag("--json", opts->json, "Print {\"a\", \"b\", \"equal\", \"differences\": [{area, item, a, b}]}");
    cmd->callback([opts, &ctx] {
        const auto a = load(opts->a, "A");
        const auto b = load(opts->b, "B");
        const auto rows = report::diffSnapshots(a.snapshot, b.snapshot);
        if (opts->json) {
            nlohmann::json j {{"a", opts->a}, {"b", opts->b}, {"equal", rows.empty()},
                              {"differences", report::diffToJson(rows)}};
            std::cout << j.dump(2) << "\n";
        } else if (rows.empty()) {
            std::cout << fmt::format("No differences that matter between {} and {}.\n", opts->a, opts->b);
        } else {
            std::size_t wArea = 4, wItem = 4, wA = 1;
            for (const auto& r : rows) {
                wArea = std::max(wArea, r.area.size());
                wItem = std::max(wItem, std::min<std::size_t>(r.item.size(), 48));
                wA = std::max(wA, std::min<std::size_t>(r.a.size(), 48));
            }
            std::cout << fmt::format("A: {}\nB: {}\n\n", opts->a, opts->b);
            std::cout << fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", "area", wArea, "item", wItem, "A", wA, "B");
            for (const auto& r : rows)
                std::cout << fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", r.area, wArea, r.item, wItem, r.a, wA, r.b);
            std::cout << fmt::format("\n{} difference{}\n", rows.size(), rows.size() == 1 ? "" : "s");
        }
        ctx.exitCode = rows.empty() ? ExitOk : ExitCheckFailed;
    });
}

const CommandRegistration registration {"diff", 75, &addDiffCommand};

} // namespace

} // namespace stackscope::cli
