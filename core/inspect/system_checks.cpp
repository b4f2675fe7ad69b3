// System checks over a snapshot: missing devices, access, libraries, torch build, environment.
#include "core/inspect/system_checks.h"

#include "core/snapshot/snapshot_json.h"
#include "core/util/public_url.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>
#include <cstdio>
#include <stdexcept>

extern const char* const stackscope_system_checks_json;

namespace stackscope {

const CheckCatalogue& CheckCatalogue::builtIn()
{
    static const CheckCatalogue catalogue = fromJson(stackscope_system_checks_json);
    return catalogue;
}

CheckCatalogue CheckCatalogue::fromJson(const std::string& text)
{
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("checks") || !j["checks"].is_array())
        throw std::runtime_error("system-checks.json: expected an object with a \"checks\" array");
    CheckCatalogue c;
    for (const auto& entry : j["checks"]) {
        Finding f = findingFromJson(entry);
        if (f.id.empty() || f.title.empty() || f.fix.empty() || f.sources.empty())
            throw std::runtime_error(fmt::format("system-checks.json: check '{}' needs an id, a title, a fix and sources", f.id));
        for (const auto& s : f.sources) {
            if (!isPublicUrl(s))
                throw std::runtime_error(fmt::format("system-checks.json: check '{}': source '{}' is not a public http(s) "
                                                     "URL; cite the primary source's URL",
                                                     f.id, s));
        }
        c.m_checks[f.id] = std::move(f);
    }
    return c;
}

Finding CheckCatalogue::make(const std::string& id, const std::string& detail) const
{
    auto it = m_checks.find(id);
    if (it == m_checks.end())
        throw std::logic_error("unknown system check id " + id);
    Finding f = it->second;
    f.detail = detail;
    return f;
}

Finding CheckCatalogue::make(const std::string& id, const std::string& detail, Severity severity) const
{
    Finding f = make(id, detail);
    f.severity = severity;
    return f;
}

std::vector<std::string> CheckCatalogue::ids() const
{
    std::vector<std::string> out;
    for (const auto& [id, f] : m_checks)
        out.push_back(id);
    return out;
}

