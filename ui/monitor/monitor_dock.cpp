// MonitorDock: wiring of sampler, store, coalesced refresh, charts, readings table and export.
#include "ui/monitor/monitor_dock.h"
#include "ui/widgets/file_dialogs.h"

#include "core/telemetry/telemetry_output.h"
#include "core/util/atomic_file.h"
#include "ui/monitor/latest_readings_model.h"
#include "ui/monitor/telemetry_chart.h"
#include "ui/monitor/time_axis.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QPixmap>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace stackscope::ui {

using namespace telemetry;

MonitorDock::MonitorDock(QWidget* parent)
    : QDockWidget(titleText(), parent)
    , m_store(std::make_shared<TelemetryStore>())
    , m_torchFeed(std::make_shared<TorchAllocatorFeed>())
{
    m_sampler = std::make_unique<TelemetrySampler>(defaultTelemetrySources(m_torchFeed), m_store);
    build();
    m_sampler->start();
}

MonitorDock::MonitorDock(std::shared_ptr<TelemetryStore> store, std::unique_ptr<TelemetrySampler> sampler,
                         QWidget* parent)
    : QDockWidget(titleText(), parent)
    , m_store(std::move(store))
    , m_torchFeed(std::make_shared<TorchAllocatorFeed>())
    , m_sampler(std::move(sampler))
{
    build();
    if (m_sampler)
        m_sampler->start();
}

MonitorDock::~MonitorDock()
{
    // Stop the producer before the listener goes: no call may reach a half-destroyed panel.
    if (m_sampler)
        m_sampler->stop();
    m_store->removeListener(m_listener);
}

// The dock samples this machine whatever the pages show (a recorded root, a report): its title says so, or "No GPU
// samples" under a page showing the recorded machine's GPU read as that machine's (walkthrough third, problem 12).
QString MonitorDock::titleText()
{
    return tr("Monitor: this machine");
}

void MonitorDock::build()
{
    setObjectName(QStringLiteral("monitorDock"));
    setAllowedAreas(Qt::AllDockWidgetAreas);
    m_axis = new SharedTimeAxis(this);
    m_model = new LatestReadingsModel(this);

    auto* body = new QWidget(this);
    m_body = body;
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buildControls(body));
    // Why there is nothing to draw, said once for all four charts.
    m_message = new QLabel(body);
    m_message->setObjectName(QStringLiteral("monitorMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();
    layout->addWidget(m_message);

    m_message->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    m_chartsAndTable = buildChartsAndTable(body);
    layout->addWidget(m_chartsAndTable, 1);
    layout->addStretch(0); // takes what is left once the charts are folded away: the message stays under the controls
    // In a scroll area: the dock never sets the window's minimum size (the window stays resizable down to
    // 1024x640 with the Monitor open, docked, tabbed or floating).
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("monitorScroll"));
    scroll->setWidget(body);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    setWidget(scroll);

    connectSignals();
}

