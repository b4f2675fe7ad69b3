// TrainingCharts: bounded buffers in, Qt Charts series and axes out, at the page's repaint rate.
#include "ui/training/training_charts.h"

#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QTimer>
#include <QFontMetrics>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace stackscope::ui {

namespace {

QLineSeries* makeSeries(const QString& name, const QColor& colour, Qt::PenStyle style = Qt::SolidLine, qreal width = 1.5)
{
    auto* s = new QLineSeries;
    s->setName(name);
    QPen pen(colour, width, style);
    pen.setCosmetic(true);
    s->setPen(pen);
    return s;
}

QChart* makeChart(const QString& title)
{
    auto* c = new QChart;
    c->setTitle(title);
    c->legend()->setAlignment(Qt::AlignBottom);
    // Short titles and a legend a point smaller: at 1024x640 a chart is ~235 px wide, and longer titles and
    // legends were cut ("Memory: device VRAM, libtorch allo...", "VRAM... reser... alloca..."); the views' tooltips
    // say the rest.
    QFont legendFont = c->legend()->font();
    legendFont.setPointSizeF(std::max(7.0, legendFont.pointSizeF() - 1));
    c->legend()->setFont(legendFont);
    c->legend()->setShowToolTips(true);
    c->setMargins(QMargins(4, 4, 4, 4));
    c->layout()->setContentsMargins(0, 0, 0, 0);
    c->setBackgroundRoundness(0);
    return c;
}

QValueAxis* makeEpochAxis()
{
    auto* x = new QValueAxis;
    // One convention on every chart and in the epoch table: x counts the epochs done, so epoch N's figures sit at its
    // end, x = N, and a progress interval inside epoch N between N - 1 and N.
    x->setTitleText(QObject::tr("epochs completed"));
    x->setLabelFormat(QStringLiteral("%.0f"));
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(0);
    x->setTickInterval(1);
    x->setRange(0, 1);
    return x;
}

// Setting an axis to what it already shows still costs the chart a relayout in places: set only changes.
void setEpochAxis(QValueAxis* x, const AxisRange& r)
{
    if (x->min() != r.min || x->max() != r.max)
        x->setRange(r.min, r.max);
    const double step = epochTickStep(r.max - r.min);
    if (x->tickInterval() != step)
        x->setTickInterval(step);
}

// As many ticks as labels fit the plot's height (1.5 label heights each), 2 to 6: six labels in a 75 px plot (a
// 1024x640 window with the Monitor open) were all drawn as "...".
int ticksFor(const QChart* chart, const QValueAxis* y)
{
    const double plot = chart->plotArea().height();
    const double label = 1.5 * QFontMetricsF(y->labelsFont()).height();
    return plot > 0 ? std::clamp(static_cast<int>(plot / label) + 1, 2, 6) : 6;
}

void setValueAxis(QValueAxis* y, const AxisRange& r, int maxTicks)
{
    const NiceAxis n = niceAxis(r, maxTicks);
    if (y->min() != n.min || y->max() != n.max)
        y->setRange(n.min, n.max);
    if (y->tickCount() != n.ticks)
        y->setTickCount(n.ticks);
    if (const QString format = axisLabelFormat(n); y->labelFormat() != format)
        y->setLabelFormat(format);
}

// Copies the points with y scaled (units), dropping what a log axis cannot show.
QList<QPointF> scaled(const QList<QPointF>& in, double factor, bool positiveOnly = false)
{
    QList<QPointF> out;
    out.reserve(in.size());
    for (const QPointF& p : in) {
        if (positiveOnly && !(p.y() > 0))
            continue;
        out.append(QPointF(p.x(), p.y() * factor));
    }
    return out;
}

// Times its own painting, so the page can tell its drawing apart from other causes of a GUI stall.
class TimedChartView : public QChartView {
public:
    TimedChartView(QChart* chart, QWidget* parent, qint64* longestNs)
        : QChartView(chart, parent)
        , m_longestNs(longestNs)
    {
    }

protected:
    void paintEvent(QPaintEvent* event) override
    {
        QElapsedTimer clock;
        clock.start();
        QChartView::paintEvent(event);
        *m_longestNs = std::max(*m_longestNs, clock.nsecsElapsed());
    }

private:
    qint64* m_longestNs;
};

} // namespace

