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

void MinMaxDecimator::add(TimeMs t, double v)
{
    const int c = columnOf(t, m_t0, m_t1, m_columns);
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
    series.forEach(series.lowerBound(t0), series.lowerBound(t1 + 1), [&d](TimeMs t, double v) { d.add(t, v); });
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
