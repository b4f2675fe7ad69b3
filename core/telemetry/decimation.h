// Chart maths as plain functions: time-to-column mapping and min/max decimation per pixel column.
#pragma once

#include "core/telemetry/time_series.h"

#include <cstddef>
#include <vector>

namespace stackscope::telemetry {

// Column of time t in [t0, t1] split into `columns` equal columns; t1 itself falls in the last one.
// -1 when t is outside [t0, t1] or the range or column count is empty.
int columnOf(TimeMs t, TimeMs t0, TimeMs t1, int columns);

// What one pixel column shows: the extremes (drawn as a vertical bar) and the first and last values
// (so that the line joining neighbouring columns is drawn where the data really goes).
struct ColumnSpan {
    int column = 0;
    double min = 0;
    double max = 0;
    double first = 0;
    double last = 0;
    std::size_t count = 0;
};

// Feeds points in time order; keeps only the non-empty columns, so the output never has more than
// `columns` entries whatever the number of points: a million points draw as at most a few thousand lines.
class MinMaxDecimator {
public:
    MinMaxDecimator(TimeMs t0, TimeMs t1, int columns);
    void add(TimeMs t, double v);
    // A run of points that all fall in one column, already summarised.
    void addSummary(TimeMs t, double min, double max, double first, double last, std::size_t count);
    // Whether [ta, tb] lies inside one column (so a block summary can stand for its points).
    bool sameColumn(TimeMs ta, TimeMs tb);
    const std::vector<ColumnSpan>& spans() const { return m_spans; }
    std::vector<ColumnSpan> take() { return std::move(m_spans); }

private:
    // Column of t; points come in time order, so the column is found with one comparison against the
    // cached column bounds and a division only when t enters a new column.
    int columnFor(TimeMs t);

    TimeMs m_t0, m_t1;
    int m_columns;
    int m_column = -1;
    TimeMs m_columnStart = 0;
    TimeMs m_columnEnd = 0; // first time of the next column
    std::vector<ColumnSpan> m_spans;
};

std::vector<ColumnSpan> decimateMinMax(const std::vector<SeriesPoint>& points, TimeMs t0, TimeMs t1, int columns);
// Only the points inside [t0, t1] are visited (binary search on time).
std::vector<ColumnSpan> decimateSeries(const RingSeries& series, TimeMs t0, TimeMs t1, int columns);

struct ValueRange {
    double min = 0;
    double max = 1;
};
// The vertical range of the spans, padded by 5% each side; a flat series gets +-1 (or +-5% of its
// value) so it does not sit on the frame; `floorAtZero` keeps non-negative quantities anchored at 0.
ValueRange valueRangeOf(const std::vector<std::vector<ColumnSpan>>& series, bool floorAtZero);

} // namespace stackscope::telemetry