TrainingCharts::TrainingCharts(QWidget* parent)
    : QObject(parent)
{
    m_lossChart = makeChart(tr("Loss"));
    m_trainLossSeries = makeSeries(tr("train"), QColor(0x1f, 0x77, 0xb4), Qt::SolidLine, 1.2);
    m_valLossSeries = makeSeries(tr("validation"), QColor(0xd6, 0x27, 0x28), Qt::SolidLine, 2);
    m_valLossSeries->setPointsVisible(true);
    m_lossChart->addSeries(m_trainLossSeries);
    m_lossChart->addSeries(m_valLossSeries);
    m_lossX = makeEpochAxis();
    m_lossChart->addAxis(m_lossX, Qt::AlignBottom);
    m_trainLossSeries->attachAxis(m_lossX);
    m_valLossSeries->attachAxis(m_lossX);
    m_lossLinear = new QValueAxis;
    m_lossLinear->setLabelFormat(QStringLiteral("%.3g"));
    m_lossChart->addAxis(m_lossLinear, Qt::AlignLeft);
    m_trainLossSeries->attachAxis(m_lossLinear);
    m_valLossSeries->attachAxis(m_lossLinear);
    m_lossView = makeView(m_lossChart, parent);
    m_lossView->setObjectName(QStringLiteral("trainingLossChart"));
    m_lossView->setToolTip(tr("Training loss per progress interval, validation loss per epoch; epoch N's figures at "
                              "its end (x = N)"));

    // The unit in the title, not on the vertical axis: there it was cut ("k samp...") in a plot lower than its
    // ~80 px (1024x640 with the Monitor open).
    m_samplesChart = makeChart(tr("Throughput (k samples/s)"));
    // Per interval the figure is noisy (a few steps, the host's scheduling); the epoch's mean reads as a trend.
    m_samplesSeries = makeSeries(tr("per interval"), QColor(0x98, 0xdf, 0x8a), Qt::SolidLine, 1);
    m_epochSamplesSeries = makeSeries(tr("per epoch"), QColor(0x2c, 0xa0, 0x2c), Qt::SolidLine, 2.5);
    m_samplesChart->addSeries(m_samplesSeries);
    m_samplesChart->addSeries(m_epochSamplesSeries);
    m_samplesX = makeEpochAxis();
    m_samplesY = new QValueAxis;
    m_samplesY->setLabelFormat(QStringLiteral("%.3g"));
    m_samplesChart->addAxis(m_samplesX, Qt::AlignBottom);
    m_samplesChart->addAxis(m_samplesY, Qt::AlignLeft);
    for (auto* s : {m_samplesSeries, m_epochSamplesSeries}) {
        s->attachAxis(m_samplesX);
        s->attachAxis(m_samplesY);
    }
    m_samplesView = makeView(m_samplesChart, parent);
    m_samplesView->setObjectName(QStringLiteral("trainingSamplesChart"));
    m_samplesView->setToolTip(tr("Training samples per second: per progress interval and each epoch's mean, epoch N's "
                                 "at its end (x = N)"));

    m_memoryChart = makeChart(tr("Memory"));
    m_deviceUsedSeries = makeSeries(tr("VRAM"), QColor(0x94, 0x67, 0xbd), Qt::SolidLine, 2);
    m_reservedSeries = makeSeries(tr("reserved"), QColor(0xff, 0x7f, 0x0e), Qt::DashLine);
    m_allocatedSeries = makeSeries(tr("allocated"), QColor(0x8c, 0x56, 0x4b), Qt::DotLine, 2);
    m_memoryX = makeEpochAxis();
    m_memoryY = new QValueAxis;
    m_memoryY->setLabelFormat(QStringLiteral("%.3g"));
    m_memoryChart->addAxis(m_memoryX, Qt::AlignBottom);
    m_memoryChart->addAxis(m_memoryY, Qt::AlignLeft);
    for (auto* s : {m_deviceUsedSeries, m_reservedSeries, m_allocatedSeries}) {
        m_memoryChart->addSeries(s);
        s->attachAxis(m_memoryX);
        s->attachAxis(m_memoryY);
    }
    m_memoryView = makeView(m_memoryChart, parent);
    m_memoryView->setObjectName(QStringLiteral("trainingMemoryChart"));
    m_memoryView->setToolTip(tr("Device VRAM used, and libtorch's caching allocator: reserved and allocated (in a run "
                                "over several processes, each GPU's VRAM and rank 0's allocator)"));
    // The note sits over the empty plot; a layout on the view keeps it centred as the view resizes.
    m_memoryNote = new QLabel(m_memoryView);
    m_memoryNote->setObjectName(QStringLiteral("trainingMemoryNote"));
    m_memoryNote->setWordWrap(false); // explicit line breaks: a wrapped label in this overlay gets no height for its lines
    m_memoryNote->setAlignment(Qt::AlignCenter);
    m_memoryNote->setStyleSheet(QStringLiteral("QLabel { color: #555; background: rgba(255,255,255,220); padding: 6px; }"));
    m_memoryNote->hide();
    auto* overlay = new QVBoxLayout(m_memoryView);
    overlay->addStretch(1);
    overlay->addWidget(m_memoryNote, 0, Qt::AlignCenter);
    overlay->addStretch(1);

    // A taller or shorter plot fits more or fewer value labels: fit the ticks again once the layout settles.
    for (auto* chart : {m_lossChart, m_samplesChart, m_memoryChart})
        connect(chart, &QChart::plotAreaChanged, this, [this] {
            if (!std::exchange(m_refitPending, true))
                QTimer::singleShot(0, this, [this] {
                    m_refitPending = false;
                    refresh();
                });
        });
    refresh();
}

