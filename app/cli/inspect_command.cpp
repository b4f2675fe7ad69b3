// `stackscope-cli inspect`: the snapshot of this machine (or of a recorded root) as text or JSON.
#include "app/cli/command.h"

#include "core/archscan/snapshot_coverage.h"
#include "core/inspect/inspector.h"
#include "core/snapshot/snapshot_json.h"
#include "core/snapshot/stack_rows.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>

namespace stackscope::cli {

namespace {

void printText(const Snapshot& s)
{
    std::cout << fmt::format("StackScope snapshot {}{}\n\n", s.capturedAt, s.root ? " of recorded root " + *s.root : "");
    std::cout << "GPUs\n";
    if (s.gpus.empty())
        std::cout << "  none visible\n";
    for (const auto& g : s.gpus) {
        std::string vram = g.vramTotalBytes ? formatBytes(*g.vramTotalBytes) : "VRAM unknown";
        if (g.vramUsedBytes)
            vram += fmt::format(" ({} used)", formatBytes(*g.vramUsedBytes));
        std::cout << fmt::format("  [{}] {} {}  {}  {}  {}  driver {}  (from {})\n", g.index, g.vendor, g.name,
                                 g.arch.value_or("arch unknown"), vram, g.pciBus.value_or("bus unknown"),
                                 g.driverVersion.value_or("-"), g.source);
    }
    std::cout << "\nStack\n";
    for (const auto& r : stackRows(s)) {
        std::cout << fmt::format("  {:<18} {:<28} {:<8} {}{}\n", r.component, r.version, stackStatusName(r.status),
                                 r.location, r.note.empty() ? "" : "  (" + r.note + ")");
    }
    std::cout << "\nDevice access\n";
    auto node = [](const DeviceNode& n) {
        if (!n.exists)
            return fmt::format("  {} absent\n", n.path);
        return fmt::format("  {} mode {} group {} read-write {}\n", n.path, n.mode.value_or("?"), n.group.value_or("?"),
                           n.readWrite ? (*n.readWrite ? "yes" : "NO") : "unknown");
    };
    std::cout << node(s.access.kfd);
    for (const auto& r : s.access.renderNodes)
        std::cout << node(r);
    std::cout << fmt::format("  user {} in groups: {}\n", s.access.user.value_or("?"), fmt::join(s.access.userGroups, ", "));
    std::cout << "\nEnvironment (GPU-related, set)\n";
    if (s.env.empty())
        std::cout << "  none set\n";
    for (const auto& [k, v] : s.env)
        std::cout << fmt::format("  {}={}\n", k, v);
    std::cout << "\nFindings\n";
    if (s.findings.empty())
        std::cout << "  none\n";
    for (const auto& f : s.findings) {
        std::cout << fmt::format("  [{}] {}: {}\n      {}\n      Fix: {}\n      Sources: {}\n", severityName(f.severity), f.id,
                                 f.title, f.detail, f.fix, fmt::join(f.sources, "; "));
    }
    std::cout << "\n" << stackSummary(s) << "\n";
}

} // namespace

namespace {

void addInspectCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand("inspect", "Show the GPUs, ROCm/CUDA/libtorch versions, device access and findings");
    struct Options {
        bool json = false;
        bool noArchscan = false;
        std::string root;
        std::string out;
    };
    auto opts = std::make_shared<Options>();
    cmd->add_flag("--json", opts->json, "Print the snapshot as JSON (schema stackscope.snapshot/1)");
    cmd->add_option("--root", opts->root,
                    "Read file-based facts (/opt, /sys, /proc, /etc, /dev listing) under DIR instead of /; "
                    "run-time library facts are then null");
    cmd->add_option("--out", opts->out, "Also write the JSON snapshot to FILE (atomically)");
    cmd->add_flag("--no-archscan", opts->noArchscan,
                  "Skip the kernel coverage scan (arch_coverage is then null); it takes a few seconds on large libraries");
    cmd->callback([opts, &ctx] {
        InspectOptions o;
        if (!opts->root.empty()) {
            std::error_code ec;
            if (!std::filesystem::is_directory(opts->root, ec))
                throw UsageError(fmt::format("--root {}: not a folder; give the folder of a recorded machine "
                                             "(see packaging/record-root.sh)", opts->root));
            o.root = opts->root;
        }
        Snapshot s = inspectMachine(o);
        if (!opts->noArchscan)
            archscan::addArchCoverage(s);
        if (!opts->out.empty())
            saveSnapshotFile(s, opts->out);
        if (opts->json)
            std::cout << toJson(s).dump(2) << "\n";
        else
            printText(s);
        ctx.exitCode = ExitOk;
    });
}

const CommandRegistration registration {"inspect", 10, &addInspectCommand};

} // namespace

} // namespace stackscope::cli
