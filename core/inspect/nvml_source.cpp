// NVIDIA GPUs, VRAM, compute capability and driver through NVML opened at run time.
#include "core/runtime/vendor_abi.h"
#include "core/inspect/file_facts.h"
#include "core/inspect/runtime_sources.h"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <pwd.h>

namespace stackscope {

namespace {

using namespace vendor;

// /proc/<pid>/comm and the real uid of /proc/<pid>/status, as `ps` shows them (nullopt where the process is gone or
// lives in another PID namespace).
void readProcessOwner(GpuProcess& p)
{
    const std::string dir = "/proc/" + std::to_string(p.pid);
    std::ifstream comm(dir + "/comm");
    std::string line;
    if (std::getline(comm, line) && !line.empty())
        p.command = line;
    std::ifstream status(dir + "/status");
    while (std::getline(status, line)) {
        if (line.rfind("Uid:", 0) != 0)
            continue;
        const auto uid = static_cast<uid_t>(std::strtoul(line.c_str() + 4, nullptr, 10));
        const passwd* pw = ::getpwuid(uid);
        p.user = pw ? std::string(pw->pw_name) : std::to_string(uid);
        break;
    }
}

// The active NVLinks and what each reaches (NVML_NVLINK_DEVICE_TYPE_GPU 0, IBMNPU 1, SWITCH 2); left unknown where
// this NVML lacks the calls. A GPU without NVLink answers NVML_ERROR_NOT_SUPPORTED: known, and none.
void readNvlinks(const NvmlApi& nvml, NvmlDevice dev, GpuInfo& g)
{
    if (!nvml.nvlinkState)
        return;
    for (unsigned link = 0; link < kNvmlNvlinkMaxLinks; ++link) {
        int active = 0;
        const int rc = nvml.nvlinkState(dev, link, &active);
        if (rc == kNvmlSuccess || rc == kNvmlNotSupported)
            g.nvlinksKnown = true;
        if (rc != kNvmlSuccess || active != 1)
            continue;
        NvLink l;
        l.link = static_cast<int>(link);
        unsigned version = 0;
        if (nvml.nvlinkVersion && nvml.nvlinkVersion(dev, link, &version) == kNvmlSuccess)
            l.version = version;
        NvmlPciInfo remote {};
        if (nvml.nvlinkRemotePci && nvml.nvlinkRemotePci(dev, link, &remote) == kNvmlSuccess)
            l.remotePciBus = normalizePciBus(remote.busId);
        int type = -1;
        if (nvml.nvlinkRemoteType && nvml.nvlinkRemoteType(dev, link, &type) == kNvmlSuccess)
            l.remoteType = type == 0 ? "gpu" : type == 1 ? "npu" : type == 2 ? "switch" : "unknown";
        g.nvlinks.push_back(std::move(l));
    }
}

// Who holds memory, compute mode, persistence and clock-event reasons; each left unknown where NVML cannot say.
void readNvmlState(const NvmlApi& nvml, NvmlDevice dev, GpuInfo& g)
{
    if (nvml.computeProcesses) {
        std::vector<NvmlProcessInfo> infos(64);
        unsigned count = static_cast<unsigned>(infos.size());
        int rc = nvml.computeProcesses(dev, &count, infos.data());
        if (rc == kNvmlInsufficientSize && count > infos.size()) {
            infos.resize(count + 16);
            count = static_cast<unsigned>(infos.size());
            rc = nvml.computeProcesses(dev, &count, infos.data());
        }
        if (rc == kNvmlSuccess) {
            g.processesKnown = true;
            for (unsigned k = 0; k < count && k < infos.size(); ++k) {
                GpuProcess p;
                p.pid = infos[k].pid;
                if (infos[k].usedGpuMemory != ~0ULL)
                    p.usedBytes = infos[k].usedGpuMemory;
                readProcessOwner(p);
                g.processes.push_back(std::move(p));
            }
        }
    }
    int mode = 0;
    if (nvml.computeMode && nvml.computeMode(dev, &mode) == kNvmlSuccess) {
        // nvmlComputeMode_t: 0 default, 1 exclusive thread (removed), 2 prohibited, 3 exclusive process.
        static const char* const kModes[] = {"default", "exclusive_thread", "prohibited", "exclusive_process"};
        g.computeMode = mode >= 0 && mode <= 3 ? kModes[mode] : fmt::format("unknown ({})", mode);
    }
    int persistence = 0;
    if (nvml.persistenceMode && nvml.persistenceMode(dev, &persistence) == kNvmlSuccess)
        g.persistenceMode = persistence == 1;
    unsigned long long reasons = 0;
    if (nvml.clockEventReasons && nvml.clockEventReasons(dev, &reasons) == kNvmlSuccess)
        g.clockEventReasons = nvmlClockEventNames(reasons);
}

class NvmlSource : public RuntimeSource {
public:
    void collect(Snapshot& s) override
    {
        auto lib = DynamicLibrary::open(nvmlCandidates());
        auto status = lib.status("NVML");
        if (!lib.isLoaded()) {
            s.libraries.push_back(std::move(status));
            return;
        }
        const NvmlApi nvml(lib);
        if (!nvml.hasCore()) {
            status.error = "the library lacks nvmlInit_v2/nvmlDeviceGetCount_v2; the NVIDIA driver is too old or broken";
            s.libraries.push_back(std::move(status));
            return;
        }
        if (const int rc = nvml.init(); rc != 0) {
            status.error = fmt::format("nvmlInit_v2 failed with NVML error {}; check that the NVIDIA kernel "
                                       "driver is loaded (nvidia-smi) and matches the user-space library", rc);
            s.libraries.push_back(std::move(status));
            return;
        }
        char buf[96] = {};
        if (nvml.driverVersion && nvml.driverVersion(buf, sizeof buf) == 0)
            s.cuda.driverVersion = std::string(buf);
        int cudaVersion = 0;
        if (nvml.cudaDriverVersion && nvml.cudaDriverVersion(&cudaVersion) == 0 && cudaVersion > 0)
            s.cuda.cudaDriverVersion = cudaVersionString(cudaVersion);
        unsigned n = 0;
        nvml.count(&n);
        for (unsigned i = 0; i < n; ++i) {
            NvmlDevice dev = nullptr;
            if (nvml.handle(i, &dev) != 0)
                continue;
            GpuInfo g;
            g.index = static_cast<int>(i);
            g.vendor = "nvidia";
            g.source = "NVML";
            g.driverVersion = s.cuda.driverVersion;
            char nm[96] = {};
            if (nvml.name && nvml.name(dev, nm, sizeof nm) == 0)
                g.name = nm;
            NvmlMemory mem {};
            if (nvml.memory && nvml.memory(dev, &mem) == 0) {
                g.vramTotalBytes = mem.total;
                g.vramUsedBytes = mem.used;
            }
            NvmlPciInfo info {};
            if (nvml.pci && nvml.pci(dev, &info) == 0)
                g.pciBus = normalizePciBus(info.busId);
            int major = 0, minor = 0;
            if (nvml.computeCapability && nvml.computeCapability(dev, &major, &minor) == 0)
                g.arch = fmt::format("sm_{}{}", major, minor);
            readNvmlState(nvml, dev, g);
            readNvlinks(nvml, dev, g);
            s.gpus.push_back(std::move(g));
        }
        if (nvml.shutdown)
            nvml.shutdown();
        s.libraries.push_back(std::move(status));
    }
};

class CudaRuntimeSource : public RuntimeSource {
public:
    void collect(Snapshot& s) override
    {
        // The driver API answers the supported CUDA version without creating a context.
        auto drv = DynamicLibrary::open(vendorLibraryCandidates(EnvVar::CudaDriverLibrary, {"libcuda.so.1"}, false));
        auto drvStatus = drv.status("CUDA driver");
        if (auto getVersion = drv.symbol<int (*)(int*)>("cuDriverGetVersion")) {
            int v = 0;
            if (getVersion(&v) == 0 && v > 0 && !s.cuda.cudaDriverVersion)
                s.cuda.cudaDriverVersion = cudaVersionString(v);
        }
        s.libraries.push_back(std::move(drvStatus));

        auto rt = DynamicLibrary::open(vendorLibraryCandidates(
            EnvVar::CudartLibrary, {"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"}, false));
        auto rtStatus = rt.status("CUDA runtime");
        if (auto getVersion = rt.symbol<int (*)(int*)>("cudaRuntimeGetVersion")) {
            int v = 0;
            if (getVersion(&v) == 0 && v > 0) {
                s.cuda.runtimeVersion = cudaVersionString(v);
                s.cuda.runtimePath = rt.loadedPath();
            }
        }
        s.libraries.push_back(std::move(rtStatus));
    }
};

} // namespace

std::unique_ptr<RuntimeSource> makeNvmlSource()
{
    return std::make_unique<NvmlSource>();
}

std::unique_ptr<RuntimeSource> makeCudaRuntimeSource()
{
    return std::make_unique<CudaRuntimeSource>();
}

} // namespace stackscope