QChartView* TrainingCharts::makeView(QChart* chart, QWidget* parent)
{
    auto* view = new TimedChartView(chart, parent, &m_longestPaintNs);
    view->setRenderHint(QPainter::Antialiasing);
    // Repaint the whole view on any change: with the default minimal updates, a plot that moved (wider or narrower
    // value labels once a report's losses arrived) left marks of its earlier layout on the screen, a second validation
    // point and a dashed grid line at x = 0.95 and a "(" left of the axis' 0 (walkthrough 2026-11-27 problem 4). A
    // view is ~240x180 px and is repainted at most ~25 times a second.
    view->setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    view->setMinimumSize(220, 180); // two across beside the form at 1024x640; lower, the axes lose their labels
    return view;
}

void TrainingCharts::clear()
{
    m_trainLoss.clear();
    m_valLoss.clear();
    m_samples.clear();
    m_epochSamples.clear();
    m_deviceUsed.clear();
    m_allocated.clear();
    m_reserved.clear();
    for (auto& [rank, line] : m_otherRanks) {
        m_memoryChart->removeSeries(line.series);
        delete line.series;
    }
    m_otherRanks.clear();
    m_deviceUsedSeries->setName(tr("VRAM"));
    m_memoryChart->setTitle(tr("Memory"));
    m_lastX = 0;
    m_sawStep = false;
    m_memoryReported = false;
    m_memoryNoteText.clear();
}

void TrainingCharts::setPlannedEpochs(int epochs)
{
    m_plannedEpochs = std::max(1, epochs);
}

void TrainingCharts::setDevices(const QString& devices)
{
    m_memoryNoteText = devices.compare(QStringLiteral("CPU"), Qt::CaseInsensitive) == 0
        // Lines of at most ~26 characters: the note sits in a chart ~220 px wide at 1024x640 (longer lines were cut
        // at both ends).
        ? tr("Not reported on the CPU:\nVRAM and libtorch's\ncaching allocator are\nGPU figures. Train on a\n"
             "GPU (Device gpu:N)\nto see them here.")
        : tr("%1\nreported no memory figures\n(the vendor runtime or\nthe allocator did not\nanswer).")
              .arg(QFontMetrics(m_memoryNote->font()).elidedText(devices, Qt::ElideMiddle, 190));
}

void TrainingCharts::truncateAfterEpoch(int epoch)
{
    for (auto* s : {&m_trainLoss, &m_valLoss, &m_samples, &m_epochSamples, &m_deviceUsed, &m_allocated, &m_reserved})
        s->truncateAfter(epoch);
    for (auto& [rank, line] : m_otherRanks)
        line.points.truncateAfter(epoch);
    m_lastX = std::min(m_lastX, static_cast<double>(epoch));
}

