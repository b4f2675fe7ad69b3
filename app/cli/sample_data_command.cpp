// `stackscope-cli sample-data`: writes the synthetic ES dataset (bars or trades) used as the console's default.
#include "app/cli/command.h"

#include "core/util/atomic_file.h"
#include "core/vpoc/sample_data.h"

#include <fmt/format.h>

#include <iostream>

namespace stackscope::cli {

namespace {

void addSampleDataCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand("sample-data", "Write synthetic ES futures data (1-minute bars or trades), "
                                                  "deterministic per seed");
    struct Options {
        std::string out;
        int days = 20;
        uint64_t seed = 1;
        bool trades = false;
    };
    auto o = std::make_shared<Options>();
    cmd->add_option("--out", o->out, "File to write (replaced atomically)")->required();
    cmd->add_option("--days", o->days, "Trading days (Monday to Friday)");
    cmd->add_option("--seed", o->seed, "Random seed: the same seed gives the same file");
    cmd->add_flag("--trades", o->trades, "Trades (timestamp,price,size) instead of 1-minute bars");
    cmd->callback([o, &ctx] {
        vpoc::SampleDataOptions s;
        s.days = o->days;
        s.seed = o->seed;
        s.trades = o->trades;
        std::string text;
        try {
            text = vpoc::generateSampleData(s);
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
        writeFileAtomically(o->out, text);
        std::cerr << fmt::format("wrote {} ({} bytes, synthetic)\n", o->out, text.size());
        ctx.exitCode = ExitOk;
    });
}

const CommandRegistration registration {"sample-data", 80, &addSampleDataCommand};

} // namespace

} // namespace stackscope::cli
