// A deterministic synthetic source (values are functions of time) for the benchmark and demos.
#include "core/telemetry/telemetry_sources.h"

#include <cmath>

namespace stackscope::telemetry {

namespace {

const char* const kSource = "synthetic";

class SyntheticSource : public TelemetrySource {
public:
    explicit SyntheticSource(int gpuCount)
        : m_gpuCount(gpuCount)
    {
    }
    std::string name() const override { return kSource; }
    SourceStatus status() const override { return {kSource, true, MissingReason::Present, "deterministic waveforms"}; }

    void read(std::vector<GpuReadings>& gpus, TimeMs now) override
    {
        const double s = static_cast<double>(now % (24LL * 3600 * 1000)) / 1000.0;
        for (int i = 0; i < m_gpuCount; ++i) {
            GpuReadings& g = findOrAddGpu(gpus, "synthetic", i);
            g.name = "Synthetic GPU " + std::to_string(i);
            const double phase = i * 0.7;
            const double total = 24.0 * (1ULL << 30);
            // A slow "epoch" wave plus a fast "step" ripple, so decimated charts show both bars and lines.
            const double load = 0.5 + 0.4 * std::sin(s / 60.0 + phase) + 0.05 * std::sin(s * 3.1 + phase);
            g.offer(Quantity::VramUsed, Reading::of(total * (0.2 + 0.6 * load), kSource));
            g.offer(Quantity::VramTotal, Reading::of(total, kSource));
            g.offer(Quantity::Utilisation, Reading::of(100.0 * load, kSource));
            g.offer(Quantity::Temperature, Reading::of(40.0 + 40.0 * load, kSource));
            g.offer(Quantity::Power, Reading::of(60.0 + 300.0 * load, kSource));
            g.offer(Quantity::SmClock, Reading::of(1200.0 + 800.0 * load, kSource));
            g.offer(Quantity::MemoryClock, Reading::of(1000.0, kSource));
        }
    }

private:
    int m_gpuCount;
};

} // namespace

std::unique_ptr<TelemetrySource> makeSyntheticSource(int gpuCount)
{
    return std::make_unique<SyntheticSource>(gpuCount);
}

} // namespace stackscope::telemetry
