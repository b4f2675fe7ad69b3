// Chart math of the Training page in plain values: bounded point series (old points merged) and axis ranges.
#pragma once

#include <QList>
#include <QPointF>
#include <QString>

namespace stackscope::ui {

// A chart series that never holds more than `capacity` points. When it is full, the older half is merged
// pairwise (mean x, mean y): recent points keep their full resolution, a long run keeps a coarser history,
// and a repaint costs O(capacity) however many steps the run has made.
class DecimatingSeries {
public:
    explicit DecimatingSeries(int capacity = 2000);

    void append(double x, double y);
    void clear() { m_points.clear(); }
    // Drops the points right of `x` (a resumed run redoes the epoch a stop interrupted).
    void truncateAfter(double x);

    const QList<QPointF>& points() const { return m_points; }
    int size() const { return static_cast<int>(m_points.size()); }
    bool isEmpty() const { return m_points.isEmpty(); }
    int capacity() const { return m_capacity; }

private:
    int m_capacity;
    QList<QPointF> m_points;
};

struct AxisRange {
    double min = 0;
    double max = 1;
    bool operator==(const AxisRange& o) const { return min == o.min && max == o.max; }
};

// The lowest and highest y of the points (x ignored); `valid` false when there are none.
struct ValueSpan {
    double lo = 0;
    double hi = 0;
    bool valid = false;
    void include(const QList<QPointF>& points, bool positiveOnly = false);
};

// A linear value axis over the span with 5 % headroom, from zero where `fromZero`; a flat or empty span
// still gets a visible, non-degenerate range.
AxisRange linearRange(const ValueSpan& span, bool fromZero);
// A log axis over whole decades (QLogValueAxis labels only the powers of its base): [10^floor, 10^ceil],
// at least one decade wide; non-positive values are never part of the span.
AxisRange logRange(const ValueSpan& span);
// A value axis with round ticks: the range widened to multiples of a 1-2-5 step, at most `maxTicks` ticks.
// (QValueAxis::applyNiceNumbers does the same but sets the range twice per call; this lets a caller set it
// once, and only when it changed, which spares the chart a relayout on most repaints.)
struct NiceAxis {
    double min = 0;
    double max = 1;
    int ticks = 2;
};
NiceAxis niceAxis(const AxisRange& range, int maxTicks = 6);
// The decimals that write every tick of the axis exactly and alike ("0.25, 0.50, 0.75"; "%.3g" gave "5e+03" beside
// "4.5e+03"): those of its step, at most 8.
int axisDecimals(const NiceAxis& axis);
// A printf label format for QValueAxis with those decimals ("%.2f").
QString axisLabelFormat(const NiceAxis& axis);

// The epoch axis: [0, the 1-2-5 value at or above the last x, at most the planned epochs], and a 1-2-5
// tick step of at least one epoch giving at most about ten ticks.
AxisRange epochRange(int plannedEpochs, double lastX);
double epochTickStep(double epochs);

} // namespace stackscope::ui