namespace {

bool hasVendor(const Snapshot& s, const char* vendor)
{
    return std::any_of(s.gpus.begin(), s.gpus.end(), [&](const GpuInfo& g) { return g.vendor == vendor; });
}

const LibraryStatus* library(const Snapshot& s, const std::string& component)
{
    for (const auto& l : s.libraries) {
        if (l.component == component)
            return &l;
    }
    return nullptr;
}

std::string loaderDetail(const LibraryStatus& l)
{
    std::string out;
    for (const auto& a : l.tried) {
        if (a.error.empty())
            continue;
        out += fmt::format("\n  tried {}: {}", a.path, a.error);
    }
    if (l.error)
        out += fmt::format("\n  {}", *l.error);
    return out;
}

// Integrated AMD GPUs (APUs) that HIP may enumerate beside a discrete card.
bool isIntegratedGfx(const std::string& arch)
{
    static const char* igpus[] = {"gfx902", "gfx90c", "gfx1035", "gfx1036", "gfx1037", "gfx1103"};
    return std::any_of(std::begin(igpus), std::end(igpus), [&](const char* g) { return arch.rfind(g, 0) == 0; });
}

// First two numeric components of a version string ("7.10.0" -> {7, 10}).
std::pair<int, int> majorMinor(const std::string& v)
{
    int major = -1, minor = -1;
    std::sscanf(v.c_str(), "%d.%d", &major, &minor);
    return {major, minor};
}

void addNoGpuFinding(Snapshot& s, const CheckCatalogue& c, bool live)
{
    // Under WSL the GPU is reached through /dev/dxg: the Linux advice (lsmod, --device) does not apply there.
    if (s.gpus.empty() && s.hostExtras.wsl.value_or(false)) {
        s.findings.push_back(c.make("NO_GPU_VISIBLE_WSL", live
            ? "This is WSL (/dev/dxg): no runtime StackScope loaded (HIP, rocm_smi, NVML) reported a GPU through it."
            : "This is WSL (/dev/dxg); the recorded files show no GPU, and a recorded machine's runtimes are not loaded."));
        return;
    }
    if (s.gpus.empty()) {
        s.findings.push_back(c.make("NO_GPU_VISIBLE", live
            ? "No source reported a GPU: sysfs (/sys/class/drm), the KFD topology, /proc/driver/nvidia, the HIP runtime, rocm_smi and NVML."
            : "No GPU in the recorded files (/sys/class/drm, KFD topology, /proc/driver/nvidia)."));
    }
}

// /dev/kfd and the render nodes: missing, or not readable and writable by this user.
void addDeviceAccessFindings(Snapshot& s, const CheckCatalogue& c, bool amd)
{
    if (!s.access.kfd.exists) {
        if (amd)
            s.findings.push_back(c.make("KFD_MISSING", "An AMD GPU is listed in sysfs but /dev/kfd does not exist, so ROCm cannot use it."));
        else
            s.findings.push_back(c.make("KFD_ABSENT", s.hostExtras.wsl.value_or(false)
                ? "/dev/kfd does not exist, as under any WSL: ROCm reaches the GPU through /dev/dxg there."
                : "/dev/kfd does not exist; HIP and PyTorch's ROCm build will see no device here."));
    } else if (s.access.kfd.readWrite && !*s.access.kfd.readWrite) {
        s.findings.push_back(c.make("KFD_PERMISSION", fmt::format(
            "/dev/kfd (mode {}, group {}) is not readable and writable by {}; your groups: {}.",
            s.access.kfd.mode.value_or("?"), s.access.kfd.group.value_or("?"), s.access.user.value_or("this user"),
            fmt::join(s.access.userGroups, ", "))));
    }
    std::vector<std::string> blocked;
    for (const auto& n : s.access.renderNodes) {
        if (n.exists && n.readWrite && !*n.readWrite)
            blocked.push_back(fmt::format("{} (mode {}, group {})", n.path, n.mode.value_or("?"), n.group.value_or("?")));
    }
    if (!blocked.empty()) {
        s.findings.push_back(c.make("RENDER_NODE_PERMISSION", fmt::format(
            "Not readable and writable by {}: {}; your groups: {}.", s.access.user.value_or("this user"),
            fmt::join(blocked, ", "), fmt::join(s.access.userGroups, ", "))));
    }
}

// The libraries StackScope loads: the HIP runtime, NVML and the libtorch module.
void addLibraryFindings(Snapshot& s, const CheckCatalogue& c, bool amd, bool nvidia)
{
    if (const auto* hip = library(s, "HIP runtime")) {
        if (!hip->loaded && amd)
            s.findings.push_back(c.make("HIP_RUNTIME_MISSING", "libamdhip64 could not be loaded:" + loaderDetail(*hip)));
        const bool hipSawAmd = std::any_of(s.gpus.begin(), s.gpus.end(), [](const GpuInfo& g) {
            return g.vendor == "amd" && g.source.find("HIP runtime") != std::string::npos;
        });
        if (hip->loaded && amd && !hipSawAmd) {
            s.findings.push_back(c.make("HIP_NO_DEVICE", fmt::format(
                "HIP runtime {} at {} reports no device although sysfs lists an AMD GPU.{}",
                s.rocm.hipRuntimeVersion.value_or("?"), hip->path.value_or("?"), loaderDetail(*hip))));
        }
    }
    if (const auto* nvml = library(s, "NVML"); nvml && nvidia && (!nvml->loaded || nvml->error))
        s.findings.push_back(c.make("NVML_MISSING", "NVML could not be used:" + loaderDetail(*nvml)));

    if (const auto* tm = library(s, "libtorch module")) {
        if (!tm->loaded || tm->error) {
            s.findings.push_back(c.make("TORCH_MODULE_LOAD_FAILED",
                "Torch facts, op probes and training are unavailable; the rest of StackScope works." + loaderDetail(*tm)));
        }
    }
}

// A libtorch built for no GPU, or for the other vendor's GPUs.
void addTorchBuildFindings(Snapshot& s, const CheckCatalogue& c, bool amd, bool nvidia)
{
    if (s.torch.backend) {
        const auto& b = *s.torch.backend;
        const std::string what = fmt::format("libtorch {} ({} build) at {}", s.torch.version.value_or("?"), b,
                                             s.torch.libraryPath.value_or("?"));
        if (b == "cpu" && (amd || nvidia))
            s.findings.push_back(c.make("TORCH_CPU_ONLY", what + " cannot use the GPU(s) listed above."));
        else if (b == "cpu")
            s.findings.push_back(c.make("TORCH_CPU_BUILD", what + "."));
        else if ((b == "rocm" && nvidia && !amd) || (b == "cuda" && amd && !nvidia))
            s.findings.push_back(c.make("TORCH_VENDOR_MISMATCH", what + fmt::format(" but the GPUs here are {}.", amd ? "AMD" : "NVIDIA")));
    }
}

// Several ROCm installs, one from the new version stream, an HSA_OVERRIDE_GFX_VERSION.
void addRocmInstallFindings(Snapshot& s, const CheckCatalogue& c, bool live)
{
    std::vector<std::string> versioned;
    for (const auto& i : s.rocm.installs)
        versioned.push_back(fmt::format("{} ({})", i.path, i.version.value_or("version unknown")));
    if (s.rocm.installs.size() > 1) {
        s.findings.push_back(c.make("ROCM_MULTIPLE_INSTALLS", fmt::format(
            "Found: {}. The process loaded {}.", fmt::join(versioned, ", "),
            s.rocm.loadedPath.value_or(live ? "none of them" : "(not known for a recorded machine)"))));
    }
    for (const auto& i : s.rocm.installs) {
        if (!i.version || i.versionSource == "dpkg")
            continue;
        const auto [major, minor] = majorMinor(*i.version);
        if (major > 7 || (major == 7 && minor >= 9))
            s.findings.push_back(c.make("VERSION_STREAM", fmt::format("{} is ROCm {}.", i.path, *i.version)));
    }

    if (auto it = s.env.find("HSA_OVERRIDE_GFX_VERSION"); it != s.env.end())
        s.findings.push_back(c.make("HSA_OVERRIDE_SET", fmt::format("HSA_OVERRIDE_GFX_VERSION={}.", it->second)));
}

// An integrated AMD GPU beside a discrete one, with nothing restricting HIP to the discrete one.
void addIntegratedGpuFinding(Snapshot& s, const CheckCatalogue& c)
{
    const bool isolated = s.env.count("HIP_VISIBLE_DEVICES") || s.env.count("ROCR_VISIBLE_DEVICES");
    std::vector<std::string> igpus;
    int discrete = 0;
    for (const auto& g : s.gpus) {
        if (g.vendor != "amd" || !g.arch)
            continue;
        if (isIntegratedGfx(*g.arch))
            igpus.push_back(fmt::format("{} ({}, {})", g.name, *g.arch, g.pciBus.value_or("?")));
        else
            ++discrete;
    }
    if (!igpus.empty() && discrete > 0 && !isolated) {
        const std::string integrated = fmt::format("{}", fmt::join(igpus, ", "));
        Finding f = c.make("WRONG_DEVICE_IGPU",
            s.envKnown ? fmt::format("Integrated: {}; HIP_VISIBLE_DEVICES and ROCR_VISIBLE_DEVICES are unset, so HIP "
                                     "enumerates it too.", integrated)
                       : fmt::format("Integrated: {}; whether HIP_VISIBLE_DEVICES or ROCR_VISIBLE_DEVICES leaves it out is "
                                     "unknown (the environment was not recorded), so HIP may enumerate it too.", integrated));
        if (!s.envKnown) { // the iGPU is read; whether a variable hides it is not
            f.confidence = Confidence::Medium;
            f.confidenceNote = "The environment was not recorded: a visibility variable may already leave the iGPU out.";
        }
        s.findings.push_back(std::move(f));
    }
}

} // namespace

void addSystemFindings(Snapshot& s, const CheckCatalogue& c)
{
    const bool live = !s.root;
    const bool amd = hasVendor(s, "amd");
    const bool nvidia = hasVendor(s, "nvidia");
    addNoGpuFinding(s, c, live);
    addDeviceAccessFindings(s, c, amd);
    addLibraryFindings(s, c, amd, nvidia);
    addTorchBuildFindings(s, c, amd, nvidia);
    addRocmInstallFindings(s, c, live);
    addIntegratedGpuFinding(s, c);
}

} // namespace stackscope