// Sampling rate, time span, Live, and the two exports, in one row above the charts.
QHBoxLayout* MonitorDock::buildControls(QWidget* body)
{
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Sampling"), body));
    m_rate = new QComboBox(body);
    m_rate->setObjectName(QStringLiteral("samplingRate"));
    for (int hz : {1, 2, 4, 10, 20})
        m_rate->addItem(tr("%1 Hz").arg(hz), hz);
    m_rate->setCurrentIndex(2);
    m_rate->setEnabled(m_sampler != nullptr);
    m_rate->setToolTip(tr("How often the sampler thread reads this machine's GPUs (also while the pages show a "
                          "recorded machine or a report); the charts repaint at most 25 times a second whatever the "
                          "rate"));
    bar->addWidget(m_rate);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Show"), body));
    m_span = new QComboBox(body);
    m_span->setObjectName(QStringLiteral("timeSpan"));
    const std::pair<QString, TimeMs> spans[] = {{tr("1 min"), 60'000},
                                                {tr("10 min"), 600'000},
                                                {tr("1 h"), 3'600'000},
                                                {tr("24 h"), 86'400'000}};
    for (const auto& [label, ms] : spans)
        m_span->addItem(label, QVariant::fromValue<qint64>(ms));
    m_span->setCurrentIndex(1);
    bar->addWidget(m_span);
    m_live = new QToolButton(body);
    m_live->setText(tr("Live"));
    m_live->setCheckable(true);
    m_live->setChecked(true);
    m_live->setToolTip(tr("Follow the newest sample (double-click a chart to return here after zooming)"));
    bar->addWidget(m_live);
    bar->addStretch(1);
    m_exportCsv = new QToolButton(body);
    m_exportCsv->setObjectName(QStringLiteral("monitorExportCsv"));
    m_exportCsv->setText(tr("Export CSV…"));
    m_exportPng = new QToolButton(body);
    m_exportPng->setObjectName(QStringLiteral("monitorExportPng"));
    m_exportPng->setText(tr("Export PNG…"));
    bar->addWidget(m_exportCsv);
    bar->addWidget(m_exportPng);
    connect(m_exportCsv, &QToolButton::clicked, this, &MonitorDock::chooseCsvFile);
    connect(m_exportPng, &QToolButton::clicked, this, &MonitorDock::choosePngFile);
    enableExports(false);
    return bar;
}

// The four charts two by two above the latest-readings table, in a splitter.
QSplitter* MonitorDock::buildChartsAndTable(QWidget* body)
{
    auto* split = new QSplitter(Qt::Vertical, body);
    m_chartArea = new QWidget(split);
    m_chartArea->setObjectName(QStringLiteral("chartArea"));
    // Two by two: four charts stacked make the dock taller than a laptop screen.
    auto* charts = new QGridLayout(m_chartArea);
    charts->setContentsMargins(0, 0, 0, 0);
    charts->setSpacing(2);
    // VRAM carries libtorch's allocated/reserved as dashed overlays: the process's own memory next to
    // the allocator's cache and the device total, the question users open rocm-smi for.
    m_charts.push_back(new TelemetryChart(Quantity::VramUsed, {Quantity::TorchAllocated, Quantity::TorchReserved}, m_axis,
                                          m_chartArea));
    m_charts.push_back(new TelemetryChart(Quantity::Utilisation, {}, m_axis, m_chartArea));
    m_charts.push_back(new TelemetryChart(Quantity::Temperature, {}, m_axis, m_chartArea));
    m_charts.push_back(new TelemetryChart(Quantity::Power, {}, m_axis, m_chartArea));
    for (int i = 0; i < int(m_charts.size()); ++i)
        charts->addWidget(m_charts[std::size_t(i)], i / 2, i % 2);
    split->addWidget(m_chartArea);
    m_table = new QTableView(split);
    m_table->setObjectName(QStringLiteral("latestReadings"));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    split->addWidget(m_table);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    return split;
}

// The coalesced refresh, the store's listener and the controls; then the axis goes live at the chosen span.
void MonitorDock::connectSignals()
{
    m_repaintTimer.setSingleShot(true);
    connect(&m_repaintTimer, &QTimer::timeout, this, &MonitorDock::refreshNow);
    m_sinceRefresh.start();

    // The store calls this on the sampler thread: only the first sample after a refresh posts a call;
    // later ones find m_dirty set and return, so a 20 Hz (or a benchmark's 100 kHz) producer never
    // floods the GUI thread's event queue.
    m_listener = m_store->addListener([this] {
        if (!m_dirty.exchange(true))
            QMetaObject::invokeMethod(this, &MonitorDock::scheduleRefresh, Qt::QueuedConnection);
    });
    connect(m_axis, &SharedTimeAxis::rangeChanged, this, [this] {
        m_live->setChecked(m_axis->isLive());
        // Keep the span box in step when someone else (the Training page, a test) set the span.
        const int index = m_span->findData(QVariant::fromValue<qint64>(m_axis->span()));
        if (m_axis->isLive() && index >= 0 && index != m_span->currentIndex()) {
            const QSignalBlocker block(m_span);
            m_span->setCurrentIndex(index);
        }
        scheduleRefresh();
    });
    connect(m_rate, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this] { setSamplingRateHz(m_rate->currentData().toInt()); });
    connect(m_span, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this] { m_axis->setLive(m_span->currentData().toLongLong()); });
    connect(m_live, &QToolButton::clicked, this, [this](bool on) {
        if (on)
            m_axis->setLive(m_span->currentData().toLongLong());
        else
            m_live->setChecked(true); // leaving live happens by panning or zooming a chart
    });
    m_axis->setLive(m_span->currentData().toLongLong());
}

