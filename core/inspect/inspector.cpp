// Snapshot assembly: file facts, run-time sources, GPU merge, system checks.
#include "core/inspect/inspector.h"

#include "core/inspect/file_facts.h"
#include "core/inspect/host_extras_reader.h"
#include "core/inspect/system_checks.h"
#include "core/snapshot/gpu_sku.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <ctime>
#include <fmt/format.h>

namespace stackscope {

std::string nowIsoUtc()
{
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm {};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

namespace {

bool isRuntimeSource(const std::string& source)
{
    return source == "HIP runtime" || source == "rocm_smi" || source == "NVML" || source == "CUDA runtime";
}

void fillFrom(GpuInfo& into, const GpuInfo& from)
{
    // Run-time libraries give marketing names and live memory figures; files give the rest.
    const bool fromRuntime = isRuntimeSource(from.source);
    if (!from.name.empty() && (into.name.empty() || fromRuntime))
        into.name = from.name;
    if (from.arch && !into.arch)
        into.arch = from.arch;
    if (from.vramTotalBytes && (!into.vramTotalBytes || fromRuntime))
        into.vramTotalBytes = from.vramTotalBytes;
    if (from.vramUsedBytes && (!into.vramUsedBytes || fromRuntime))
        into.vramUsedBytes = from.vramUsedBytes;
    if (from.driverVersion && !into.driverVersion)
        into.driverVersion = from.driverVersion;
    for (const auto& [block, version] : from.firmware)
        into.firmware.emplace(block, version);
    if (into.pcieLinks.empty())
        into.pcieLinks = from.pcieLinks;
    // Only the driver library knows these (NVML): taken from whichever source asked it.
    if (from.processesKnown && !into.processesKnown) {
        into.processes = from.processes;
        into.processesKnown = true;
    }
    if (from.computeMode && !into.computeMode)
        into.computeMode = from.computeMode;
    if (from.persistenceMode && !into.persistenceMode)
        into.persistenceMode = from.persistenceMode;
    if (into.clockEventReasons.empty())
        into.clockEventReasons = from.clockEventReasons;
    if (from.nvlinksKnown && !into.nvlinksKnown) {
        into.nvlinks = from.nvlinks;
        into.nvlinksKnown = true;
    }
    if (from.source.size() && into.source.find(from.source) == std::string::npos)
        into.source += "+" + from.source;
    if (fromRuntime)
        into.index = from.index;
}

} // namespace

std::vector<GpuInfo> mergeGpus(const std::vector<GpuInfo>& found)
{
    std::vector<GpuInfo> out;
    std::vector<bool> indexFromRuntime;
    for (const auto& g : found) {
        auto same = std::find_if(out.begin(), out.end(), [&](const GpuInfo& o) {
            return g.pciBus && o.pciBus && *g.pciBus == *o.pciBus;
        });
        if (same == out.end()) {
            out.push_back(g);
            indexFromRuntime.push_back(isRuntimeSource(g.source));
            continue;
        }
        const size_t pos = static_cast<size_t>(same - out.begin());
        fillFrom(*same, g);
        indexFromRuntime[pos] = indexFromRuntime[pos] || isRuntimeSource(g.source);
    }
    // GPUs no runtime numbered keep their order of discovery within each vendor.
    std::map<std::string, int> next;
    for (size_t i = 0; i < out.size(); ++i) {
        if (!indexFromRuntime[i])
            out[i].index = next[out[i].vendor];
        next[out[i].vendor] = std::max(next[out[i].vendor], out[i].index + 1);
    }
    return out;
}

Snapshot inspectMachine(const InspectOptions& options, std::vector<std::unique_ptr<RuntimeSource>> sources)
{
    const SystemRoot root(options.root);
    Snapshot s;
    s.capturedAt = nowIsoUtc();
    if (!root.isLive())
        s.root = root.root();
    s.host = readHostInfo(root);
    s.hostExtras = readHostExtras(root);
    if (auto env = readGpuEnvironment(root))
        s.env = std::move(*env);
    else
        s.envKnown = false;
    s.access = readDeviceAccess(root);
    const auto rocmPath = s.env.count("ROCM_PATH") ? std::optional<std::string>(s.env.at("ROCM_PATH")) : std::nullopt;
    s.rocm.installs = findRocmInstalls(root, rocmPath);
    s.rocm.amdgpuDriverVersion = readAmdgpuDriverVersion(root, s.host.kernel);
    s.cuda.driverVersion = readNvidiaDriverVersion(root);

    std::vector<GpuInfo> found = readSysfsGpus(root);
    for (auto& g : readNvidiaProcGpus(root))
        found.push_back(std::move(g));
    s.gpus = found;

    if (root.isLive()) {
        if (sources.empty())
            sources = defaultRuntimeSources();
        for (auto& src : sources)
            src->collect(s); // appends to s.gpus
    }
    s.gpus = mergeGpus(s.gpus);
    // No driver library said the architecture (a recorded machine, NVML not loaded): the name tells it for the parts
    // the table knows, and the source says where it came from.
    for (auto& g : s.gpus) {
        if (g.vendor == "nvidia" && !g.arch) {
            if (auto arch = nvidiaArchFromName(g.name)) {
                g.arch = std::move(arch);
                g.source += "+name";
            }
        }
    }
    for (auto& g : s.gpus) {
        if (g.vendor == "amd" && !g.driverVersion)
            g.driverVersion = s.rocm.amdgpuDriverVersion;
        if (g.vendor == "nvidia" && !g.driverVersion)
            g.driverVersion = s.cuda.driverVersion;
    }
    // The loaded HIP runtime's own install gets the runtime version when no file gave one.
    if (s.rocm.loadedPath && s.rocm.hipRuntimeVersion) {
        for (auto& i : s.rocm.installs) {
            if (!i.version && s.rocm.loadedPath->rfind(i.path + "/", 0) == 0) {
                i.version = s.rocm.hipRuntimeVersion;
                i.versionSource = "HIP runtime";
            }
        }
    }
    addSystemFindings(s);
    return s;
}

} // namespace stackscope
