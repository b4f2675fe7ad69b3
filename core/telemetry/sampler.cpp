// TelemetrySampler: the sampling loop with a drift-free schedule and prompt stop.
#include "core/telemetry/sampler.h"

#include <fmt/format.h>

#include <chrono>
#include <stdexcept>

namespace stackscope::telemetry {

TelemetrySampler::TelemetrySampler(std::vector<std::unique_ptr<TelemetrySource>> sources,
                                   std::shared_ptr<TelemetryStore> store)
    : m_sources(std::move(sources))
    , m_store(std::move(store))
{
    if (!m_store)
        throw std::invalid_argument("TelemetrySampler needs a store");
}

TelemetrySampler::~TelemetrySampler()
{
    stop();
}

void TelemetrySampler::setIntervalMs(int ms)
{
    if (ms < kMinIntervalMs || ms > kMaxIntervalMs)
        throw std::invalid_argument(fmt::format("sampling interval {} ms is outside {}-{} ms (1-20 Hz); pick a value "
                                                "in that range",
                                                ms, kMinIntervalMs, kMaxIntervalMs));
    m_intervalMs = ms;
}

TelemetrySample TelemetrySampler::sampleOnce(TimeMs now)
{
    TelemetrySample s;
    s.timeMs = now;
    for (auto& src : m_sources) {
        s.sources.push_back(src->status());
        src->read(s.gpus, now);
    }
    for (auto& g : s.gpus) {
        for (Quantity q : kAllQuantities) {
            if (g.at(q).source.empty())
                g.at(q) = Reading::missing(MissingReason::NotSupported, {},
                                           fmt::format("no StackScope source reads {} for {} GPUs", quantityKey(q),
                                                       g.vendor));
        }
    }
    return s;
}

void TelemetrySampler::start()
{
    if (m_thread.joinable())
        return;
    {
        std::lock_guard lock(m_mutex);
        m_stop = false;
    }
    m_thread = std::thread([this] { run(); });
}

void TelemetrySampler::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void TelemetrySampler::run()
{
    using clock = std::chrono::steady_clock;
    auto next = clock::now();
    for (;;) {
        m_store->append(sampleOnce());
        // Scheduling from the previous deadline keeps the rate exact; after a long stall (a source
        // that blocked) it restarts from now instead of firing a burst to catch up.
        next += std::chrono::milliseconds(m_intervalMs.load());
        const auto now = clock::now();
        if (next < now)
            next = now;
        std::unique_lock lock(m_mutex);
        if (m_wake.wait_until(lock, next, [this] { return m_stop; }))
            return;
    }
}

} // namespace stackscope::telemetry