void TrainingCharts::addStep(const training::TrainingProgress& p)
{
    const double per = p.stepsPerEpoch > 0 ? static_cast<double>(p.stepsPerEpoch) : 1.0;
    const double x = (p.epoch - 1) + static_cast<double>(p.step) / per;
    m_lastX = std::max(m_lastX, x);
    m_sawStep = true;
    m_trainLoss.append(x, p.loss);
    m_samples.append(x, p.samplesPerS);
    // -1 means "not known here" (the CPU has neither a device total nor a caching allocator).
    if (p.deviceUsedBytes >= 0)
        m_deviceUsed.append(x, p.deviceUsedBytes);
    if (p.allocatedBytes >= 0)
        m_allocated.append(x, p.allocatedBytes);
    if (p.reservedBytes >= 0)
        m_reserved.append(x, p.reservedBytes);
    m_memoryReported = m_memoryReported || p.deviceUsedBytes >= 0 || p.allocatedBytes >= 0 || p.reservedBytes >= 0;
    addRankMemory(x, p.ranks);
}

// Each rank's GPU gets a VRAM line of its own (allocator figures stay rank 0's: one process's view of its heap).
void TrainingCharts::addRankMemory(double x, const std::vector<training::RankMemory>& ranks)
{
    static const QColor colours[] = {QColor(0x17, 0xbe, 0xcf), QColor(0xbc, 0xbd, 0x22), QColor(0xe3, 0x77, 0xc2),
                                     QColor(0x2c, 0xa0, 0x2c), QColor(0x7f, 0x7f, 0x7f)};
    for (const auto& r : ranks) {
        if (r.deviceUsedBytes < 0)
            continue;
        if (r.rank == 0) {
            m_deviceUsedSeries->setName(tr("GPU %1 VRAM").arg(r.device));
            m_memoryChart->setTitle(tr("Memory (rank 0's allocator)"));
            continue;
        }
        auto& line = m_otherRanks[r.rank];
        if (!line.series) {
            line.series = makeSeries(tr("GPU %1 VRAM").arg(r.device),
                                     colours[static_cast<size_t>(r.rank - 1) % std::size(colours)], Qt::SolidLine, 2);
            m_memoryChart->addSeries(line.series);
            line.series->attachAxis(m_memoryX);
            line.series->attachAxis(m_memoryY);
        }
        line.points.append(x, r.deviceUsedBytes);
        m_memoryReported = true;
    }
}

QStringList TrainingCharts::memorySeriesNames() const
{
    QStringList names;
    for (const auto* s : m_memoryChart->series())
        names << s->name();
    return names;
}

void TrainingCharts::addEpoch(int epoch, double valLoss, double samplesPerS)
{
    m_valLoss.append(epoch, valLoss);
    // At the epoch's end, as the validation loss, the loss chart and the epoch table put epoch N at N (at N - 0.5
    // the points sat at 0.5, 1.5, 2.5 beside a table of 1, 2, 3).
    m_epochSamples.append(epoch, samplesPerS);
    m_lastX = std::max(m_lastX, static_cast<double>(epoch));
}

void TrainingCharts::showRecordedEpochs(const std::vector<training::EpochMetrics>& epochs, int plannedEpochs)
{
    clear();
    setPlannedEpochs(plannedEpochs);
    for (const auto& e : epochs) {
        m_trainLoss.append(e.epoch, e.trainLoss); // an epoch's figure at its end, like the validation loss
        addEpoch(e.epoch, e.valLoss, e.samplesPerS);
    }
    m_sawStep = !epochs.empty();
    m_memoryNoteText = tr("Not in the report:\nit keeps each epoch's loss\nand speed, not memory.");
    refresh();
}

void TrainingCharts::setLogScale(bool on)
{
    if (on == m_logScale)
        return;
    m_logScale = on;
    // The chart gives up ownership of a removed axis: delete it and attach a fresh one of the other kind.
    QAbstractAxis* old = on ? static_cast<QAbstractAxis*>(m_lossLinear) : static_cast<QAbstractAxis*>(m_lossLog);
    m_lossChart->removeAxis(old);
    delete old;
    m_lossLinear = nullptr;
    m_lossLog = nullptr;
    QAbstractAxis* fresh = nullptr;
    if (on) {
        m_lossLog = new QLogValueAxis;
        m_lossLog->setBase(10);
        m_lossLog->setLabelFormat(QStringLiteral("%.3g"));
        m_lossLog->setMinorTickCount(8);
        fresh = m_lossLog;
    } else {
        m_lossLinear = new QValueAxis;
        m_lossLinear->setLabelFormat(QStringLiteral("%.3g"));
        fresh = m_lossLinear;
    }
    // Said in the title, like the throughput's unit: a vertical axis title is cut in a low plot.
    m_lossChart->setTitle(on ? tr("Loss (log scale)") : tr("Loss"));
    m_lossChart->addAxis(fresh, Qt::AlignLeft);
    m_trainLossSeries->attachAxis(fresh);
    m_valLossSeries->attachAxis(fresh);
    refreshLoss();
}

