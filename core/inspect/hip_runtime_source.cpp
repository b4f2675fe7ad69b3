// HIP runtime facts through libamdhip64 opened at run time.
#include "core/inspect/file_facts.h"
#include "core/runtime/dynamic_library.h"
#include "core/inspect/runtime_sources.h"

#include <fmt/format.h>

namespace stackscope {

std::string hipVersionString(int encoded)
{
    return fmt::format("{}.{}.{}", encoded / 10000000, (encoded / 100000) % 100, encoded % 100000);
}

std::string cudaVersionString(int encoded)
{
    return fmt::format("{}.{}", encoded / 1000, (encoded % 1000) / 10);
}

namespace {

class HipRuntimeSource : public RuntimeSource {
public:
    void collect(Snapshot& s) override
    {
        auto lib = DynamicLibrary::open(vendorLibraryCandidates(
            EnvVar::HipLibrary, {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5"}, true));
        auto status = lib.status("HIP runtime");
        if (!lib.isLoaded()) {
            s.libraries.push_back(std::move(status));
            return;
        }
        s.rocm.loadedPath = lib.loadedPath();
        using IntFn = int (*)(int*);
        auto runtimeVersion = lib.symbol<IntFn>("hipRuntimeGetVersion");
        auto driverVersion = lib.symbol<IntFn>("hipDriverGetVersion");
        auto deviceCount = lib.symbol<IntFn>("hipGetDeviceCount");
        auto deviceName = lib.symbol<int (*)(char*, int, int)>("hipDeviceGetName");
        auto totalMem = lib.symbol<int (*)(size_t*, int)>("hipDeviceTotalMem");
        auto pciBusId = lib.symbol<int (*)(char*, int, int)>("hipDeviceGetPCIBusId");
        if (!runtimeVersion || !deviceCount) {
            status.error = "the library lacks hipRuntimeGetVersion/hipGetDeviceCount; it is not a HIP runtime";
            s.libraries.push_back(std::move(status));
            return;
        }
        int v = 0;
        if (runtimeVersion(&v) == 0)
            s.rocm.hipRuntimeVersion = hipVersionString(v);
        if (driverVersion && driverVersion(&v) == 0 && v > 0)
            s.rocm.hipDriverVersion = hipVersionString(v);
        int count = 0;
        const int rc = deviceCount(&count);
        // hipErrorNoDevice (100) is the usual answer on a machine without an AMD GPU: not a failure
        // of the library; the system checks compare it with what sysfs lists.
        if (rc != 0 && rc != 100)
            status.error = fmt::format("hipGetDeviceCount returned HIP error {}; run rocminfo to see what the runtime reports", rc);
        if (rc != 0)
            count = 0;
        for (int i = 0; i < count; ++i) {
            GpuInfo g;
            g.index = i;
            g.vendor = "amd";
            g.source = "HIP runtime";
            char buf[256] = {};
            if (deviceName && deviceName(buf, sizeof buf, i) == 0)
                g.name = buf;
            size_t total = 0;
            if (totalMem && totalMem(&total, i) == 0)
                g.vramTotalBytes = total;
            char bus[64] = {};
            if (pciBusId && pciBusId(bus, sizeof bus, i) == 0)
                g.pciBus = normalizePciBus(bus);
            s.gpus.push_back(std::move(g));
        }
        s.libraries.push_back(std::move(status));
    }
};

} // namespace

std::unique_ptr<RuntimeSource> makeHipRuntimeSource()
{
    return std::make_unique<HipRuntimeSource>();
}

} // namespace stackscope
