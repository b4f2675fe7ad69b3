// `stackscope-cli train-rank`: one rank of a run the launcher (core/training/training_launch.cpp) started; rank 0
// prints the trainer's events as JSON lines for the launcher, every rank prints its errors on stderr.
#include "app/cli/command.h"
#include "core/util/environment.h"

#include "core/training/training_launch.h"
#include "core/training/training_run.h"
#include "core/util/file_read.h"
#include "core/util/program_paths.h"
#include "core/vpoc/market_data.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <sys/prctl.h>
#include <unistd.h>

namespace stackscope::cli {

namespace {

CancelToken g_stop; // made before main(), so the handler below only sets its flag

extern "C" void requestStop(int)
{
    g_stop.cancel();
}

// The launcher's SIGTERM (its cancel) becomes the run's agreed stop; a launcher that dies takes its ranks along.
void followLauncher()
{
    std::signal(SIGTERM, requestStop);
    std::signal(SIGINT, requestStop);
    if (const std::string pid = envValue(EnvVar::LauncherPid); !pid.empty()) {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (std::to_string(::getppid()) != pid) // it died before prctl took effect
            g_stop.cancel();
    }
}

void printEvent(const training::TrainingProgress& p)
{
    nlohmann::json line = p.raw;
    if (line.is_null()) // a note from the core (a lock taken over), not from the trainer
        line = {{"event", "note"}, {"message", p.message}};
    std::cout << line.dump() << std::endl;
}

void addTrainRankCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand(kTrainRankEntry, "Internal: one rank of `train` with several processes");
    cmd->group(""); // hidden from --help: people use `train`
    auto config = std::make_shared<std::string>();
    cmd->add_option("--config", *config, "The run's configuration (JSON, written by the launcher)")->required();
    cmd->callback([config, &ctx] {
        // The launcher writes a few KiB; a FIFO, a device or a huge file is no configuration of its.
        std::string why;
        const auto text = readRegularFile(*config, 1u << 20, &why);
        if (!text)
            throw UsageError(fmt::format("--config {}: {}; train-rank reads the small JSON file `train` writes, "
                                         "start the run with `stackscope-cli train`", *config, why));
        const auto j = nlohmann::json::parse(*text, nullptr, false);
        if (j.is_discarded())
            throw UsageError(fmt::format("--config {}: not a JSON configuration; train-rank is started by `train`",
                                         *config));
        followLauncher();
        try {
            const auto c = training::configFromJson(j);
            const auto env = training::rankEnvironment();
            if (!env)
                throw UsageError("train-rank needs RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT; use `train`");
            training::runTraining(c, env->rank == 0 ? training::TrainingProgressCallback(printEvent)
                                                    : training::TrainingProgressCallback(),
                                  g_stop);
        } catch (const training::ConfigError& e) {
            throw UsageError(e.what());
        } catch (const vpoc::InputError& e) {
            throw UsageError(e.what());
        }
        ctx.exitCode = ExitOk;
    });
}

const CommandRegistration registration {kTrainRankEntry, 46, &addTrainRankCommand};

} // namespace

} // namespace stackscope::cli
