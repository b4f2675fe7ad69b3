// The per-kernel outcome chart of the Probes page (QtCharts stacked bars).
#include "ui/probes/outcome_chart.h"

#include "ui/probes/probe_grid_model.h"

#include <algorithm>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QFontMetricsF>
#include <QStackedBarSeries>
#include <QValueAxis>

namespace stackscope::ui {

OutcomeChart::OutcomeChart(QWidget* parent)
    : QChartView(parent)
{
    auto* chart = new QChart;
    // Short enough for the chart's width at 1280x720 (the longer title was cut to "unsupported not c..."); the
    // variants are named on the axis.
    chart->setTitle(tr("Outcomes per device"));
    setToolTip(tr("Probe outcomes per device and variant; \u201cunsupported\u201d: the device or build has no such "
                  "operation (not a fault)"));
    // Beside the bars, one outcome a line: under them, at the ~300 px the chart gets at 1024x640, the names were cut
    // to "cra…" and "wr…".
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->legend()->setShowToolTips(true);
    m_series = new QStackedBarSeries(chart);
    for (auto r : OutcomeCounts::kShown) {
        auto* set = new QBarSet(QString::fromLatin1(probeResultName(r)));
        set->setColor(outcomeColor(r));
        m_series->append(set);
        m_sets.push_back(set);
    }
    chart->addSeries(m_series);
    m_categories = new QBarCategoryAxis(chart);
    m_values = new QValueAxis(chart);
    m_values->setLabelFormat(QStringLiteral("%d"));
    m_values->setRange(0, 1);
    // Before any result, too: five fixed ticks over 0..1 would read 0, 0, 0, 0, 1.
    m_values->setTickType(QValueAxis::TicksDynamic);
    m_values->setTickAnchor(0);
    m_values->setTickInterval(1);
    chart->addAxis(m_categories, Qt::AlignBottom);
    chart->addAxis(m_values, Qt::AlignLeft);
    m_series->attachAxis(m_categories);
    m_series->attachAxis(m_values);
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(220);
    setCounts({});
}

void OutcomeChart::setCounts(const OutcomeCounts& counts)
{
    QStringList labels;
    const bool named = std::any_of(counts.columns.begin(), counts.columns.end(),
                                   [](const ProbeColumnKey& c) { return c.environment != "libtorch"; });
    for (const auto& c : counts.columns)
        labels << QString::fromStdString(columnLabel(c, named));
    for (std::size_t i = 0; i < m_sets.size(); ++i) {
        QList<qreal> values;
        for (std::size_t col = 0; col < counts.columns.size(); ++col)
            values << counts.count(col, OutcomeCounts::kShown[i]);
        m_sets[i]->remove(0, m_sets[i]->count());
        m_sets[i]->append(values);
    }
    m_categories->setCategories(labels);
    m_top = std::max(1, counts.maxTotal());
    // No axes over nothing (0 to 1 before any run read as a result); the title says why it is empty.
    const bool any = !counts.columns.empty();
    m_categories->setVisible(any);
    m_values->setVisible(any);
    chart()->setTitle(any ? tr("Outcomes per device") : tr("Outcomes per device: no results yet"));
    fitTicks();
}

int OutcomeChart::tickStep(int top, int maxIntervals)
{
    for (int base = 1; base < (1 << 24); base *= 10)
        for (int m : {1, 2, 5})
            if ((top + m * base - 1) / (m * base) <= maxIntervals)
                return m * base;
    return 1 << 24;
}

// Whole-number ticks (a "%d" label on fractional ticks repeats numbers): a step of 1, 2 or 5 x 10^k, anchored at
// 0, the range rounded up to a whole step, and no more intervals than labels fit in the plot's height (QtCharts
// hides a label that would overlap the one below: 0, 10, 15, 25 at 220 px high with steps of 5).
void OutcomeChart::fitTicks()
{
    const double labelHeight = 1.5 * QFontMetricsF(m_values->labelsFont()).height();
    const double plot = chart()->plotArea().height();
    const int room = plot > 0 ? std::clamp(static_cast<int>(plot / labelHeight), 1, 5) : 5;
    const int step = tickStep(m_top, room);
    m_values->setTickType(QValueAxis::TicksDynamic);
    m_values->setTickAnchor(0);
    m_values->setTickInterval(step);
    m_values->setRange(0, (m_top + step - 1) / step * step);
}

void OutcomeChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    fitTicks();
}

} // namespace stackscope::ui
