// stackscope-cli: the headless console (no Qt). Each command lives in its own file.
#include "app/cli/command.h"

#include "core/util/atomic_file.h"
#include "core/util/build_info.h"
#include "core/util/error.h"
#include "core/util/text_escape.h"

#include <iostream>

int main(int argc, char** argv)
{
    using namespace stackscope::cli;
    CLI::App app {"StackScope: inspect, probe and use a PyTorch GPU stack (ROCm or CUDA) from the command line"};
    app.name("stackscope-cli");
    app.set_version_flag("--version", "stackscope-cli " + stackscope::buildDescription());
    app.require_subcommand(1);
    CommandContext ctx;
    addRegisteredCommands(app, ctx);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? ExitOk : ExitUsage;
    } catch (const stackscope::Error& e) {
        // Every StackScope error says whose move it is: bad input (an option, a file, an output path) exits 2, a job
        // that failed on this machine exits 1. Messages quote input files and paths: their control bytes are
        // escaped, never sent to the terminal.
        std::cerr << "stackscope-cli: " << stackscope::escapeMessage(e.what()) << "\n";
        return e.kind() == stackscope::ErrorKind::Input ? ExitUsage : ExitCheckFailed;
    } catch (const std::exception& e) {
        std::cerr << "stackscope-cli: " << stackscope::escapeMessage(e.what()) << "\n";
        return ExitCheckFailed;
    }
    return ctx.exitCode;
}
