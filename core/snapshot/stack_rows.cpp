// Rows of the stack table and the one-line summary.
#include "core/snapshot/stack_rows.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

namespace stackscope {

const char* stackStatusName(StackStatus s)
{
    switch (s) {
    case StackStatus::Ok: return "ok";
    case StackStatus::Missing: return "missing";
    case StackStatus::Failed: return "failed";
    case StackStatus::NotApplicable: return "n/a";
    }
    return "?";
}

std::string formatBytes(std::uint64_t bytes)
{
    const double gib = static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
    if (gib >= 1.0)
        return fmt::format("{:.1f} GiB", gib);
    return fmt::format("{:.0f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

namespace {

const LibraryStatus* findLibrary(const Snapshot& s, const std::string& component)
{
    for (const auto& l : s.libraries) {
        if (l.component == component)
            return &l;
    }
    return nullptr;
}

// Status of a runtime library row: recorded snapshots have no library records.
StackRow libraryRow(const Snapshot& s, const std::string& component, const std::string& version)
{
    StackRow r;
    r.component = component;
    r.version = version.empty() ? "-" : version;
    const auto* l = findLibrary(s, component);
    if (!l) {
        r.status = StackStatus::NotApplicable;
        r.location = s.root ? "not queried (recorded machine)" : "not queried";
        return r;
    }
    if (!l->loaded) {
        r.status = StackStatus::Missing;
        r.location = l->tried.empty() ? "-" : l->tried.back().path;
        r.note = l->tried.empty() ? std::string() : l->tried.back().error;
        return r;
    }
    r.location = l->path.value_or("-");
    r.status = l->error ? StackStatus::Failed : StackStatus::Ok;
    r.note = l->error.value_or("");
    return r;
}

} // namespace

std::vector<StackRow> stackRows(const Snapshot& s)
{
    std::vector<StackRow> rows;
    rows.push_back({"Operating system", s.host.os.value_or("-"), "/etc/os-release",
                    s.host.os ? StackStatus::Ok : StackStatus::Missing, {}});
    rows.push_back({"Kernel", s.host.kernel.value_or("-"), "/proc/sys/kernel/osrelease",
                    s.host.kernel ? StackStatus::Ok : StackStatus::Missing, {}});
    rows.push_back({"amdgpu driver", s.rocm.amdgpuDriverVersion.value_or("-"), "/sys/module/amdgpu",
                    s.rocm.amdgpuDriverVersion ? StackStatus::Ok : StackStatus::NotApplicable, {}});
    if (s.rocm.installs.empty())
        rows.push_back({"ROCm install", "-", "$ROCM_PATH, /opt/rocm, /opt/rocm-*, /usr", StackStatus::Missing, "none found"});
    for (const auto& i : s.rocm.installs) {
        const bool loaded = s.rocm.loadedPath && s.rocm.loadedPath->rfind(i.path + "/", 0) == 0;
        rows.push_back({"ROCm install", i.version.value_or("-"), i.path, StackStatus::Ok,
                        (i.versionSource.empty() ? std::string() : "version from " + i.versionSource)
                            + (loaded ? "; loaded by this process" : "")});
    }
    rows.push_back(libraryRow(s, "HIP runtime", s.rocm.hipRuntimeVersion
        ? *s.rocm.hipRuntimeVersion + (s.rocm.hipDriverVersion ? " (driver " + *s.rocm.hipDriverVersion + ")" : "") : ""));
    rows.push_back(libraryRow(s, "rocm_smi", ""));
    rows.push_back({"NVIDIA driver", s.cuda.driverVersion.value_or("-"), "/proc/driver/nvidia/version",
                    s.cuda.driverVersion ? StackStatus::Ok : StackStatus::NotApplicable, {}});
    rows.push_back(libraryRow(s, "NVML", s.cuda.cudaDriverVersion ? "CUDA " + *s.cuda.cudaDriverVersion : ""));
    rows.push_back(libraryRow(s, "CUDA runtime", s.cuda.runtimeVersion.value_or("")));
    auto torch = libraryRow(s, "libtorch module", "");
    torch.component = "libtorch";
    if (s.torch.version) {
        torch.version = fmt::format("{} ({}{})", *s.torch.version, s.torch.backend.value_or("?"),
                                    s.torch.builtWith ? " " + *s.torch.builtWith : "");
        torch.location = s.torch.libraryPath.value_or(torch.location);
    }
    rows.push_back(torch);
    if (s.torch.blasBackend)
        rows.push_back({"Preferred BLAS", *s.torch.blasBackend, "at::globalContext().blasPreferredBackend()", StackStatus::Ok, {}});
    return rows;
}

std::string stackSummary(const Snapshot& s)
{
    std::vector<std::string> parts;
    std::set<std::string> archs;
    for (const auto& g : s.gpus) {
        if (g.arch)
            archs.insert(*g.arch);
    }
    if (s.gpus.empty())
        parts.push_back("no GPU");
    else
        parts.push_back(fmt::format("{} GPU{}{}", s.gpus.size(), s.gpus.size() == 1 ? "" : "s",
                                    archs.empty() ? "" : fmt::format(" ({})", fmt::join(archs, ", "))));
    if (s.rocm.hipRuntimeVersion)
        parts.push_back("HIP " + *s.rocm.hipRuntimeVersion);
    else if (!s.rocm.installs.empty() && s.rocm.installs.front().version)
        parts.push_back("ROCm " + *s.rocm.installs.front().version);
    if (s.cuda.driverVersion)
        parts.push_back("NVIDIA " + *s.cuda.driverVersion + (s.cuda.cudaDriverVersion ? " (CUDA " + *s.cuda.cudaDriverVersion + ")" : ""));
    parts.push_back(s.torch.version ? fmt::format("torch {} ({})", *s.torch.version, s.torch.backend.value_or("?"))
                                    : std::string("torch not loaded"));
    const auto errors = std::count_if(s.findings.begin(), s.findings.end(), [](const Finding& f) { return f.severity == Severity::Error; });
    const auto warnings = std::count_if(s.findings.begin(), s.findings.end(), [](const Finding& f) { return f.severity == Severity::Warning; });
    parts.push_back(fmt::format("{} error{}, {} warning{}", errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s"));
    return fmt::format("{}", fmt::join(parts, " · "));
}

} // namespace stackscope
