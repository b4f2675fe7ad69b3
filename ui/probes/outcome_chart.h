// Stacked bars of probe outcomes (ok/error/crash/hang/wrong/unsupported) per device and variant, redrawn as results arrive.
#pragma once

#include "ui/probes/probe_results.h"

#include <QChartView>

class QBarCategoryAxis;
class QBarSet;
class QStackedBarSeries;
class QValueAxis;

namespace stackscope::ui {

class OutcomeChart : public QChartView {
    Q_OBJECT
public:
    explicit OutcomeChart(QWidget* parent = nullptr);
    // Replaces the bars; called at most ~25 times a second by the page's coalescing timer.
    void setCounts(const OutcomeCounts& counts);
    // The tick step (1, 2 or 5 x 10^k) for 0..top in at most maxIntervals intervals.
    static int tickStep(int top, int maxIntervals);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitTicks();

    int m_top = 1;
    QStackedBarSeries* m_series = nullptr;
    std::vector<QBarSet*> m_sets; // one per OutcomeCounts::kShown
    QBarCategoryAxis* m_categories = nullptr;
    QValueAxis* m_values = nullptr;
};

} // namespace stackscope::ui
