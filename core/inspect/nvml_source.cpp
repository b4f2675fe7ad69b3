// NVIDIA GPUs, VRAM, compute capability and driver through NVML opened at run time.
#include "core/inspect/vendor_abi.h"
#include "core/inspect/file_facts.h"
#include "core/inspect/runtime_sources.h"

#include <fmt/format.h>

namespace stackscope {

namespace {

using namespace vendor;

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
        auto drv = DynamicLibrary::open(vendorLibraryCandidates("STACKSCOPE_CUDA_DRIVER_LIBRARY", {"libcuda.so.1"}, false));
        auto drvStatus = drv.status("CUDA driver");
        if (auto getVersion = drv.symbol<int (*)(int*)>("cuDriverGetVersion")) {
            int v = 0;
            if (getVersion(&v) == 0 && v > 0 && !s.cuda.cudaDriverVersion)
                s.cuda.cudaDriverVersion = cudaVersionString(v);
        }
        s.libraries.push_back(std::move(drvStatus));

        auto rt = DynamicLibrary::open(vendorLibraryCandidates(
            "STACKSCOPE_CUDART_LIBRARY", {"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"}, false));
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
