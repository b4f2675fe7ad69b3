// Thread-safe store of the telemetry timeline: one bounded series per GPU and quantity, the latest
// sample (with missing-value reasons) and the event list, all trimmed to the same time window.
#pragma once

#include "core/telemetry/decimation.h"
#include "core/telemetry/telemetry_types.h"
#include "core/telemetry/time_series.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace stackscope::telemetry {

struct StoreLimits {
    TimeMs window = 60LL * 60 * 1000;   // keep one hour by default
    double maxRateHz = 20;              // the sampler's highest rate; sizes each series once
    std::size_t maxEvents = 10000;
    // Points per series: window at the highest rate plus 5% slack, so trimming by time (not the
    // hard limit) is what normally drops points.
    std::size_t seriesCapacity() const;
};

class TelemetryStore {
public:
    explicit TelemetryStore(StoreLimits limits = {});
    TelemetryStore(const TelemetryStore&) = delete;
    TelemetryStore& operator=(const TelemetryStore&) = delete;

    const StoreLimits& limits() const { return m_limits; }

    // Called by the sampler (any thread): every present value goes to its series.
    void append(const TelemetrySample& sample);
    // Called by the trainer, the probe runner or the UI (any thread).
    void addEvent(TimelineEvent event);
    void clear();

    // Listeners run on the thread that appended, after the lock is released; they must be quick
    // (the GUI posts a queued call and returns). removeListener waits for a running call to end.
    using Listener = std::function<void()>;
    int addListener(Listener listener);
    void removeListener(int id);

    // Increases with every append or event: a reader that saw the same value has nothing new to draw.
    std::uint64_t generation() const { return m_generation.load(std::memory_order_acquire); }

    std::vector<SeriesKey> keys() const;
    std::optional<TelemetrySample> latest() const;
    // Newest time seen (sample or event), or nullopt when empty.
    std::optional<TimeMs> newestTime() const;
    std::optional<TimeMs> oldestTime() const;
    std::vector<TimelineEvent> events(TimeMs t0, TimeMs t1) const;
    std::vector<TimelineEvent> allEvents() const;
    // Decimation runs under the lock but visits only the points inside [t0, t1]: no copy of the series.
    std::vector<ColumnSpan> decimate(const SeriesKey& key, TimeMs t0, TimeMs t1, int columns) const;
    std::vector<SeriesPoint> points(const SeriesKey& key) const;
    std::size_t pointCount() const;
    std::size_t bytes() const;

private:
    void trimEventsLocked(TimeMs newest);
    void notify();

    StoreLimits m_limits;
    mutable std::mutex m_mutex;
    std::map<SeriesKey, RingSeries> m_series;
    std::deque<TimelineEvent> m_events;
    std::optional<TelemetrySample> m_latest;
    std::optional<TimeMs> m_newest;
    std::atomic<std::uint64_t> m_generation {0};

    std::mutex m_listenerMutex;
    std::map<int, Listener> m_listeners;
    int m_nextListener = 1;
};

} // namespace stackscope::telemetry
