// TelemetryStore: appends, trimming, listeners and locked reads.
#include "core/telemetry/telemetry_store.h"

#include <algorithm>
#include <cmath>

namespace stackscope::telemetry {

std::size_t StoreLimits::seriesCapacity() const
{
    const double points = static_cast<double>(window) / 1000.0 * maxRateHz * 1.05 + 16;
    return static_cast<std::size_t>(std::ceil(points));
}

TelemetryStore::TelemetryStore(StoreLimits limits)
    : m_limits(limits)
{
}

void TelemetryStore::append(const TelemetrySample& sample)
{
    // A new series allocates and zero-fills its whole buffer at once (~11 MB for 24 h at 10 Hz, 185 MB
    // for a 2-GPU machine's 17 series): done outside the lock, so that a reader (the Monitor's refresh on
    // the GUI thread) never waits for it. This wait was the one 224-574 ms GUI stall per bench run.
    std::vector<SeriesKey> missing;
    {
        std::lock_guard lock(m_mutex);
        for (const auto& g : sample.gpus) {
            for (Quantity q : kAllQuantities) {
                SeriesKey key {gpuId(g), q};
                if (g.at(q).present() && m_series.find(key) == m_series.end())
                    missing.push_back(std::move(key));
            }
        }
    }
    std::vector<std::pair<SeriesKey, RingSeries>> fresh;
    for (auto& key : missing)
        fresh.emplace_back(std::move(key), RingSeries(m_limits.window, m_limits.seriesCapacity()));
    {
        std::lock_guard lock(m_mutex);
        for (auto& [key, series] : fresh)
            m_series.emplace(key, std::move(series)); // no-op where another thread added it meanwhile
        for (const auto& g : sample.gpus) {
            const std::string id = gpuId(g);
            for (Quantity q : kAllQuantities) {
                const Reading& r = g.at(q);
                if (!r.present())
                    continue;
                SeriesKey key {id, q};
                auto it = m_series.find(key);
                if (it == m_series.end())
                    it = m_series.emplace(key, RingSeries(m_limits.window, m_limits.seriesCapacity())).first;
                it->second.push(sample.timeMs, *r.value);
            }
        }
        m_latest = sample;
        m_newest = std::max(m_newest.value_or(sample.timeMs), sample.timeMs);
        trimEventsLocked(*m_newest);
    }
    m_generation.fetch_add(1, std::memory_order_acq_rel);
    notify();
}

void TelemetryStore::addEvent(TimelineEvent event)
{
    {
        std::lock_guard lock(m_mutex);
        // Events arrive from several threads; keep the list sorted so range queries can binary search.
        auto pos = std::upper_bound(m_events.begin(), m_events.end(), event.timeMs,
                                    [](TimeMs t, const TimelineEvent& e) { return t < e.timeMs; });
        m_newest = std::max(m_newest.value_or(event.timeMs), event.timeMs);
        m_events.insert(pos, std::move(event));
        trimEventsLocked(*m_newest);
    }
    m_generation.fetch_add(1, std::memory_order_acq_rel);
    notify();
}

void TelemetryStore::clear()
{
    {
        std::lock_guard lock(m_mutex);
        m_series.clear();
        m_events.clear();
        m_latest.reset();
        m_newest.reset();
    }
    m_generation.fetch_add(1, std::memory_order_acq_rel);
    notify();
}

void TelemetryStore::trimEventsLocked(TimeMs newest)
{
    const TimeMs oldest = newest - m_limits.window;
    while (!m_events.empty() && (m_events.front().timeMs < oldest || m_events.size() > m_limits.maxEvents))
        m_events.pop_front();
}

int TelemetryStore::addListener(Listener listener)
{
    std::lock_guard lock(m_listenerMutex);
    const int id = m_nextListener++;
    m_listeners.emplace(id, std::move(listener));
    return id;
}

void TelemetryStore::removeListener(int id)
{
    std::lock_guard lock(m_listenerMutex);
    m_listeners.erase(id);
}

void TelemetryStore::notify()
{
    std::lock_guard lock(m_listenerMutex);
    for (auto& [id, fn] : m_listeners)
        fn();
}

std::vector<SeriesKey> TelemetryStore::keys() const
{
    std::lock_guard lock(m_mutex);
    std::vector<SeriesKey> out;
    out.reserve(m_series.size());
    for (const auto& [k, s] : m_series)
        out.push_back(k);
    return out;
}

std::optional<TelemetrySample> TelemetryStore::latest() const
{
    std::lock_guard lock(m_mutex);
    return m_latest;
}

std::optional<TimeMs> TelemetryStore::newestTime() const
{
    std::lock_guard lock(m_mutex);
    return m_newest;
}

std::optional<TimeMs> TelemetryStore::oldestTime() const
{
    std::lock_guard lock(m_mutex);
    std::optional<TimeMs> oldest;
    for (const auto& [k, s] : m_series) {
        if (!s.empty())
            oldest = std::min(oldest.value_or(s.front().t), s.front().t);
    }
    if (!m_events.empty())
        oldest = std::min(oldest.value_or(m_events.front().timeMs), m_events.front().timeMs);
    return oldest;
}

std::vector<TimelineEvent> TelemetryStore::events(TimeMs t0, TimeMs t1) const
{
    std::lock_guard lock(m_mutex);
    std::vector<TimelineEvent> out;
    for (const auto& e : m_events) {
        if (e.timeMs >= t0 && e.timeMs <= t1)
            out.push_back(e);
    }
    return out;
}

std::vector<TimelineEvent> TelemetryStore::allEvents() const
{
    std::lock_guard lock(m_mutex);
    return {m_events.begin(), m_events.end()};
}

std::vector<ColumnSpan> TelemetryStore::decimate(const SeriesKey& key, TimeMs t0, TimeMs t1, int columns) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_series.find(key);
    if (it == m_series.end())
        return {};
    return decimateSeries(it->second, t0, t1, columns);
}

std::vector<SeriesPoint> TelemetryStore::points(const SeriesKey& key) const
{
    std::lock_guard lock(m_mutex);
    std::vector<SeriesPoint> out;
    auto it = m_series.find(key);
    if (it == m_series.end())
        return out;
    out.reserve(it->second.size());
    it->second.forEach(0, it->second.size(), [&out](TimeMs t, double v) { out.push_back({t, v}); });
    return out;
}

std::size_t TelemetryStore::pointCount() const
{
    std::lock_guard lock(m_mutex);
    std::size_t n = 0;
    for (const auto& [k, s] : m_series)
        n += s.size();
    return n;
}

std::size_t TelemetryStore::bytes() const
{
    std::lock_guard lock(m_mutex);
    std::size_t n = 0;
    for (const auto& [k, s] : m_series)
        n += s.bytes() + sizeof(k) + k.gpu.capacity();
    for (const auto& e : m_events)
        n += sizeof(e) + e.text.capacity();
    return n;
}

} // namespace stackscope::telemetry
