// The column cache: reuse the finished columns, decimate the new ones.
#include "ui/monitor/column_cache.h"

#include <algorithm>

namespace stackscope::ui {

ColumnGrid columnGrid(telemetry::TimeMs t0, telemetry::TimeMs t1, int columns)
{
    ColumnGrid g;
    const int n = std::max(1, columns);
    g.colMs = std::max<telemetry::TimeMs>(1, (t1 - t0) / n);
    const std::int64_t end = (t1 + g.colMs - 1) / g.colMs; // t1 rounded up to a column edge
    g.first = end - n;
    return g;
}

std::vector<telemetry::ColumnSpan> ColumnCache::update(std::int64_t firstColumn, int columns, TimeMs colMs, const Decimate& decimate)
{
    const std::int64_t end = firstColumn + columns;
    // Reusable when the grid is the same and the window moved forward (or stayed) over cached columns.
    const bool reuse = colMs == m_colMs && firstColumn >= m_first && firstColumn < m_end && end >= m_end - kRedoColumns;
    const std::int64_t from = reuse ? std::max(firstColumn, m_end - kRedoColumns) : firstColumn;
    if (!reuse)
        m_entries.clear();
    m_entries.erase(std::remove_if(m_entries.begin(), m_entries.end(),
                                   [&](const Entry& e) { return e.column < firstColumn || e.column >= from; }),
                    m_entries.end());
    if (end > from) {
        for (auto& s : decimate(from * colMs, end * colMs, static_cast<int>(end - from)))
            m_entries.push_back({from + s.column, s});
    }
    m_colMs = colMs;
    m_first = firstColumn;
    m_end = end;
    m_lastDecimated = end - from;
    std::vector<telemetry::ColumnSpan> out;
    out.reserve(m_entries.size());
    for (const auto& e : m_entries) {
        telemetry::ColumnSpan s = e.span;
        s.column = static_cast<int>(e.column - firstColumn);
        out.push_back(s);
    }
    return out;
}

} // namespace stackscope::ui
