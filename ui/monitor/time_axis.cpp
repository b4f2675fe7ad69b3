// SharedTimeAxis: live/fixed ranges, zoom and pan.
#include "ui/monitor/time_axis.h"

#include <algorithm>
#include <cmath>

namespace stackscope::ui {

SharedTimeAxis::SharedTimeAxis(QObject* parent)
    : QObject(parent)
{
}

std::pair<SharedTimeAxis::TimeMs, SharedTimeAxis::TimeMs> SharedTimeAxis::rangeFor(TimeMs newest) const
{
    if (m_live)
        return {newest - m_span, newest};
    return {m_t0, m_t1};
}

void SharedTimeAxis::setLive(TimeMs span)
{
    m_live = true;
    m_span = std::max(span, kMinSpan);
    Q_EMIT rangeChanged();
}

void SharedTimeAxis::setFixed(TimeMs t0, TimeMs t1)
{
    if (t1 - t0 < kMinSpan)
        t1 = t0 + kMinSpan;
    m_live = false;
    m_t0 = t0;
    m_t1 = t1;
    m_span = t1 - t0;
    Q_EMIT rangeChanged();
}

void SharedTimeAxis::zoom(TimeMs anchor, double factor, TimeMs newest)
{
    const auto [t0, t1] = rangeFor(newest);
    const double a = static_cast<double>(anchor);
    const TimeMs n0 = static_cast<TimeMs>(std::llround(a - (a - t0) * factor));
    const TimeMs n1 = static_cast<TimeMs>(std::llround(a + (t1 - a) * factor));
    setFixed(n0, n1);
}

void SharedTimeAxis::pan(TimeMs delta, TimeMs newest)
{
    const auto [t0, t1] = rangeFor(newest);
    setFixed(t0 + delta, t1 + delta);
}

} // namespace stackscope::ui
