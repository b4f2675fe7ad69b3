// A bounded ring buffer of (time, value) points, trimmed by age and by a hard point limit.
#pragma once

#include "core/telemetry/telemetry_types.h"

#include <cstddef>
#include <vector>

namespace stackscope::telemetry {

struct SeriesPoint {
    TimeMs t = 0;
    double v = 0;
};

// Memory is allocated once, at construction (capacity points), so a 24-hour run at any rate never
// grows it: a push first drops points older than `window` before the new point, then the oldest
// point when the buffer is full. Times must not go backwards; an earlier time is clamped to the last
// one (a system clock step must not break the binary searches below).
class RingSeries {
public:
    RingSeries(TimeMs window, std::size_t capacity);

    void push(TimeMs t, double v);
    void clear();

    std::size_t size() const { return m_size; }
    std::size_t capacity() const { return m_times.size(); }
    TimeMs window() const { return m_window; }
    bool empty() const { return m_size == 0; }
    // i = 0 is the oldest point.
    SeriesPoint at(std::size_t i) const;
    SeriesPoint front() const { return at(0); }
    SeriesPoint back() const { return at(m_size - 1); }
    // Index of the first point with time >= t (size() when none).
    std::size_t lowerBound(TimeMs t) const;
    // Bytes held by the buffer (for the memory figure of the benchmark).
    std::size_t bytes() const { return m_times.capacity() * sizeof(TimeMs) + m_values.capacity() * sizeof(float); }

    // Calls fn(t, v) for points [from, to) in order, without copying the buffer.
    template <typename Fn>
    void forEach(std::size_t from, std::size_t to, Fn&& fn) const
    {
        const std::size_t cap = m_times.size();
        for (std::size_t i = from; i < to; ++i) {
            std::size_t k = m_head + i;
            if (k >= cap)
                k -= cap;
            fn(m_times[k], static_cast<double>(m_values[k]));
        }
    }

private:
    TimeMs m_window;
    // Values are floats: telemetry has far fewer than 7 significant digits of precision, and a
    // 24-hour series at 20 Hz then needs 20 MB instead of 28 MB.
    std::vector<TimeMs> m_times;
    std::vector<float> m_values;
    std::size_t m_head = 0;
    std::size_t m_size = 0;
};

} // namespace stackscope::telemetry