// Off until there are GPU samples: enabled, they wrote a CSV of headers and a picture of empty charts.
void MonitorDock::enableExports(bool hasGpuSamples)
{
    const QString why = hasGpuSamples ? QString() : tr("Nothing to export yet: no GPU samples from this machine");
    m_exportCsv->setEnabled(hasGpuSamples);
    m_exportPng->setEnabled(hasGpuSamples);
    m_exportCsv->setToolTip(hasGpuSamples ? tr("This machine's samples over the whole timeline, as CSV") : why);
    m_exportPng->setToolTip(hasGpuSamples ? tr("The four charts as shown, as PNG") : why);
}

bool MonitorDock::exportsEnabled() const
{
    return m_exportCsv->isEnabled();
}

void MonitorDock::setSamplingRateHz(int hz)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_sampler || hz <= 0)
        return;
    m_sampler->setIntervalMs(std::clamp(1000 / hz, TelemetrySampler::kMinIntervalMs, TelemetrySampler::kMaxIntervalMs));
    const int index = m_rate->findData(hz);
    if (index >= 0 && index != m_rate->currentIndex())
        m_rate->setCurrentIndex(index);
}

void MonitorDock::addEvent(EventKind kind, const std::string& text)
{
    m_store->addEvent({nowMs(), kind, text});
}

void MonitorDock::scheduleRefresh()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_repaintTimer.isActive())
        return;
    const qint64 wait = std::max<qint64>(0, kRepaintIntervalMs - m_sinceRefresh.elapsed());
    m_repaintTimer.start(int(wait));
}

void MonitorDock::showEvent(QShowEvent* event)
{
    QDockWidget::showEvent(event);
    if (!std::exchange(m_fitted, true))
        QTimer::singleShot(0, this, &MonitorDock::fitDockedHeight);
    scheduleRefresh();
}

int MonitorDock::compactHeight() const
{
    // The title bar, the controls and the message line: what a collapsed dock shows.
    const int chrome = isVisible() && widget()->height() > 0 ? height() - widget()->height() : fontMetrics().height() + 8;
    auto* layout = m_body->layout();
    const int margins = layout->contentsMargins().top() + layout->contentsMargins().bottom();
    int top = chrome + margins + layout->itemAt(0)->sizeHint().height();
    if (!m_message->isHidden())
        top += layout->spacing() + m_message->heightForWidth(std::max(200, m_body->width()));
    if (m_collapsed)
        return top;
    const auto* window = parentWidget();
    const int room = window ? window->height() * 2 / 5 : 400;
    // Two rows of charts at ~110 px each and the readings table's header and a row or two.
    return std::max(top + 140, std::min(room, top + 2 * 110 + 80));
}

void MonitorDock::fitDockedHeight()
{
    auto* window = qobject_cast<QMainWindow*>(parentWidget());
    if (!window || isFloating() || !isVisible())
        return;
    const auto area = window->dockWidgetArea(this);
    if (area == Qt::TopDockWidgetArea || area == Qt::BottomDockWidgetArea)
        window->resizeDocks({this}, {compactHeight()}, Qt::Vertical);
}

