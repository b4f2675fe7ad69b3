// Coverage verdicts and HSA_OVERRIDE_GFX_VERSION effects.
#include "core/archscan/coverage.h"

#include "core/archscan/target_id.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace stackscope::archscan {

namespace {

bool isAmdLibrary(const LibraryScan& l) { return l.kind != LibraryKind::Cuda; }

std::string whatFails(LibraryKind kind, const std::string& device)
{
    switch (kind) {
    case LibraryKind::Hip:
        return fmt::format("its kernels fail on {} with 'HIP error: invalid device function' or 'no kernel image is "
                           "available for execution on the device'", device);
    case LibraryKind::Tensile:
        return fmt::format("rocBLAS/hipBLASLt find no kernels for {} ('No paths matched ...*{}*co', 'Could not "
                           "initialize Tensile'); PyTorch matmuls then fail or fall back", device, device);
    case LibraryKind::Miopen:
        return fmt::format("MIOpen has no precompiled kernel database for {}: convolution kernels are compiled at "
                           "first use (slow first run) or fail if MIOpen does not support {}", device, device);
    case LibraryKind::Cuda:
        return fmt::format("its kernels fail on {} with 'no kernel image is available for execution on the device'", device);
    }
    return {};
}

std::string featureText(const std::map<std::string, std::string>& f)
{
    std::string s;
    for (const auto& [k, v] : f)
        s += ":" + k + v;
    return s;
}

// Why a target's features forbid the device; empty when they allow it. `assumed` collects features
// the device did not state.
std::string featureConflict(const ScannedTarget& t, const AmdTargetId& dev, std::vector<std::string>& assumed)
{
    for (const auto& [f, v] : t.features) {
        const auto it = dev.features.find(f);
        if (it == dev.features.end()) {
            assumed.push_back(f + v);
            continue;
        }
        if (it->second != v)
            return fmt::format("{} code does not run on a {}{} device", f + v, f, it->second);
    }
    return {};
}

DeviceCoverage judgeAmd(const LibraryScan& lib, const AmdTargetId& dev, const std::string& device)
{
    std::vector<std::string> conflicts;
    std::vector<std::string> assumed;
    for (const auto& t : lib.targets) {
        if (t.arch != dev.processor)
            continue;
        std::vector<std::string> a;
        const std::string c = featureConflict(t, dev, a);
        if (c.empty()) {
            DeviceCoverage d {Coverage::Yes, {}};
            if (!a.empty())
                d.explanation = fmt::format("covered by {} assuming the device runs with {} (the device name does not say)",
                                            t.id, fmt::join(a, ", "));
            return d;
        }
        conflicts.push_back(fmt::format("{}: {}", t.id, c));
    }
    for (const auto& t : lib.targets) {
        const auto& members = genericTargetMembers(t.arch);
        if (std::find(members.begin(), members.end(), dev.processor) == members.end())
            continue;
        if (!featureConflict(t, dev, assumed).empty())
            continue;
        return {Coverage::Generic,
                fmt::format("only the generic target {} covers {}: it runs, possibly slower than code built for {}; "
                            "for full speed install a build that includes {}", t.id, dev.processor, dev.processor, dev.processor)};
    }
    if (!conflicts.empty())
        return {Coverage::No,
                fmt::format("{} carries {} only, and {}: {}. Fix: switch the device's XNACK mode (HSA_XNACK=1 for "
                            "xnack+, unset for xnack-) or install a build for {}", libraryKindName(lib.kind),
                            fmt::join(conflicts, "; "), whatFails(lib.kind, device), device, dev.processor)};
    return {Coverage::No,
            fmt::format("no code for {}: {}. Fix: install a build that includes {} (compare the device's gcnArchName with "
                        "this list){}", dev.processor, whatFails(lib.kind, device), dev.processor,
                        processorToOverride(dev.processor) ? "; see the HSA_OVERRIDE_GFX_VERSION note for a last resort" : "")};
}

bool archLessEqual(const CudaArch& a, const CudaArch& b)
{
    return a.major < b.major || (a.major == b.major && a.minor <= b.minor);
}

DeviceCoverage judgeCuda(const LibraryScan& lib, const CudaArch& dev, const std::string& device)
{
    std::optional<std::string> ptx;
    for (const auto& t : lib.targets) {
        const auto a = parseCudaArch(t.id);
        if (!a)
            continue;
        bool runs = false;
        if (a->suffix == 'a')
            runs = a->major == dev.major && a->minor == dev.minor;
        else if (t.format == CodeFormat::Sass)
            runs = a->major == dev.major && a->minor <= dev.minor; // SASS: same major (and family for 'f')
        else
            runs = a->suffix == 'f' ? a->major == dev.major && a->minor <= dev.minor : archLessEqual(*a, dev);
        if (!runs)
            continue;
        if (t.format == CodeFormat::Sass)
            return {Coverage::Yes, {}};
        if (!ptx)
            ptx = t.id;
    }
    if (ptx)
        return {Coverage::Ptx,
                fmt::format("no SASS for {}: the driver JIT-compiles the PTX {} at first use (slow start, cached in "
                            "~/.nv/ComputeCache; fails if the driver is older than the PTX). For native code install a "
                            "build whose arch list includes {}", device, *ptx, cudaArchName(dev, "sm_"))};
    return {Coverage::No,
            fmt::format("no SASS for {} and no PTX at or below it: {}. Fix: install a build whose arch list includes {} "
                        "(PyTorch: a wheel whose torch.cuda.get_arch_list() names it)", device, whatFails(lib.kind, device),
                        cudaArchName(dev, "sm_"))};
}

// The override that maps a device onto its family's first member (gfx1031 -> 10.3.0, gfx1101 -> 11.0.0).
std::optional<std::string> familyBase(const std::string& processor)
{
    if (!isAmdProcessorName(processor) || !genericTargetMembers(processor).empty())
        return std::nullopt;
    std::string base = processor;
    base.back() = '0';
    if (base == processor)
        return std::nullopt;
    return base;
}

} // namespace

