// stackscope-cli: the headless console (no Qt). Each command lives in its own file.
#include "app/cli/command.h"

#include "core/util/atomic_file.h"
#include "core/util/build_info.h"
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
    } catch (const stackscope::FileWriteError& e) {
        // An output path that cannot be written is bad input: the message names the path and why.
        // Messages quote input files and paths: their control bytes are escaped, never sent to the terminal.
        std::cerr << "stackscope-cli: " << stackscope::escapeMessage(e.what()) << "\n";
        return ExitUsage;
    } catch (const UsageError& e) {
        std::cerr << "stackscope-cli: " << stackscope::escapeMessage(e.what()) << "\n";
        return ExitUsage;
    } catch (const std::exception& e) {
        std::cerr << "stackscope-cli: " << stackscope::escapeMessage(e.what()) << "\n";
        return ExitCheckFailed;
    }
    return ctx.exitCode;
}
