// The list of stackscope-cli commands, filled by each command file's static registration.
#include "app/cli/command.h"

#include <algorithm>
#include <vector>

namespace stackscope::cli {

namespace {
struct Entry {
    const char* name;
    int order;
    CommandAdder add;
};
std::vector<Entry>& registry()
{
    static std::vector<Entry> entries;
    return entries;
}
std::vector<Entry>& benchRegistry()
{
    static std::vector<Entry> entries;
    return entries;
}
void addSorted(std::vector<Entry> entries, CLI::App& app, CommandContext& ctx)
{
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.order < b.order; });
    for (const auto& e : entries)
        e.add(app, ctx);
}
} // namespace

CommandRegistration::CommandRegistration(const char* name, int order, CommandAdder add)
{
    registry().push_back({name, order, add});
}

void addRegisteredCommands(CLI::App& app, CommandContext& ctx)
{
    addSorted(registry(), app, ctx);
}

BenchRegistration::BenchRegistration(const char* name, int order, CommandAdder add)
{
    benchRegistry().push_back({name, order, add});
}

void addRegisteredBenchmarks(CLI::App& bench, CommandContext& ctx)
{
    addSorted(benchRegistry(), bench, ctx);
}

} // namespace stackscope::cli