bool TrainingCharts::memoryNoteShown() const
{
    return !m_memoryNote->isHidden();
}

void TrainingCharts::refresh()
{
    refreshLoss();
    refreshSamples();
    refreshMemory();
}

void TrainingCharts::refreshLoss()
{
    const AxisRange x = epochRange(m_plannedEpochs, m_lastX);
    setEpochAxis(m_lossX, x);
    ValueSpan span;
    span.include(m_trainLoss.points(), m_logScale);
    span.include(m_valLoss.points(), m_logScale);
    if (m_logScale) {
        m_trainLossSeries->replace(scaled(m_trainLoss.points(), 1.0, true));
        m_valLossSeries->replace(scaled(m_valLoss.points(), 1.0, true));
        const AxisRange y = logRange(span);
        if (m_lossLog->min() != y.min || m_lossLog->max() != y.max)
            m_lossLog->setRange(y.min, y.max);
    } else {
        m_trainLossSeries->replace(m_trainLoss.points());
        m_valLossSeries->replace(m_valLoss.points());
        const AxisRange y = linearRange(span, false);
        setValueAxis(m_lossLinear, y, ticksFor(m_lossChart, m_lossLinear));
    }
}

void TrainingCharts::refreshSamples()
{
    setEpochAxis(m_samplesX, epochRange(m_plannedEpochs, m_lastX));
    ValueSpan span;
    span.include(m_samples.points());
    span.include(m_epochSamples.points());
    // One stated unit whatever the run's speed (the chart's title says it): thousands of samples a second, the labels
    // in fixed decimals (one run read "5e+03" and another "k samples/s" when the unit followed the figures).
    const double factor = 1e-3;
    m_samplesSeries->replace(scaled(m_samples.points(), factor));
    m_epochSamplesSeries->replace(scaled(m_epochSamples.points(), factor));
    span.lo *= factor;
    span.hi *= factor;
    const AxisRange y = linearRange(span, true);
    setValueAxis(m_samplesY, y, ticksFor(m_samplesChart, m_samplesY));
}

void TrainingCharts::refreshMemory()
{
    setEpochAxis(m_memoryX, epochRange(m_plannedEpochs, m_lastX));
    ValueSpan span;
    span.include(m_deviceUsed.points());
    span.include(m_allocated.points());
    span.include(m_reserved.points());
    for (const auto& [rank, line] : m_otherRanks)
        span.include(line.points.points());
    const bool gib = span.valid && span.hi >= double(1ULL << 30);
    const double factor = 1.0 / double(gib ? (1ULL << 30) : (1ULL << 20));
    m_deviceUsedSeries->replace(scaled(m_deviceUsed.points(), factor));
    m_allocatedSeries->replace(scaled(m_allocated.points(), factor));
    m_reservedSeries->replace(scaled(m_reserved.points(), factor));
    for (auto& [rank, line] : m_otherRanks)
        line.series->replace(scaled(line.points.points(), factor));
    span.lo *= factor;
    span.hi *= factor;
    const AxisRange y = linearRange(span, true);
    setValueAxis(m_memoryY, y, ticksFor(m_memoryChart, m_memoryY));
    m_memoryY->setTitleText(gib ? tr("GiB") : tr("MiB"));
    // Nothing to draw: a clean box with the reason, not empty axes the note would half cover.
    const bool note = m_sawStep && !m_memoryReported && !m_memoryNoteText.isEmpty();
    m_memoryNote->setText(m_memoryNoteText);
    m_memoryNote->setVisible(note);
    m_memoryX->setVisible(!note);
    m_memoryY->setVisible(!note);
    m_memoryChart->legend()->setVisible(!note);
}

} // namespace stackscope::ui