void MonitorDock::setCollapsed(bool collapsed)
{
    if (collapsed == m_collapsed)
        return;
    m_collapsed = collapsed;
    // Four empty charts saying "No GPU samples" took half of a 640 px window: one line says it instead.
    m_chartsAndTable->setVisible(!collapsed);
    QTimer::singleShot(0, this, &MonitorDock::fitDockedHeight);
}

QString MonitorDock::messageText() const
{
    return m_message->isVisibleTo(const_cast<MonitorDock*>(this)) ? m_message->text() : QString();
}

QString MonitorDock::emptyMessage(const std::optional<TelemetrySample>& latest) const
{
    if (!latest || !latest->gpus.empty())
        return {};
    QStringList why;
    for (const auto& s : latest->sources) {
        if (!s.available && s.reason == MissingReason::LibraryNotLoaded)
            why << QStringLiteral("%1: %2").arg(QString::fromStdString(s.source), QString::fromStdString(s.detail));
    }
    return why.isEmpty() ? tr("No GPU visible to NVML or rocm_smi.")
                         : tr("No GPU visible to NVML or rocm_smi. %1").arg(why.join(QStringLiteral("; ")));
}

void MonitorDock::refreshNow()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_dirty = false; // before reading: a sample that lands during the refresh schedules the next one
    m_sinceRefresh.restart();
    // A hidden dock keeps its timeline (the sampler runs on) but costs the GUI thread nothing.
    if (!isVisible())
        return;
    const auto latest = m_store->latest();
    const TimeMs newest = m_store->newestTime().value_or(nowMs());
    const auto [t0, t1] = m_axis->rangeFor(newest);
    const auto events = m_store->events(t0, t1);
    const QString empty = emptyMessage(latest);
    if (m_message->toolTip() != empty) {
        const int sentence = empty.indexOf(QLatin1String(". "));
        QString why = sentence < 0 ? empty : empty.left(sentence + 1) + tr(" (hover for the loaders' messages)");
        why[0] = why[0].toLower(); // "No GPU samples: no GPU visible to NVML or rocm_smi."
        m_message->setText(tr("No GPU samples from this machine: %1").arg(why));
        m_message->setToolTip(empty); // the loaders' whole messages
    }
    m_message->setVisible(!empty.isEmpty());
    setCollapsed(!empty.isEmpty());
    enableExports(latest && !latest->gpus.empty());
    // The charts only say that they are empty; the reason is in the message above them.
    const QString chartEmpty = !latest ? tr("Waiting for the first sample…") : latest->gpus.empty() ? tr("No GPU samples") : QString();
    for (auto* c : m_charts)
        c->refresh(*m_store, t0, t1, events, chartEmpty);
    if (latest && m_store->generation() != m_drawnGeneration)
        m_model->setSample(*latest);
    m_drawnGeneration = m_store->generation();
    ++m_refreshCount;
    Q_EMIT refreshed();
}

QString MonitorDock::exportCsv(const QString& path) const
{
    try {
        exportTimelineCsv(*m_store, path.toStdString());
    } catch (const FileWriteError& e) {
        return tr("Could not write %1: %2. Choose a folder you can write to.").arg(path, QString::fromUtf8(e.what()));
    }
    return {};
}

QString MonitorDock::exportPng(const QString& path) const
{
    const QPixmap pixmap = m_chartArea->grab();
    if (pixmap.isNull() || !pixmap.save(path, "PNG"))
        return tr("Could not save the charts to %1. Choose a folder you can write to and a name ending in .png.").arg(path);
    return {};
}

void MonitorDock::chooseCsvFile()
{
    const QString path = saveFileInLastFolder(this, tr("Export telemetry as CSV"), QStringLiteral("telemetry.csv"),
                                                      tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    if (const QString error = exportCsv(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Export CSV"), error);
}

void MonitorDock::choosePngFile()
{
    const QString path = saveFileInLastFolder(this, tr("Export charts as PNG"), QStringLiteral("telemetry.png"),
                                                      tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    if (const QString error = exportPng(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Export PNG"), error);
}

} // namespace stackscope::ui
