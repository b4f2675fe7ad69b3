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

std::string yesNo(const std::optional<bool>& v, const char* yes, const char* no)
{
    return v ? (*v ? yes : no) : "-";
}

// Whether this user can open the AMD compute device: /dev/kfd and the user's groups (ROCm's device access needs
// both /dev/kfd and the GPU's render node read-write).
StackRow accessRow(const Snapshot& s)
{
    const bool amd = std::any_of(s.gpus.begin(), s.gpus.end(), [](const GpuInfo& g) { return g.vendor == "amd"; });
    StackRow r;
    r.component = "GPU access";
    r.version = fmt::format("user {}, groups [{}]", s.access.user.value_or("?"), fmt::join(s.access.userGroups, " "));
    r.location = s.access.kfd.path.empty() ? "/dev/kfd" : s.access.kfd.path;
    if (!s.access.kfd.exists) {
        r.status = amd ? StackStatus::Missing : StackStatus::NotApplicable;
        r.note = amd ? "/dev/kfd does not exist" : "";
    } else if (s.access.kfd.readWrite == false) {
        r.status = StackStatus::Failed;
        r.note = "/dev/kfd is not read-write for this user";
    }
    return r;
}

// The host facts (docs/snapshot-host-facts.md): Secure Boot, WSL, command line, DKMS builds, kernel log.
void addHostExtraRows(const HostExtras& h, std::vector<StackRow>& rows)
{
    const auto known = [](bool k) { return k ? StackStatus::Ok : StackStatus::NotApplicable; };
    rows.push_back({"Secure Boot", yesNo(h.secureBoot, "enabled", "disabled"), "efivars SecureBoot", known(h.secureBoot.has_value()), {}});
    if (h.wsl.value_or(false))
        rows.push_back({"WSL", "yes", "/dev/dxg, /proc/version", StackStatus::Ok, {}});
    rows.push_back({"Kernel command line", h.kernelCmdline.value_or("-"), "/proc/cmdline", known(h.kernelCmdline.has_value()), {}});
    for (const auto& d : h.dkms)
        rows.push_back({"amdgpu DKMS", d.version, "/var/lib/dkms/amdgpu", d.status.rfind("broken", 0) == 0 ? StackStatus::Failed : StackStatus::Ok,
                        fmt::format("{}{}", d.status, d.kernel.empty() ? "" : " for " + d.kernel)});
    if (h.kernelLogSource)
        rows.push_back({"Kernel log", fmt::format("{} amdgpu/KFD/NVIDIA lines", h.kernelLogGpuLines.size()), *h.kernelLogSource,
                        StackStatus::Ok, h.kernelLogNote.value_or("")});
    else
        rows.push_back({"Kernel log", "-", "/dev/kmsg, /var/log/kern.log", StackStatus::NotApplicable, h.kernelLogNote.value_or("")});
}

// Per GPU: firmware versions and the narrowest PCIe link on its path.
void addGpuExtraRows(const Snapshot& s, std::vector<StackRow>& rows)
{
    for (const auto& g : s.gpus) {
        if (!g.firmware.empty()) {
            std::vector<std::string> fw;
            for (const auto& [block, version] : g.firmware)
                fw.push_back(block + " " + version);
            rows.push_back({fmt::format("GPU {} firmware", g.index), fmt::format("{}", fmt::join(fw, ", ")),
                            g.vendor == "nvidia" ? "/proc/driver/nvidia/gpus" : "device/fw_version", StackStatus::Ok, {}});
        }
        const PcieLink* narrowest = nullptr;
        for (const auto& l : g.pcieLinks)
            if (l.currentWidth && (!narrowest || *l.currentWidth < *narrowest->currentWidth))
                narrowest = &l;
        if (!narrowest)
            continue;
        const bool below = narrowest->maxWidth && *narrowest->currentWidth < *narrowest->maxWidth;
        rows.push_back({fmt::format("GPU {} PCIe link", g.index),
                        fmt::format("{} x{} (max {} x{})", narrowest->currentSpeed.value_or("?"), *narrowest->currentWidth,
                                    narrowest->maxSpeed.value_or("?"), narrowest->maxWidth.value_or(0)),
                        narrowest->device, below ? StackStatus::Failed : StackStatus::Ok,
                        below ? "fewer lanes than the device supports (see diagnose)" : ""});
    }
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
    if (s.torch.archList && !s.torch.archList->empty()) // "invalid device function": the GPU's arch must be here
        rows.push_back({"libtorch archs", fmt::format("{}", fmt::join(*s.torch.archList, " ")),
                        "torch.cuda.get_arch_list()", StackStatus::Ok, {}});
    if (s.torch.blasBackend)
        rows.push_back({"Preferred BLAS", *s.torch.blasBackend, "at::globalContext().blasPreferredBackend()", StackStatus::Ok, {}});
    rows.push_back(accessRow(s));
    addHostExtraRows(s.hostExtras, rows);
    addGpuExtraRows(s, rows);
    return rows;
}

std::string stackSummary(const Snapshot& s, const std::vector<Finding>& findings)
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
    const auto errors = std::count_if(findings.begin(), findings.end(), [](const Finding& f) { return f.severity == Severity::Error; });
    const auto warnings = std::count_if(findings.begin(), findings.end(), [](const Finding& f) { return f.severity == Severity::Warning; });
    parts.push_back(fmt::format("{} error{}, {} warning{}", errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s"));
    return fmt::format("{}", fmt::join(parts, " · "));
}

} // namespace stackscope
