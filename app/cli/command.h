// What every stackscope-cli command shares: exit codes, the usage error, registration.
#pragma once

#include "core/util/error.h"

#include <CLI/CLI.hpp>

#include <stdexcept>
#include <string>

namespace stackscope::cli {

enum ExitCode { ExitOk = 0, ExitCheckFailed = 1, ExitUsage = 2 };

// Bad usage or bad input: main prints the message on stderr and exits 2.
class UsageError : public Error {
public:
    explicit UsageError(const std::string& what)
        : Error(what, ErrorKind::Input)
    {
    }
};

struct CommandContext {
    int exitCode = ExitOk;
};

// Each command file registers itself with a static CommandRegistration, so a new command needs no
// edit elsewhere: `static const CommandRegistration reg {"inspect", 10, &addInspectCommand};`.
// `order` sorts the commands in --help.
using CommandAdder = void (*)(CLI::App& app, CommandContext& ctx);
struct CommandRegistration {
    CommandRegistration(const char* name, int order, CommandAdder add);
};
// Adds every registered command to the app, in order.
void addRegisteredCommands(CLI::App& app, CommandContext& ctx);

// `stackscope-cli bench <name>`: each benchmark file registers itself the same way; its adder
// receives the `bench` subcommand as `app`.
struct BenchRegistration {
    BenchRegistration(const char* name, int order, CommandAdder add);
};
void addRegisteredBenchmarks(CLI::App& bench, CommandContext& ctx);

} // namespace stackscope::cli
