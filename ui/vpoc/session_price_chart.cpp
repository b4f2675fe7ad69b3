// SessionPriceChart: the series and axes of one session, rebuilt when the view's width fits another number of labels.
#include "ui/vpoc/session_price_chart.h"

#include "ui/vpoc/profile_geometry.h"
#include "ui/vpoc/session_time_axis.h"
#include "ui/vpoc/volume_profile_view.h"

#include <QCategoryAxis>
#include <QDate>
#include <QLineSeries>
#include <QTimeZone>
#include <QTimer>
#include <QValueAxis>

#include <algorithm>

namespace stackscope::ui {

namespace {

double ms(int64_t us)
{
    return static_cast<double>(us / 1000);
}

// The time axis' right end: the last bar's time, or a minute after the first when the session is one instant (one bar
// or one trade), so the axis has a span, labels and the levels a visible line.
double axisEndMs(const vpoc::SessionResult& s)
{
    return std::max(ms(s.lastUs), ms(s.firstUs) + 60000.0);
}

} // namespace

SessionPriceChart::SessionPriceChart(QWidget* parent)
    : QChartView(new QChart, parent)
{
    chart()->setTitle(tr("Price, POC, VAH, VAL"));
    // Its one-row legend cut "developing POC" to "dev…" on a narrow chart: a ChartLegend under the chart wraps instead.
    chart()->legend()->hide();
    // A time label on the axis' last value ("Mon 09:32" for three bars) is centred on the plot's right edge: room for
    // its right half, or the view cuts it.
    QMargins margins = chart()->margins();
    margins.setRight(std::max(margins.right(), fontMetrics().horizontalAdvance(QStringLiteral("Mon 00:00")) / 2 + 6));
    chart()->setMargins(margins);
    setRenderHint(QPainter::Antialiasing);
    // The chart is rebuilt per session and its plot moves with the labels' widths: a full repaint each time, or the
    // screen keeps marks of the earlier layout (the Training charts showed such ghosts after a report was opened).
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    setMinimumWidth(300);
    connect(chart(), &QChart::plotAreaChanged, this, &SessionPriceChart::plotMoved);
}

QList<LegendEntry> SessionPriceChart::legendEntries() const
{
    QList<LegendEntry> entries;
    for (auto* series : chart()->series())
        if (auto* line = qobject_cast<QLineSeries*>(series))
            entries.push_back({ line->pen().color(), line->name() });
    return entries;
}

int SessionPriceChart::timeLabelsFor(int viewWidth)
{
    return std::clamp((viewWidth - 90) / 90, 2, 6);
}

void SessionPriceChart::clear()
{
    m_result.reset();
    m_row = -1;
    chart()->removeAllSeries();
    for (auto* axis : chart()->axes())
        chart()->removeAxis(axis);
    chart()->setTitle(tr("Price, POC, VAH, VAL"));
    setToolTip(QString());
    m_axisTicks = { 0, 0 };
}

void SessionPriceChart::showSession(std::shared_ptr<const vpoc::VpocResult> result, int row, bool recorded)
{
    clear();
    m_result = std::move(result);
    m_row = row;
    m_recorded = recorded;
    const auto& s = m_result->sessions[static_cast<size_t>(row)];
    const double tick = m_result->options.read.tick.value;
    auto* close = new QLineSeries;
    close->setName(tr("close"));
    close->setPen(QPen(QColor(0x45, 0x5a, 0x64), 1));
    // The developing levels the checkbox names (POC/VAH/VAL): the POC dashed in orange, apart from the final POC's
    // red; VAH and VAL dotted in lighter shades of their final lines' colours (only the POC was drawn: walkthrough third, problem 11).
    auto developingLine = [](const QString& name, const QColor& colour, Qt::PenStyle style) {
        auto* line = new QLineSeries;
        line->setName(name);
        line->setPen(QPen(colour, 1.5, style));
        return line;
    };
    QList<QLineSeries*> developing { developingLine(tr("developing POC"), QColor(0xfb, 0x8c, 0x00), Qt::DashLine),
        developingLine(tr("developing VAH"), VolumeProfileView::vahColor().lighter(140), Qt::DotLine),
        developingLine(tr("developing VAL"), VolumeProfileView::valColor().lighter(140), Qt::DotLine) };
    if (static_cast<size_t>(row) < m_result->developing.size()) {
        for (const auto& d : m_result->developing[static_cast<size_t>(row)]) {
            close->append(ms(d.timeUs), d.closeTick * tick);
            developing[0]->append(ms(d.timeUs), d.pocTick * tick);
            developing[1]->append(ms(d.timeUs), d.vahTick * tick);
            developing[2]->append(ms(d.timeUs), d.valTick * tick);
        }
    }
    auto level = [&](const QString& name, int32_t value, const QColor& colour) {
        auto* line = new QLineSeries;
        line->setName(name);
        line->setPen(QPen(colour, 1.5));
        line->append(ms(s.firstUs), value * tick);
        line->append(axisEndMs(s), value * tick);
        return line;
    };
    QList<QLineSeries*> all { level(tr("POC"), s.pocTick, VolumeProfileView::pocColor()),
        level(tr("VAH"), s.vahTick, VolumeProfileView::vahColor()),
        level(tr("VAL"), s.valTick, VolumeProfileView::valColor()) };
    // The price lines only where there are points: a legend entry for an empty line reads like missing data.
    const bool priceLine = close->count() > 0;
    if (priceLine) {
        all = QList<QLineSeries*> { close } + developing + all;
    } else {
        delete close;
        qDeleteAll(developing);
    }
    for (auto* series : all)
        chart()->addSeries(series);
    addAxes(s, m_result->options.read.tick, QString::fromStdString(m_result->options.session.zoneName));
    describe(s, priceLine);
    Q_EMIT plotMoved(); // the plot area may not move (then no plotAreaChanged), but the price range did
}

void SessionPriceChart::addAxes(const vpoc::SessionResult& s, const vpoc::Tick& tickSize, const QString& zoneName)
{
    // Labels at round times of the session's own zone (a globex day reads 18:00 to 17:00 New York time; three
    // one-minute bars 09:30, 09:31, 09:32). An axis without labels also drew its title over the plot's corner.
    const QTimeZone zone(zoneName.toUtf8());
    auto* x = new QCategoryAxis;
    x->setObjectName(QStringLiteral("sessionTimeAxis"));
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    x->setTitleText(zone.isValid() ? tr("%1 time").arg(zoneName) : tr("UTC (unknown zone %1)").arg(zoneName));
    // A label ("Fri 02:00") needs about 90 px at the default font, or the axis cuts it to "Fri 02:..." (at
    // 1280x720 the chart is ~450 px wide, its plot ~360); the y axis labels take ~90 px of the view.
    m_timeLabels = timeLabelsFor(width());
    for (const auto& [at, label] :
        sessionTimeTicks(s.firstUs / 1000, static_cast<int64_t>(axisEndMs(s)), zone.isValid() ? zone : QTimeZone::utc(),
            m_timeLabels))
        x->append(label, static_cast<double>(at));
    // Prices on the instrument's tick grid (ES 0.25: 5095.75, not 5095.81), labels with the tick's decimals.
    const double tick = tickSize.value;
    const PriceTicks grid = priceAxisTicks(s.lowTick, s.highTick, tick, std::clamp(height() / 45, 2, 8));
    auto* y = new QValueAxis;
    y->setObjectName(QStringLiteral("priceAxis"));
    // The file's prices carry no currency: the title says they are its own units, on which grid.
    y->setTitleText(tr("price (the data's units, tick %1)").arg(tick, 0, 'f', tickSize.decimals));
    y->setLabelFormat(QStringLiteral("%.%1f").arg(tickSize.decimals));
    y->setTickType(QValueAxis::TicksDynamic);
    y->setTickAnchor(double(grid.lowTick) * tick);
    y->setTickInterval(double(grid.stepTicks) * tick);
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
    for (auto* series : chart()->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    x->setRange(ms(s.firstUs), axisEndMs(s));
    y->setRange(double(grid.lowTick) * tick, double(grid.highTick) * tick);
    m_axisTicks = { double(grid.lowTick), double(grid.highTick) };
}

// The title names the session; short (it is cut at ~300 px), the tooltip says why there is no price line.
void SessionPriceChart::describe(const vpoc::SessionResult& s, bool priceLine)
{
    const QString date = QDate(1970, 1, 1).addDays(s.day).toString(Qt::ISODate);
    chart()->setTitle(priceLine ? tr("Session %1").arg(date) : tr("Session %1 · no price line").arg(date));
    setToolTip(priceLine  ? QString()
            : !m_recorded ? tr("Turn on Developing POC/VAH/VAL and run again for the price line")
                          : tr("A report keeps the sessions' levels, not their prices: run VPOC on the data for "
                               "the price line"));
}

void SessionPriceChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    // A wider or narrower chart fits more or fewer time labels: rebuilt when that number changes.
    if (m_result && m_row >= 0 && timeLabelsFor(width()) != m_timeLabels)
        QTimer::singleShot(0, this, [this] {
            if (m_result && m_row >= 0 && m_row < static_cast<int>(m_result->sessions.size()))
                showSession(m_result, m_row, m_recorded);
        });
}

} // namespace stackscope::ui
