// `stackscope-cli archscan`: which GPU architectures each library carries and whether they cover the GPUs.
#include "app/cli/command.h"

#include "core/archscan/arch_scan.h"
#include "core/archscan/coverage.h"
#include "core/inspect/inspector.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <iostream>

namespace stackscope::cli {

namespace {

using namespace stackscope::archscan;

void printText(const ArchCoverage& c)
{
    std::cout << fmt::format("Devices: {}\n", c.devices.empty() ? "none detected (add --arch ARCH)" : fmt::format("{}", fmt::join(c.devices, ", ")));
    for (const auto& l : c.libraries) {
        std::cout << fmt::format("\n{}  [{}]\n", l.path, libraryKindName(l.kind));
        if (!l.targets.empty()) {
            std::vector<std::string> ids;
            for (const auto& t : l.targets) {
                std::string s = t.id;
                if (t.format == CodeFormat::Ptx)
                    s += " (ptx)";
                if (t.compressed)
                    s += " (compressed)";
                if (std::find(ids.begin(), ids.end(), s) == ids.end())
                    ids.push_back(s);
            }
            std::cout << fmt::format("  targets: {}\n", fmt::join(ids, " "));
        }
        for (const auto& [d, v] : l.covers) {
            std::cout << fmt::format("  {:<24} {}\n", d, coverageName(v.coverage));
            if (!v.explanation.empty())
                std::cout << fmt::format("      {}\n", v.explanation);
        }
        for (const auto& e : l.errors)
            std::cout << fmt::format("  error: {}\n", e);
    }
    for (const auto& o : c.overrides) {
        if (o.inEffect)
            std::cout << fmt::format("\nHSA_OVERRIDE_GFX_VERSION={} is set: HIP reports {} as {}{}\n", o.overrideValue, o.device,
                                     o.reportedArch,
                                     o.newlyCovered.empty() ? "" : fmt::format("; that makes these cover it: {}", fmt::join(o.newlyCovered, ", ")));
        else
            std::cout << fmt::format("\nLast resort for {} (unsupported by AMD; can fail with HSA_STATUS_ERROR_OUT_OF_REGISTERS): "
                                     "HSA_OVERRIDE_GFX_VERSION={} makes HIP treat it as {}, which these cover: {}\n",
                                     o.device, o.overrideValue, o.reportedArch, fmt::join(o.newlyCovered, ", "));
    }
    for (const auto& n : c.notes)
        std::cout << fmt::format("\nnote: {}\n", n);
    if (c.devices.empty())
        std::cout << "\nNo GPU detected and no --arch given: nothing was checked (add --arch gfx1100, sm_90 ...).\n";
    else
        std::cout << (c.anyUncovered() ? "\nSome device is NOT covered by a scanned library (see 'no' above).\n"
                                       : "\nEvery device is covered by every scanned library of its vendor.\n");
}

void addArchscanCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand("archscan", "List the GPU architectures each library carries and check them against the GPUs");
    struct Options {
        std::vector<std::string> paths;
        std::vector<std::string> archs;
        bool json = false;
    };
    auto opts = std::make_shared<Options>();
    cmd->add_option("paths", opts->paths,
                    "Libraries, binaries or folders to scan (default: libtorch's GPU library, rocBLAS/hipBLASLt/MIOpen "
                    "folders of the loaded ROCm and of the PyTorch wheel, StackScope's own modules)");
    cmd->add_option("--arch", opts->archs, "Also check this architecture (gfx1100, gfx90a:xnack-, sm_90); repeatable");
    cmd->add_flag("--json", opts->json, "Print the result as JSON (schema stackscope.archscan/1)");
    cmd->footer("Exit codes: 0 every device covered, 1 a device or --arch is not covered by a scanned library, 2 bad usage.");
    cmd->callback([opts, &ctx] {
        for (const auto& a : opts->archs)
            if (!isValidDeviceName(a))
                throw UsageError(fmt::format("--arch {}: not an architecture name; write it like gfx1100, gfx90a:xnack- or sm_90 "
                                             "(rocminfo or nvidia-smi --query-gpu=compute_cap show yours)", a));
        // A path the user named that does not exist is a typo, not a library without GPU code.
        for (const auto& p : opts->paths) {
            std::error_code ec;
            if (!std::filesystem::exists(p, ec))
                throw UsageError(fmt::format("{}: no such file or folder; give a library (.so), a program or a folder "
                                             "such as /opt/rocm/lib/rocblas/library", p));
        }
        const Snapshot s = inspectMachine(InspectOptions {});
        CoverageRequest req;
        req.paths = opts->paths;
        req.devices = opts->archs;
        const ArchCoverage result = scanCoverage(s, req);
        if (opts->json)
            std::cout << toJson(result).dump(2) << "\n";
        else
            printText(result);
        ctx.exitCode = result.anyUncovered() ? ExitCheckFailed : ExitOk;
    });
}

const CommandRegistration registration {"archscan", 20, &addArchscanCommand};

} // namespace

} // namespace stackscope::cli
