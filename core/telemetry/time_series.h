// A bounded ring buffer of (time, value) points, trimmed by age and by a hard point limit.
#pragma once

#include "core/telemetry/telemetry_types.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace stackscope::telemetry {

struct SeriesPoint {
    TimeMs t = 0;
    double v = 0;
};

// Min/max summary of kBlockPoints consecutive pushes, kept beside the points so that decimating a
// wide range visits one summary per block instead of every point (a 24-hour view of 864,000 points
// at 1,500 pixels reads ~25,000 summaries and the points of the blocks that straddle columns).
struct BlockSummary {
    TimeMs firstT = 0;
    TimeMs lastT = 0;
    float min = 0;
    float max = 0;
    float first = 0;
    float last = 0;
    std::uint32_t count = 0; // non-NaN values in the block
    std::uint32_t pushed = 0; // points pushed into the block so far
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
    std::size_t bytes() const
    {
        return m_times.capacity() * sizeof(TimeMs) + m_values.capacity() * sizeof(float) +
               m_blocks.capacity() * sizeof(BlockSummary);
    }

    static constexpr std::size_t kBlockPoints = 64;
    // Position of point i among all points ever pushed; blocks are aligned to it.
    std::uint64_t absoluteIndex(std::size_t i) const { return m_pushed - m_size + i; }
    // Summary of the block holding absolute index `abs`; only valid while the block's first point is
    // still retained (the caller checks absoluteIndex(0) <= block start).
    const BlockSummary& blockOf(std::uint64_t abs) const { return m_blocks[(abs / kBlockPoints) % m_blocks.size()]; }

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
    std::vector<BlockSummary> m_blocks;
    std::uint64_t m_pushed = 0;
};

} // namespace stackscope::telemetry
