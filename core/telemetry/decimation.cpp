// Min/max decimation per pixel column and the value range of decimated series.
#include "core/telemetry/decimation.h"

#include <algorithm>
#include <cmath>

namespace stackscope::telemetry {

int columnOf(TimeMs t, TimeMs t0, TimeMs t1, int columns)
{
    if (columns <= 0 || t1 <= t0 || t < t0 || t > t1)
        return -1;
    if (t == t1)
        return columns - 1;
    return static_cast<int>((t - t0) * columns / (t1 - t0));
}

MinMaxDecimator::MinMaxDecimator(TimeMs t0, TimeMs t1, int columns)
    : m_t0(t0)
    , m_t1(t1)
    , m_columns(columns)
{
}

int MinMaxDecimator::columnFor(TimeMs t)
{
    if (m_column >= 0 && t >= m_columnStart && t < m_columnEnd)
        return m_column;
    const int c = columnOf(t, m_t0, m_t1, m_columns);
    if (c < 0)
        return c;
    // Column c holds t with (t - t0) * columns >= c * (t1 - t0), i.e. t >= t0 + ceil(c * (t1 - t0) / columns).
    const TimeMs span = m_t1 - m_t0;
    auto start = [&](int col) { return m_t0 + (static_cast<TimeMs>(col) * span + m_columns - 1) / m_columns; };
    m_column = c;
    m_columnStart = start(c);
    m_columnEnd = c + 1 >= m_columns ? m_t1 + 1 : start(c + 1);
    return c;
}

bool MinMaxDecimator::sameColumn(TimeMs ta, TimeMs tb)
{
    const int c = columnFor(ta);
    return c >= 0 && tb >= m_columnStart && tb < m_columnEnd;
}

void MinMaxDecimator::add(TimeMs t, double v)
{
    const int c = columnFor(t);
    if (c < 0 || std::isnan(v))
        return;
    if (m_spans.empty() || m_spans.back().column != c) {
        m_spans.push_back({c, v, v, v, v, 1});
        return;
    }
    ColumnSpan& s = m_spans.back();
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
    s.last = v;
    ++s.count;
}

void MinMaxDecimator::addSummary(TimeMs t, double min, double max, double first, double last, std::size_t count)
{
    const int c = columnFor(t);
    if (c < 0 || count == 0)
        return;
    if (m_spans.empty() || m_spans.back().column != c) {
        m_spans.push_back({c, min, max, first, last, count});
        return;
    }
    ColumnSpan& s = m_spans.back();
    s.min = std::min(s.min, min);
    s.max = std::max(s.max, max);
    s.last = last;
    s.count += count;
}

std::vector<ColumnSpan> decimateMinMax(const std::vector<SeriesPoint>& points, TimeMs t0, TimeMs t1, int columns)
{
    MinMaxDecimator d(t0, t1, columns);
    for (const auto& p : points)
        d.add(p.t, p.v);
    return d.take();
}

std::vector<ColumnSpan> decimateSeries(const RingSeries& series, TimeMs t0, TimeMs t1, int columns)
{
    MinMaxDecimator d(t0, t1, columns);
    auto addPoint = [&d](TimeMs t, double v) { d.add(t, v); };
    constexpr std::size_t B = RingSeries::kBlockPoints;
    std::size_t i = series.lowerBound(t0);
    const std::size_t end = series.lowerBound(t1 + 1);
    while (i < end) {
        const std::uint64_t abs = series.absoluteIndex(i);
        const std::size_t toBoundary = B - static_cast<std::size_t>(abs % B);
        if (toBoundary == B && i + B <= end) {
            // A whole block inside the range: one summary if it does not straddle a column.
            const BlockSummary& b = series.blockOf(abs);
            if (b.pushed == B && d.sameColumn(b.firstT, b.lastT)) {
                d.addSummary(b.firstT, b.min, b.max, b.first, b.last, b.count);
                i += B;
                continue;
            }
        }
        const std::size_t stop = std::min(end, i + toBoundary);
        series.forEach(i, stop, addPoint);
        i = stop;
    }
    return d.take();
}

ValueRange valueRangeOf(const std::vector<std::vector<ColumnSpan>>& series, bool floorAtZero)
{
    bool any = false;
    double lo = 0, hi = 0;
    for (const auto& spans : series) {
        for (const auto& s : spans) {
            lo = any ? std::min(lo, s.min) : s.min;
            hi = any ? std::max(hi, s.max) : s.max;
            any = true;
        }
    }
    if (!any)
        return {0, 1};
    if (hi == lo) {
        const double pad = lo == 0 ? 1 : std::abs(lo) * 0.05;
        lo -= pad;
        hi += pad;
    } else {
        const double pad = (hi - lo) * 0.05;
        lo -= pad;
        hi += pad;
    }
    if (floorAtZero && lo < 0)
        lo = 0;
    return {lo, hi};
}

} // namespace stackscope::telemetry
