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
    case StackStatus::Unknown: return "unknown";
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
        r.status = StackStatus::Unknown;
        r.location = s.root ? "not queried (recorded machine)" : "not queried";
        r.note = s.root ? "a recorded machine's libraries are not loaded here; run `stackscope-cli inspect` on that "
                          "machine to check them"
                        : "this snapshot has no record of loading it";
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

// "user alice, groups [alice render]"; what is not known says so and why.
std::string userText(const Snapshot& s)
{
    if (!s.access.user)
        return s.root ? "user and groups not recorded (.stackscope/id)" : "user and groups unknown (could not be read)";
    return fmt::format("user {}, groups [{}]", *s.access.user, fmt::join(s.access.userGroups, " "));
}

// Whether this user can open the AMD compute device: /dev/kfd and the render nodes read-write (ROCm needs both).
// A node whose permission could not be worked out makes the row unknown, never ok.
StackRow accessRow(const Snapshot& s)
{
    const bool amd = std::any_of(s.gpus.begin(), s.gpus.end(), [](const GpuInfo& g) { return g.vendor == "amd"; });
    StackRow r;
    r.component = "GPU access";
    r.version = userText(s);
    r.location = s.access.kfd.path.empty() ? "/dev/kfd" : s.access.kfd.path;
    std::vector<std::string> blocked, unknown;
    const auto sort = [&](const DeviceNode& n) {
        if (n.exists && n.readWrite == false)
            blocked.push_back(n.path);
        else if (n.exists && !n.readWrite)
            unknown.push_back(n.path);
    };
    sort(s.access.kfd);
    for (const auto& n : s.access.renderNodes)
        sort(n);
    if (!s.access.kfd.exists) {
        r.status = amd ? StackStatus::Missing : StackStatus::NotApplicable;
        r.note = amd ? "/dev/kfd does not exist" : "";
    } else if (!blocked.empty()) {
        r.status = StackStatus::Failed;
        r.note = fmt::format("not read-write for this user: {}", fmt::join(blocked, ", "));
    } else if (!unknown.empty()) {
        r.status = StackStatus::Unknown;
        r.note = fmt::format("whether this user can open {} read-write is not known: {}", fmt::join(unknown, ", "),
                             s.root ? "the recording has no modes and groups (.stackscope/dev-stat) or no user (.stackscope/id)"
                                    : "their permissions could not be read");
    }
    return r;
}

