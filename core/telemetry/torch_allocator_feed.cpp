// The libtorch caching-allocator feed and the source that offers its figures, plus the shared GPU lookup.
#include "core/telemetry/telemetry_sources.h"

#include <fmt/format.h>

namespace stackscope::telemetry {

GpuReadings& findOrAddGpu(std::vector<GpuReadings>& gpus, const std::string& vendor, int index)
{
    for (auto& g : gpus) {
        if (g.vendor == vendor && g.index == index)
            return g;
    }
    GpuReadings g;
    g.vendor = vendor;
    g.index = index;
    gpus.push_back(std::move(g));
    return gpus.back();
}

void TorchAllocatorFeed::push(const std::string& vendor, int device, double allocatedBytes, double reservedBytes,
                              double peakBytes, TimeMs timeMs)
{
    std::lock_guard lock(m_mutex);
    m_latest[{vendor, device}] = Figures {allocatedBytes, reservedBytes, peakBytes, timeMs};
}

std::map<std::pair<std::string, int>, TorchAllocatorFeed::Figures> TorchAllocatorFeed::latest() const
{
    std::lock_guard lock(m_mutex);
    return m_latest;
}

namespace {

const char* const kSource = "libtorch caching allocator";

class TorchAllocatorSource : public TelemetrySource {
public:
    explicit TorchAllocatorSource(std::shared_ptr<TorchAllocatorFeed> feed)
        : m_feed(std::move(feed))
    {
    }

    std::string name() const override { return kSource; }

    SourceStatus status() const override
    {
        SourceStatus s;
        s.source = kSource;
        s.available = m_feed != nullptr;
        s.reason = m_feed ? MissingReason::Present : MissingReason::NotReported;
        s.detail = m_feed ? "figures pushed by this process's training code"
                          : "only the process that trains can read its caching allocator: watch it in the "
                            "StackScope process that runs the training (not in a separate monitor)";
        return s;
    }

    void read(std::vector<GpuReadings>& gpus, TimeMs now) override
    {
        const auto latest = m_feed ? m_feed->latest() : decltype(m_feed->latest()) {};
        for (const auto& [key, f] : latest) {
            GpuReadings& g = findOrAddGpu(gpus, key.first, key.second);
            if (now - f.timeMs > TorchAllocatorFeed::kStaleAfterMs) {
                const std::string why = fmt::format("last figures are {} s old: the training run has stopped",
                                                    (now - f.timeMs) / 1000);
                for (Quantity q : {Quantity::TorchAllocated, Quantity::TorchReserved, Quantity::TorchPeak})
                    g.offer(q, Reading::missing(MissingReason::NotReported, kSource, why));
                continue;
            }
            g.offer(Quantity::TorchAllocated, Reading::of(f.allocatedBytes, kSource));
            g.offer(Quantity::TorchReserved, Reading::of(f.reservedBytes, kSource));
            g.offer(Quantity::TorchPeak, Reading::of(f.peakBytes, kSource));
        }
        const std::string why = m_feed ? "no training run in this process has pushed figures for this GPU yet"
                                       : status().detail;
        for (auto& g : gpus) {
            for (Quantity q : {Quantity::TorchAllocated, Quantity::TorchReserved, Quantity::TorchPeak})
                g.offer(q, Reading::missing(MissingReason::NotReported, kSource, why));
        }
    }

private:
    std::shared_ptr<TorchAllocatorFeed> m_feed;
};

} // namespace

std::unique_ptr<TelemetrySource> makeTorchAllocatorSource(std::shared_ptr<TorchAllocatorFeed> feed)
{
    return std::make_unique<TorchAllocatorSource>(std::move(feed));
}

std::vector<std::unique_ptr<TelemetrySource>> defaultTelemetrySources(std::shared_ptr<TorchAllocatorFeed> feed)
{
    std::vector<std::unique_ptr<TelemetrySource>> out;
    out.push_back(makeNvmlTelemetrySource());
    out.push_back(makeRocmSmiTelemetrySource());
    out.push_back(makeTorchAllocatorSource(std::move(feed)));
    return out;
}

} // namespace stackscope::telemetry
