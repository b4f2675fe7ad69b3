// DecimatingSeries and the axis ranges of the Training page's charts.
#include "ui/training/training_series.h"

#include <algorithm>
#include <cmath>

namespace stackscope::ui {

DecimatingSeries::DecimatingSeries(int capacity)
    : m_capacity(std::max(4, capacity))
{
    m_points.reserve(m_capacity + 1);
}

void DecimatingSeries::append(double x, double y)
{
    m_points.append(QPointF(x, y));
    if (m_points.size() <= m_capacity)
        return;
    // Merge pairs in the older half in place; an odd last point of that half stays as it is.
    const qsizetype half = m_points.size() / 2;
    qsizetype out = 0;
    qsizetype i = 0;
    for (; i + 1 < half; i += 2)
        m_points[out++] = (m_points[i] + m_points[i + 1]) / 2.0;
    for (; i < m_points.size(); ++i)
        m_points[out++] = m_points[i];
    m_points.resize(out);
}

void DecimatingSeries::truncateAfter(double x)
{
    while (!m_points.isEmpty() && m_points.last().x() > x)
        m_points.removeLast();
}

void ValueSpan::include(const QList<QPointF>& points, bool positiveOnly)
{
    for (const QPointF& p : points) {
        const double y = p.y();
        if (!std::isfinite(y) || (positiveOnly && y <= 0))
            continue;
        if (!valid) {
            lo = hi = y;
            valid = true;
        } else {
            lo = std::min(lo, y);
            hi = std::max(hi, y);
        }
    }
}

AxisRange linearRange(const ValueSpan& span, bool fromZero)
{
    if (!span.valid)
        return {0, 1};
    double lo = fromZero ? std::min(0.0, span.lo) : span.lo;
    double hi = span.hi;
    if (hi - lo <= 0) {
        // A flat line: centre it in a band of +-10 % of its value (or +-1 around zero).
        const double pad = hi != 0 ? std::abs(hi) * 0.1 : 1.0;
        return {fromZero && lo >= 0 ? 0.0 : lo - pad, hi + pad};
    }
    const double pad = (hi - lo) * 0.05;
    return {fromZero && lo >= 0 ? lo : lo - pad, hi + pad};
}

AxisRange logRange(const ValueSpan& span)
{
    if (!span.valid || span.hi <= 0)
        return {0.1, 10};
    const double lo = span.lo > 0 ? span.lo : span.hi;
    double a = std::floor(std::log10(lo) + 1e-9);
    double b = std::ceil(std::log10(span.hi) - 1e-9);
    if (b <= a)
        b = a + 1;
    return {std::pow(10.0, a), std::pow(10.0, b)};
}

namespace {

// The smallest 1, 2 or 5 times a power of ten that is at least `x` (> 0).
double niceCeil(double x)
{
    const double decade = std::pow(10.0, std::floor(std::log10(x)));
    for (double m : {1.0, 2.0, 5.0}) {
        if (m * decade >= x * (1 - 1e-9))
            return m * decade;
    }
    return 10 * decade;
}

} // namespace

NiceAxis niceAxis(const AxisRange& range, int maxTicks)
{
    const double span = range.max - range.min;
    if (!(span > 0) || !std::isfinite(span) || maxTicks < 2)
        return {range.min, range.max, 2};
    NiceAxis a;
    // Rounding both ends outwards can add a step: then take the next 1-2-5 step.
    for (double step = niceCeil(span / (maxTicks - 1));; step = niceCeil(step * 1.01)) {
        a.min = std::floor(range.min / step + 1e-9) * step;
        a.max = std::ceil(range.max / step - 1e-9) * step;
        a.ticks = static_cast<int>(std::lround((a.max - a.min) / step)) + 1;
        if (a.ticks <= maxTicks)
            return a;
    }
}

int axisDecimals(const NiceAxis& axis)
{
    const double step = axis.ticks > 1 ? (axis.max - axis.min) / (axis.ticks - 1) : axis.max - axis.min;
    if (!(step > 0) || !std::isfinite(step))
        return 0;
    // A 1-2-5 step of 10^k needs -k decimals (0.25 is 2.5 x 10^-1 and needs two: the 5 is a half step).
    for (int d = 0; d <= 8; ++d) {
        const double scaled = step * std::pow(10.0, d);
        if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled))
            return d;
    }
    return 8;
}

QString axisLabelFormat(const NiceAxis& axis)
{
    return QStringLiteral("%.%1f").arg(axisDecimals(axis));
}

double epochTickStep(double epochs)
{
    const double raw = std::max(1.0, epochs / 10.0);
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * decade >= raw - 1e-9)
            return m * decade;
    }
    return 10 * decade;
}

AxisRange epochRange(int plannedEpochs, double lastX)
{
    // Grow in 1-2-5 steps with the data, so the first epochs of a long run are not squeezed into a corner,
    // up to the planned epochs (or past them, for a resumed run given more).
    const double planned = std::max(1.0, static_cast<double>(plannedEpochs));
    const double x = std::max(1.0, lastX);
    const double decade = std::pow(10.0, std::floor(std::log10(x) + 1e-12));
    double nice = 10 * decade;
    for (double m : {1.0, 2.0, 5.0}) {
        if (m * decade >= x - 1e-9) {
            nice = m * decade;
            break;
        }
    }
    return {0, x > planned ? std::ceil(x) : std::min(planned, nice)};
}

} // namespace stackscope::ui
