// `stackscope-cli archscan`: which GPU architectures each library carries and whether they cover the GPUs.
#include "app/cli/command.h"

#include "core/archscan/arch_scan.h"
#include "core/archscan/coverage.h"
#include "core/archscan/mapped_file.h"
#include "core/inspect/inspector.h"
#include "core/util/text_escape.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <iostream>
#include <sys/stat.h>

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
            std::cout << fmt::format("  targets: {}\n", escapeControl(fmt::format("{}", fmt::join(ids, " "))));
        }
        if (l.targetsNotKept > 0)
            std::cout << fmt::format("  ... and {} more distinct targets, not listed (more than {} is a damaged file)\n",
                                     l.targetsNotKept, l.targets.size());
        for (const auto& [d, v] : l.covers) {
            std::cout << fmt::format("  {:<24} {}\n", d, coverageName(v.coverage));
            if (!v.explanation.empty())
                std::cout << fmt::format("      {}\n", v.explanation);
        }
        for (const auto& e : l.errors)
            std::cout << fmt::format("  error: {}\n", escapeControl(e)); // errors quote the file's bytes
        if (l.errorsNotKept > 0)
            std::cout << fmt::format("  ... and {} more errors\n", l.errorsNotKept);
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
    std::vector<std::string> unreadable;
    for (const auto& l : c.libraries)
        if (l.unreadable)
            unreadable.push_back(escapeControl(l.path));
    if (!unreadable.empty())
        std::cout << fmt::format("\nNot read whole (unreadable, damaged or changed while read), so whether they cover "
                                 "the devices is not known: {}\n", fmt::join(unreadable, ", "));
    if (c.devices.empty())
        std::cout << "\nNo GPU detected and no --arch given: nothing was checked (add --arch gfx1100, sm_90 ...).\n";
    else if (!unreadable.empty() && !c.anyUncovered())
        std::cout << "\nEvery device is covered by every library that could be read; see above for those that could not.\n";
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
    cmd->footer("Exit codes: 0 every device covered, 1 a device or --arch is not covered by a scanned library or a file "
                "could not be read whole (listed as such), 2 bad usage (a FIFO or device instead of a library).");
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
            // A FIFO would block the read until a writer came; a device is no library.
            struct stat st {};
            if (::stat(p.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
                throw UsageError(fmt::format("{} is {}, not a library; give a library (.so), a program or a folder",
                                             p, fileTypeName(st.st_mode)));
        }
        const Snapshot s = inspectMachine(InspectOptions {});
        CoverageRequest req;
        req.paths = opts->paths;
        req.devices = opts->archs;
        const ArchCoverage result = scanCoverage(s, req);
        if (opts->json) // bundle ids come from the file: bytes that are not UTF-8 become U+FFFD
            std::cout << toJson(result).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        else
            printText(result);
        // A file that could not be read whole covers nothing for certain: a failed check.
        ctx.exitCode = result.anyUncovered() || result.anyUnreadable() ? ExitCheckFailed : ExitOk;
    });
}

const CommandRegistration registration {"archscan", 20, &addArchscanCommand};

} // namespace

} // namespace stackscope::cli
