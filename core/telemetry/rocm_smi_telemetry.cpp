// rocm_smi telemetry source: opened once with DynamicLibrary, rsmi_init once, read every sample.
#include "core/runtime/captured_stderr.h"
#include "core/runtime/vendor_abi.h"
#include "core/telemetry/telemetry_sources.h"

#include <cstdint>
#include <fmt/format.h>

namespace stackscope::telemetry {

namespace {

using namespace vendor;

// Our own code for "the library lacks this function".
constexpr int kMissingSymbol = -1;
const char* const kSource = "rocm_smi";

class RocmSmiTelemetrySource : public TelemetrySource {
public:
    RocmSmiTelemetrySource()
    {
        m_lib = DynamicLibrary::open(rocmSmiCandidates());
        m_status.source = kSource;
        if (!m_lib.isLoaded()) {
            m_status.reason = MissingReason::LibraryNotLoaded;
            m_status.detail = "rocm_smi not loaded (" + m_lib.failureSummary() +
                              "); on an AMD machine install rocm-smi-lib or set STACKSCOPE_ROCM_SMI_LIBRARY / ROCM_PATH";
            return;
        }
        m_api = RocmSmiApi(m_lib);
        if (!m_api.hasCore()) {
            m_status.reason = MissingReason::LibraryNotLoaded;
            m_status.detail = m_lib.loadedPath() + " lacks rsmi_init/rsmi_num_monitor_devices; reinstall rocm-smi-lib";
            return;
        }
        // On a machine without AMD GPUs rsmi_init prints "Failed to open drm root directory /sys/class/drm." and
        // "Exception caught: rsmi_init." to the terminal: that text belongs in the reason shown for this source.
        const auto [rc, said] = callCapturingStderr([this] { return m_api.init(0); });
        if (rc != kRsmiSuccess) {
            m_status.reason = rc == kRsmiPermission ? MissingReason::Permission : MissingReason::LibraryNotLoaded;
            m_status.detail = fmt::format("rsmi_init failed: {}; is the amdgpu driver loaded and /sys/class/drm "
                                          "readable by this user?", errorText(rc));
            if (const std::string line = capturedAsOneLine(said); !line.empty())
                m_status.detail += " rocm_smi printed: \"" + line + "\"";
            return;
        }
        printToStderr(said); // a warning from a working library is the user's to see
        m_initialised = true;
        m_status.available = true;
        m_status.reason = MissingReason::Present;
        m_status.detail = m_lib.loadedPath();
        std::uint32_t count = 0;
        if (m_api.numDevices(&count) == kRsmiSuccess) {
            for (std::uint32_t i = 0; i < count; ++i) {
                char buf[256] = {};
                m_names.push_back(m_api.name && m_api.name(i, buf, sizeof buf) == kRsmiSuccess ? std::string(buf)
                                                                                         : std::string());
            }
        }
    }