// The host facts (docs/snapshot-host-facts.md): Secure Boot, WSL, command line, DKMS builds, kernel log.
void addHostExtraRows(const HostExtras& h, std::vector<StackRow>& rows)
{
    const auto known = [](bool k) { return k ? StackStatus::Ok : StackStatus::Unknown; };
    rows.push_back({"Secure Boot", yesNo(h.secureBoot, "enabled", "disabled"), "efivars SecureBoot", known(h.secureBoot.has_value()),
                    h.secureBoot ? "" : "no SecureBoot variable could be read under /sys/firmware/efi/efivars"});
    if (h.wsl.value_or(false))
        rows.push_back({"WSL", "yes", "/dev/dxg, /proc/version", StackStatus::Ok, {}});
    rows.push_back({"Kernel command line", h.kernelCmdline.value_or("-"), "/proc/cmdline", known(h.kernelCmdline.has_value()),
                    h.kernelCmdline ? "" : "/proc/cmdline could not be read"});
    for (const auto& d : h.dkms)
        rows.push_back({"amdgpu DKMS", d.version, "/var/lib/dkms/amdgpu", d.status.rfind("broken", 0) == 0 ? StackStatus::Failed : StackStatus::Ok,
                        fmt::format("{}{}", d.status, d.kernel.empty() ? "" : " for " + d.kernel)});
    if (h.kernelLogSource)
        rows.push_back({"Kernel log", fmt::format("{} amdgpu/KFD/NVIDIA lines", h.kernelLogGpuLines.size()), *h.kernelLogSource,
                        StackStatus::Ok, h.kernelLogNote.value_or("")});
    else
        rows.push_back({"Kernel log", "-", "/dev/kmsg, /var/log/kern.log", StackStatus::Unknown,
                        h.kernelLogNote.value_or("no kernel log could be read")});
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

// The rows a finding's cause lies in (by component), and what the row then says.
struct RowCause {
    const char* findingId;
    const char* component;
    const char* note;
};

constexpr RowCause kRowCauses[] = {
    {"SECURE_BOOT_DKMS", "Secure Boot", "keeps the unsigned amdgpu DKMS module from loading (SECURE_BOOT_DKMS)"},
    {"SECURE_BOOT_DKMS", "amdgpu driver", "not loaded: Secure Boot rejects the DKMS module (SECURE_BOOT_DKMS)"},
    {"KFD_MISSING", "GPU access", "an AMD GPU is listed but /dev/kfd is missing (KFD_MISSING)"},
    {"KFD_PERMISSION", "GPU access", "this user cannot open /dev/kfd read-write (KFD_PERMISSION)"},
    {"RENDER_NODE_PERMISSION", "GPU access", "this user cannot open a render node read-write (RENDER_NODE_PERMISSION)"},
};

// An error finding marks its rows failed; the row keeps its own note after the finding's.
void markRowsOfFindings(const std::vector<Finding>& findings, std::vector<StackRow>& rows)
{
    for (const auto& f : findings) {
        if (f.severity != Severity::Error)
            continue;
        for (const auto& cause : kRowCauses) {
            if (f.id != cause.findingId)
                continue;
            for (auto& r : rows) {
                if (r.component != cause.component || r.note.find(cause.findingId) != std::string::npos)
                    continue;
                r.status = StackStatus::Failed;
                r.note = r.note.empty() ? cause.note : std::string(cause.note) + "; " + r.note;
            }
        }
    }
}

} // namespace

std::vector<StackRow> stackRows(const Snapshot& s, const std::vector<Finding>& findings)
{
    std::vector<StackRow> rows;
    // A recorded machine whose files lack a fact: unknown (not recorded), not missing from the machine.
    const auto fileFact = [&](const std::optional<std::string>& v) {
        return v ? StackStatus::Ok : s.root ? StackStatus::Unknown : StackStatus::Missing;
    };
    const auto fileNote = [&](const std::optional<std::string>& v) {
        return v || !s.root ? std::string() : std::string("not in the recorded files");
    };
    rows.push_back({"Operating system", s.host.os.value_or("-"), "/etc/os-release", fileFact(s.host.os), fileNote(s.host.os)});
    rows.push_back({"Kernel", s.host.kernel.value_or("-"), "/proc/sys/kernel/osrelease", fileFact(s.host.kernel),
                    fileNote(s.host.kernel)});
    // With an AMD GPU listed the module must be there: a version that cannot be read is unknown, not "n/a".
    const bool amd = std::any_of(s.gpus.begin(), s.gpus.end(), [](const GpuInfo& g) { return g.vendor == "amd"; });
    rows.push_back({"amdgpu driver", s.rocm.amdgpuDriverVersion.value_or("-"), "/sys/module/amdgpu",
                    s.rocm.amdgpuDriverVersion ? StackStatus::Ok : amd ? StackStatus::Unknown : StackStatus::NotApplicable,
                    s.rocm.amdgpuDriverVersion || !amd ? "" : "an AMD GPU is listed but /sys/module/amdgpu gives no version"});
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
    markRowsOfFindings(findings, rows);
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
                    : s.root && s.libraries.empty() ? std::string("torch not queried (recorded machine)")
                                                    : std::string("torch not loaded"));
    const auto errors = std::count_if(findings.begin(), findings.end(), [](const Finding& f) { return f.severity == Severity::Error; });
    const auto warnings = std::count_if(findings.begin(), findings.end(), [](const Finding& f) { return f.severity == Severity::Warning; });
    parts.push_back(fmt::format("{} error{}, {} warning{}", errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s"));
    return fmt::format("{}", fmt::join(parts, " · "));
}

} // namespace stackscope
