// Per-series cache of decimated pixel columns on a grid fixed in absolute time, so that a refresh of
// a sliding (live) window decimates only the columns that are new or still filling, not the whole span
// (a 24 h view of a full store re-read 8.6 M points per refresh before).
#pragma once

#include "core/telemetry/decimation.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace stackscope::ui {

class ColumnCache {
public:
    using TimeMs = telemetry::TimeMs;
    // Decimates [t0, t1) into `columns` equal columns (the store's decimate()).
    using Decimate = std::function<std::vector<telemetry::ColumnSpan>(TimeMs t0, TimeMs t1, int columns)>;

    // The last columns are decimated again every time: a column still filling, and points that reach the
    // store slightly out of order (the allocator feed's own timestamps) within this many columns.
    static constexpr int kRedoColumns = 2;

    // The spans of absolute columns [firstColumn, firstColumn + columns), each colMs wide (column c
    // covers [c * colMs, (c + 1) * colMs)), numbered from 0 = firstColumn as decimate() numbers them.
    std::vector<telemetry::ColumnSpan> update(std::int64_t firstColumn, int columns, TimeMs colMs, const Decimate& decimate);
    // How many columns the last update() decimated (the rest came from the cache).
    std::int64_t lastDecimatedColumns() const { return m_lastDecimated; }

private:
    struct Entry {
        std::int64_t column; // absolute
        telemetry::ColumnSpan span;
    };
    TimeMs m_colMs = 0;
    std::int64_t m_first = 0;
    std::int64_t m_end = 0; // one past the last column decimated
    std::vector<Entry> m_entries; // by column
    std::int64_t m_lastDecimated = 0;
};

// The column grid for a view [t0, t1] drawn in `columns` pixels: the column width (whole ms) and the
// first absolute column, the window's end rounded up to a column edge. The drawn range is then
// [first * colMs, (first + columns) * colMs].
struct ColumnGrid {
    telemetry::TimeMs colMs = 1;
    std::int64_t first = 0;
};
ColumnGrid columnGrid(telemetry::TimeMs t0, telemetry::TimeMs t1, int columns);

} // namespace stackscope::ui