    ~RocmSmiTelemetrySource() override
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
        for (std::uint32_t i = 0; i < m_names.size(); ++i) {
            GpuReadings& g = findOrAddGpu(gpus, "amd", static_cast<int>(i));
            if (g.name.empty())
                g.name = m_names[i];
            std::uint64_t u = 0;
            int rc = m_api.memUsed ? m_api.memUsed(i, kRsmiMemTypeVram, &u) : kMissingSymbol;
            g.offer(Quantity::VramUsed, rc == kRsmiSuccess ? Reading::of(static_cast<double>(u), kSource)
                                                           : missing(rc, "rsmi_dev_memory_usage_get"));
            rc = m_api.memTotal ? m_api.memTotal(i, kRsmiMemTypeVram, &u) : kMissingSymbol;
            g.offer(Quantity::VramTotal, rc == kRsmiSuccess ? Reading::of(static_cast<double>(u), kSource)
                                                            : missing(rc, "rsmi_dev_memory_total_get"));
            std::uint32_t busy = 0;
            rc = m_api.busy ? m_api.busy(i, &busy) : kMissingSymbol;
            g.offer(Quantity::Utilisation,
                    rc == kRsmiSuccess ? Reading::of(busy, kSource) : missing(rc, "rsmi_dev_busy_percent_get"));
            readTemperature(i, g);
            readPower(i, g);
            // rsmi_dev_gpu_clk_freq_get fills rsmi_frequencies_t, whose layout changed between ROCm
            // releases (has_deep_sleep was added); reading it through dlopen without the matching header
            // could misread the array, so clocks are left out on AMD rather than guessed.
            for (Quantity q : {Quantity::SmClock, Quantity::MemoryClock})
                g.offer(q, Reading::missing(MissingReason::NotSupported, kSource,
                                            "StackScope does not read AMD clocks (rsmi_frequencies_t differs between "
                                            "ROCm releases); use rocm-smi --showclocks"));
        }
    }

private:
    void readTemperature(std::uint32_t i, GpuReadings& g)
    {
        // MI200/MI300 have no edge sensor; junction is the next best and the source says which one.
        std::int64_t milli = 0;
        int rc = m_api.temperature ? m_api.temperature(i, kRsmiTempTypeEdge, kRsmiTempCurrent, &milli) : kMissingSymbol;
        if (rc == kRsmiSuccess) {
            g.offer(Quantity::Temperature, Reading::of(milli / 1000.0, "rocm_smi (edge)"));
            return;
        }
        const int edgeRc = rc;
        rc = m_api.temperature ? m_api.temperature(i, kRsmiTempTypeJunction, kRsmiTempCurrent, &milli) : kMissingSymbol;
        g.offer(Quantity::Temperature, rc == kRsmiSuccess ? Reading::of(milli / 1000.0, "rocm_smi (junction)")
                                                          : missing(edgeRc, "rsmi_dev_temp_metric_get"));
    }

    void readPower(std::uint32_t i, GpuReadings& g)
    {
        // "Newer ASICs will support current power only": average first, then current socket power.
        std::uint64_t micro = 0;
        int rc = m_api.powerAverage ? m_api.powerAverage(i, 0, &micro) : kMissingSymbol;
        if (rc == kRsmiSuccess) {
            g.offer(Quantity::Power, Reading::of(micro / 1e6, "rocm_smi (average)"));
            return;
        }
        const int aveRc = rc;
        rc = m_api.powerSocket ? m_api.powerSocket(i, &micro) : kMissingSymbol;
        g.offer(Quantity::Power, rc == kRsmiSuccess ? Reading::of(micro / 1e6, "rocm_smi (current socket)")
                                                    : missing(aveRc, "rsmi_dev_power_ave_get"));
    }

    std::string errorText(int rc) const
    {
        const char* s = nullptr;
        if (m_api.statusString && m_api.statusString(rc, &s) == kRsmiSuccess && s)
            return fmt::format("rsmi status {} ({})", rc, s);
        return fmt::format("rsmi status {}", rc);
    }

    Reading missing(int rc, const char* call) const
    {
        if (rc == kMissingSymbol)
            return Reading::missing(MissingReason::NotSupported, kSource,
                                    fmt::format("{} lacks {}; a newer rocm-smi-lib has it", m_lib.loadedPath(), call));
        if (rc == kRsmiNotSupported || rc == kRsmiNotYetImplemented)
            return Reading::missing(MissingReason::NotSupported, kSource, fmt::format("{}: not supported by this GPU", call));
        if (rc == kRsmiPermission)
            return Reading::missing(MissingReason::Permission, kSource,
                                    fmt::format("{}: permission denied; add the user to the video and render groups",
                                                call));
        return Reading::missing(MissingReason::Failed, kSource,
                                fmt::format("{} failed: {}; run rocm-smi to check the GPU", call, errorText(rc)));
    }

    DynamicLibrary m_lib;
    SourceStatus m_status;
    bool m_initialised = false;
    std::vector<std::string> m_names;
    RocmSmiApi m_api;
};

} // namespace

std::unique_ptr<TelemetrySource> makeRocmSmiTelemetrySource()
{
    return std::make_unique<RocmSmiTelemetrySource>();
}

} // namespace stackscope::telemetry
