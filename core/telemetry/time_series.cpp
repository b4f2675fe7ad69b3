// RingSeries: push with trimming by age and count, indexed access, binary search on time.
#include "core/telemetry/time_series.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace stackscope::telemetry {

RingSeries::RingSeries(TimeMs window, std::size_t capacity)
    : m_window(window)
{
    if (capacity == 0)
        throw std::invalid_argument("RingSeries capacity must be at least 1 point");
    if (window <= 0)
        throw std::invalid_argument("RingSeries window must be a positive number of milliseconds");
    m_times.resize(capacity);
    m_values.resize(capacity);
    // Every block that can hold a retained point, plus the one being filled.
    m_blocks.resize(capacity / kBlockPoints + 2);
}

void RingSeries::push(TimeMs t, double v)
{
    if (m_size > 0 && t < back().t)
        t = back().t;
    const TimeMs oldest = t - m_window;
    const std::size_t cap = m_times.size();
    while (m_size > 0 && m_times[m_head] < oldest) {
        m_head = m_head + 1 == cap ? 0 : m_head + 1;
        --m_size;
    }
    if (m_size == cap) {
        m_head = m_head + 1 == cap ? 0 : m_head + 1;
        --m_size;
    }
    std::size_t k = m_head + m_size;
    if (k >= cap)
        k -= cap;
    m_times[k] = t;
    m_values[k] = static_cast<float>(v);
    ++m_size;

    BlockSummary& b = m_blocks[(m_pushed / kBlockPoints) % m_blocks.size()];
    if (m_pushed % kBlockPoints == 0)
        b = BlockSummary {};
    const float f = m_values[k];
    if (b.pushed == 0)
        b.firstT = t;
    b.lastT = t;
    ++b.pushed;
    if (!std::isnan(f)) {
        if (b.count == 0) {
            b.min = b.max = b.first = f;
        } else {
            b.min = std::min(b.min, f);
            b.max = std::max(b.max, f);
        }
        b.last = f;
        ++b.count;
    }
    ++m_pushed;
}

void RingSeries::clear()
{
    m_head = 0;
    m_size = 0;
    // Restart block alignment so no stale summary is ever read.
    m_pushed = 0;
}

SeriesPoint RingSeries::at(std::size_t i) const
{
    if (i >= m_size)
        throw std::out_of_range("RingSeries::at: index past the end");
    std::size_t k = m_head + i;
    if (k >= m_times.size())
        k -= m_times.size();
    return {m_times[k], static_cast<double>(m_values[k])};
}

std::size_t RingSeries::lowerBound(TimeMs t) const
{
    std::size_t lo = 0, hi = m_size;
    const std::size_t cap = m_times.size();
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        std::size_t k = m_head + mid;
        if (k >= cap)
            k -= cap;
        if (m_times[k] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

} // namespace stackscope::telemetry