bool isValidDeviceName(const std::string& device)
{
    if (const auto a = parseAmdTargetId(device))
        return genericTargetMembers(a->processor).empty();
    const auto c = parseCudaArch(device);
    return c && device.compare(0, 3, "sm_") == 0;
}

bool sameVendor(const LibraryScan& library, const std::string& device)
{
    const bool amdDevice = device.compare(0, 3, "gfx") == 0;
    return amdDevice == isAmdLibrary(library);
}

DeviceCoverage judgeCoverage(const LibraryScan& library, const std::string& device)
{
    if (const auto amd = parseAmdTargetId(device))
        return judgeAmd(library, *amd, device);
    if (const auto cuda = parseCudaArch(device))
        return judgeCuda(library, *cuda, device);
    return {Coverage::No, fmt::format("{} is not a GPU architecture name StackScope knows (gfxNNNN or sm_NN)", device)};
}

void applyCoverage(ArchCoverage& result, const std::optional<std::string>& overrideValue)
{
    for (auto& lib : result.libraries) {
        lib.covers.clear();
        // A library that could not be read at all has no verdict: its error says why.
        if (lib.targets.empty() && !lib.errors.empty())
            continue;
        for (const auto& d : result.devices)
            if (sameVendor(lib, d))
                lib.covers[d] = judgeCoverage(lib, d);
    }
    result.overrides.clear();
    for (const auto& d : result.devices) {
        const auto dev = parseAmdTargetId(d);
        if (!dev)
            continue;
        OverrideEffect e;
        e.device = d;
        if (overrideValue) {
            const auto reported = overrideToProcessor(*overrideValue);
            if (!reported)
                continue;
            e.overrideValue = *overrideValue;
            e.reportedArch = *reported;
            e.inEffect = true;
        } else {
            const auto base = familyBase(dev->processor);
            if (!base)
                continue;
            e.reportedArch = *base;
            e.overrideValue = processorToOverride(*base).value_or("");
        }
        std::string spoofed = e.reportedArch + featureText(dev->features);
        for (const auto& lib : result.libraries) {
            const auto it = lib.covers.find(d);
            if (it == lib.covers.end() || it->second.coverage == Coverage::Yes)
                continue;
            if (judgeCoverage(lib, spoofed).coverage == Coverage::Yes)
                e.newlyCovered.push_back(lib.path);
        }
        if (e.inEffect || !e.newlyCovered.empty())
            result.overrides.push_back(std::move(e));
    }
}

} // namespace stackscope::archscan
