// `stackscope-cli bench <name>`: performance figures for tests/bench/RESULTS.md (never asserted in tests).
#include "app/cli/command.h"

namespace stackscope::cli {

namespace {

void addBenchCommand(CLI::App& app, CommandContext& ctx)
{
    auto* bench = app.add_subcommand("bench", "Measure performance (figures for tests/bench/RESULTS.md)");
    bench->require_subcommand(1);
    addRegisteredBenchmarks(*bench, ctx);
}

const CommandRegistration registration {"bench", 90, &addBenchCommand};

} // namespace

} // namespace stackscope::cli
