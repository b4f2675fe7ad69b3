// One session's prices: the close and the developing POC, VAH and VAL (when the run kept them) with the session's POC,
// VAH and VAL, on the tick grid, over hours of the session's own zone.
#pragma once

#include "core/vpoc/vpoc_engine.h"
#include "ui/vpoc/chart_legend.h"

#include <QChartView>

#include <utility>

namespace stackscope::ui {

class SessionPriceChart : public QChartView {
    Q_OBJECT
public:
    explicit SessionPriceChart(QWidget* parent = nullptr);

    // Draws session `row` of `result`; `recorded` says the run is a report's (which keeps no prices).
    void showSession(std::shared_ptr<const vpoc::VpocResult> result, int row, bool recorded);
    void clear();
    // The y range in ticks as last drawn ({0, 0} when empty): the volume profile beside follows it.
    std::pair<double, double> axisTicks() const { return m_axisTicks; }
    // The lines drawn, for the ChartLegend under the chart (the chart's own legend is hidden: it cut entries).
    QList<LegendEntry> legendEntries() const;
    // Time labels there is room for at this view width (about 90 px a label, 90 px of y axis).
    static int timeLabelsFor(int viewWidth);

Q_SIGNALS:
    // The plot area may have moved (a new session, a resize): the profile beside re-aligns.
    void plotMoved();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void addAxes(const vpoc::SessionResult& s, const vpoc::Tick& tick, const QString& zoneName);
    void describe(const vpoc::SessionResult& s, bool priceLine);

    std::shared_ptr<const vpoc::VpocResult> m_result;
    int m_row = -1;
    bool m_recorded = false;
    int m_timeLabels = 0; // the time labels the chart was built with
    std::pair<double, double> m_axisTicks { 0, 0 };
};

} // namespace stackscope::ui
