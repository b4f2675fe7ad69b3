// A chart legend that wraps between its entries, never inside one: Qt Charts' own legend keeps one row and cuts its
// entries to "dev…" when the chart is narrow (the VPOC charts at 1024x640).
#pragma once

#include <QColor>
#include <QLabel>
#include <QList>

namespace stackscope::ui {

struct LegendEntry {
    QColor colour;
    QString text;
};

class ChartLegend : public QLabel {
    Q_OBJECT
public:
    explicit ChartLegend(QWidget* parent = nullptr);
    // Shows the entries in order, each a coloured square and its text; none empties the legend.
    void setEntries(const QList<LegendEntry>& entries);
    const QList<LegendEntry>& entries() const { return m_entries; }
    // The rich text for `entries` (spaces inside an entry do not break; the gaps between entries do).
    static QString markup(const QList<LegendEntry>& entries);

private:
    QList<LegendEntry> m_entries;
};

} // namespace stackscope::ui
