// NVML telemetry source: opened once with DynamicLibrary, initialised once, read every sample.
#include "core/runtime/vendor_abi.h"
#include "core/telemetry/telemetry_sources.h"

#include <fmt/format.h>

namespace stackscope::telemetry {

namespace {

using namespace vendor;
const char* const kSource = "NVML";

class NvmlTelemetrySource : public TelemetrySource {
public:
    NvmlTelemetrySource()
    {
        m_lib = DynamicLibrary::open(nvmlCandidates());
        m_status.source = kSource;
        if (!m_lib.isLoaded()) {
            m_status.reason = MissingReason::LibraryNotLoaded;
            m_status.detail = "NVML not loaded (" + m_lib.failureSummary() +
                              "); on an NVIDIA machine install the driver's libnvidia-ml.so.1 or set "
                              "STACKSCOPE_NVML_LIBRARY to its path";
            return;
        }
        m_api = NvmlApi(m_lib);
        if (!m_api.hasCore()) {
            m_status.reason = MissingReason::LibraryNotLoaded;
            m_status.detail = m_lib.loadedPath() + " lacks nvmlInit_v2/nvmlDeviceGetCount_v2; the NVIDIA driver is "
                                                   "too old or broken: reinstall it";
            return;
        }
        if (const int rc = m_api.init(); rc != kNvmlSuccess) {
            m_status.reason = rc == kNvmlNoPermission ? MissingReason::Permission : MissingReason::LibraryNotLoaded;
            m_status.detail = fmt::format("nvmlInit_v2 failed: {}; check that the NVIDIA kernel driver is loaded "
                                          "(nvidia-smi) and matches {}", errorText(rc), m_lib.loadedPath());
            return;
        }
        m_initialised = true;
        m_status.available = true;
        m_status.reason = MissingReason::Present;
        m_status.detail = m_lib.loadedPath();
        unsigned n = 0;
        if (m_api.count(&n) == kNvmlSuccess) {
            for (unsigned i = 0; i < n; ++i) {
                NvmlDevice dev = nullptr;
                Device d;
                d.index = static_cast<int>(i);
                if (m_api.handle(i, &dev) == kNvmlSuccess) {
                    d.handle = dev;
                    char nm[96] = {};
                    if (m_api.name && m_api.name(dev, nm, sizeof nm) == kNvmlSuccess)
                        d.name = nm;
                }
                m_devices.push_back(d);
            }
        }
    }

    ~NvmlTelemetrySource() override
    {
        if (m_initialised && m_api.shutdown)
            m_api.shutdown();
    }

    std::string name() const override { return kSource; }
    SourceStatus status() const override { return m_status; }

    void read(std::vector<GpuReadings>& gpus, TimeMs) override
    {
        if (!m_initialised)
            return;
        for (const Device& d : m_devices) {
            GpuReadings& g = findOrAddGpu(gpus, "nvidia", d.index);
            if (g.name.empty())
                g.name = d.name;
            if (!d.handle) {
                for (Quantity q : {Quantity::VramUsed, Quantity::VramTotal, Quantity::Utilisation, Quantity::Temperature,
                                   Quantity::Power, Quantity::SmClock, Quantity::MemoryClock})
                    g.offer(q, Reading::missing(MissingReason::Failed, kSource,
                                                "nvmlDeviceGetHandleByIndex_v2 failed for this GPU; run nvidia-smi to "
                                                "see whether it fell off the bus"));
                continue;
            }
            NvmlMemory mem {};
            if (const int rc = call(m_api.memory, "nvmlDeviceGetMemoryInfo", d.handle, &mem); rc == kNvmlSuccess) {
                g.offer(Quantity::VramUsed, Reading::of(static_cast<double>(mem.used), kSource));
                g.offer(Quantity::VramTotal, Reading::of(static_cast<double>(mem.total), kSource));
            } else {
                g.offer(Quantity::VramUsed, missing(rc, "nvmlDeviceGetMemoryInfo"));
                g.offer(Quantity::VramTotal, missing(rc, "nvmlDeviceGetMemoryInfo"));
            }
            NvmlUtilization util {};
            if (const int rc = call(m_api.utilization, "nvmlDeviceGetUtilizationRates", d.handle, &util); rc == kNvmlSuccess)
                g.offer(Quantity::Utilisation, Reading::of(util.gpu, kSource));
            else
                g.offer(Quantity::Utilisation, missing(rc, "nvmlDeviceGetUtilizationRates"));
            unsigned v = 0;
            if (const int rc = call(m_api.temperature, "nvmlDeviceGetTemperature", d.handle, kNvmlTemperatureGpu, &v); rc == kNvmlSuccess)
                g.offer(Quantity::Temperature, Reading::of(v, kSource));
            else
                g.offer(Quantity::Temperature, missing(rc, "nvmlDeviceGetTemperature"));
            if (const int rc = call(m_api.power, "nvmlDeviceGetPowerUsage", d.handle, &v); rc == kNvmlSuccess)
                g.offer(Quantity::Power, Reading::of(v / 1000.0, kSource)); // milliwatts
            else
                g.offer(Quantity::Power, missing(rc, "nvmlDeviceGetPowerUsage"));
            if (const int rc = call(m_api.clock, "nvmlDeviceGetClockInfo", d.handle, kNvmlClockSm, &v); rc == kNvmlSuccess)
                g.offer(Quantity::SmClock, Reading::of(v, kSource));
            else
                g.offer(Quantity::SmClock, missing(rc, "nvmlDeviceGetClockInfo(SM)"));
            if (const int rc = call(m_api.clock, "nvmlDeviceGetClockInfo", d.handle, kNvmlClockMem, &v); rc == kNvmlSuccess)
                g.offer(Quantity::MemoryClock, Reading::of(v, kSource));
            else
                g.offer(Quantity::MemoryClock, missing(rc, "nvmlDeviceGetClockInfo(MEM)"));
        }
    }

private:
    struct Device {
        int index = 0;
        NvmlDevice handle = nullptr;
        std::string name;
    };
    // A symbol the library lacks reads as "not supported" (older drivers).
    static constexpr int kMissingSymbol = -1;

    template <typename F, typename... Args>
    static int call(F fn, const char*, Args... args)
    {
        return fn ? fn(args...) : kMissingSymbol;
    }

    std::string errorText(int rc) const
    {
        const char* s = m_api.errorString ? m_api.errorString(rc) : nullptr;
        return s ? fmt::format("NVML error {} ({})", rc, s) : fmt::format("NVML error {}", rc);
    }

    Reading missing(int rc, const char* call) const
    {
        if (rc == kMissingSymbol)
            return Reading::missing(MissingReason::NotSupported, kSource,
                                    fmt::format("{} lacks {}; a newer NVIDIA driver has it", m_lib.loadedPath(), call));
        if (rc == kNvmlNotSupported)
            return Reading::missing(MissingReason::NotSupported, kSource, fmt::format("{}: not supported by this GPU", call));
        if (rc == kNvmlNoPermission)
            return Reading::missing(MissingReason::Permission, kSource,
                                    fmt::format("{}: no permission; run as a user the driver allows", call));
        return Reading::missing(MissingReason::Failed, kSource,
                                fmt::format("{} failed: {}; run nvidia-smi to check the GPU", call, errorText(rc)));
    }

    DynamicLibrary m_lib;
    SourceStatus m_status;
    bool m_initialised = false;
    std::vector<Device> m_devices;
    NvmlApi m_api;
};

} // namespace

std::unique_ptr<TelemetrySource> makeNvmlTelemetrySource()
{
    return std::make_unique<NvmlTelemetrySource>();
}

} // namespace stackscope::telemetry
