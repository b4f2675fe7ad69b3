// TrainingPage: the run in a worker thread, progress coalesced into at most ~25 repaints a second, Stop that
// keeps the last checkpoint, Resume, and the run's end with its output folder.
#include "ui/training/training_page.h"

#include "core/training/training_files_check.h"
#include "core/training/training_metadata.h"
#include "core/util/atomic_file.h"
#include "core/vpoc/market_data.h"
#include "core/vpoc/sample_data.h"
#include "ui/training/epoch_table_view.h"
#include "ui/training/stall_meter.h"
#include "ui/training/training_charts.h"
#include "ui/training/training_form.h"
#include "ui/training/training_option_changes.h"
#include "ui/widgets/stale_banner.h"

#include <QChartView>
#include <QCheckBox>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QEvent>
#include <QScrollArea>
#include <QShowEvent>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <mutex>
#include <vector>

namespace stackscope::ui {

// Progress from the worker waits here until the GUI thread takes it. The worker posts one drain call
// only when none is pending, so however often the trainer reports, the event queue holds at most one.
struct ProgressInbox {
    std::mutex mutex;
    std::vector<training::TrainingProgress> items;
    bool drainPosted = false;
};

struct RunOutcome {
    std::shared_ptr<const training::TrainingResult> result;
    QString error;
    bool stopRequested = false;
};

// A thin progress line. QProgressBar::setValue repaints synchronously (~5-15 ms here, each time); this
// only schedules a paint, which joins the window's next frame.
class ProgressStrip : public QWidget {
public:
    explicit ProgressStrip(QWidget* parent)
        : QWidget(parent)
    {
        setFixedHeight(6);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    double fraction() const { return m_fraction; }
    void setFraction(double fraction)
    {
        fraction = std::clamp(fraction, 0.0, 1.0);
        if (qRound(fraction * width()) != qRound(m_fraction * width()))
            update();
        m_fraction = fraction;
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.fillRect(rect(), palette().color(QPalette::Midlight));
        p.fillRect(QRect(0, 0, qRound(m_fraction * width()), height()), palette().color(QPalette::Highlight));
    }

private:
    double m_fraction = 0;
};

namespace {

// Repaints at most every 40 ms (25 a second) however fast progress arrives (STYLE.md item 6).
constexpr int kRepaintMs = 40;

QString duration(double seconds)
{
    if (seconds < 0)
        return QObject::tr("estimating…");
    const auto s = static_cast<qint64>(seconds + 0.5);
    if (s < 60)
        return QObject::tr("%1 s").arg(s);
    if (s < 3600)
        return QObject::tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return QObject::tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
}

EpochTable tableFromMetadata(const nlohmann::json& metadata)
{
    EpochTable t;
    for (const auto& e : metadata.value("epochs", nlohmann::json::array())) {
        training::EpochMetrics m;
        m.epoch = e.value("epoch", 0);
        m.trainLoss = e.value("train_loss", 0.0);
        m.valLoss = e.value("val_loss", 0.0);
        m.samplesPerS = e.value("samples_per_s", 0.0);
        m.seconds = e.value("seconds", 0.0);
        t.epochs.push_back(m);
    }
    const auto best = metadata.find("best_epoch");
    t.bestEpoch = best != metadata.end() && best->is_number_integer() ? best->get<int>() : 0;
    return t;
}

} // namespace

TrainingPage::TrainingPage(SnapshotController* snapshots, QWidget* parent)
    : QWidget(parent)
    , m_jobs(this)
    , m_repaintTimer(new QTimer(this))
    , m_stall(new StallMeter(this))
    , m_form(new TrainingForm(snapshots, this))
{
    m_repaintTimer->setSingleShot(true);
    m_repaintTimer->setInterval(kRepaintMs);
    connect(m_repaintTimer, &QTimer::timeout, this, &TrainingPage::repaint);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(createControls());
    split->addWidget(createResults());
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    auto* title = new QLabel(tr("<h2>Training</h2>"), this);
    // Start/Stop/Resume sit beside the title, outside every scroll area: always in view, at any window size.
    auto* top = new QHBoxLayout;
    top->addWidget(title);
    top->addStretch(1);
    top->addWidget(m_start);
    top->addWidget(m_stop);
    top->addWidget(m_resume);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    setRunning(false);
}

namespace {

// The form's scroll area: as wide as the form and a vertical scroll bar where the window allows, following the
// form's minimum width as it fills in after the first layout (the device list, the processes row). It never scrolls
// sideways: at 1024x640 that hid the Browse buttons and the spin boxes.
class FormScrollArea : public QScrollArea {
public:
    explicit FormScrollArea(QWidget* form, QWidget* parent)
        : QScrollArea(parent)
    {
        setWidget(form);
        setWidgetResizable(true);
        setFrameShape(QFrame::NoFrame);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        form->installEventFilter(this);
    }
    QSize sizeHint() const override { return {wanted(), QScrollArea::sizeHint().height()}; }
    // The splitter never gives the form less than it needs.
    QSize minimumSizeHint() const override { return {wanted(), QScrollArea::minimumSizeHint().height()}; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == widget() && event->type() == QEvent::LayoutRequest)
            fit();
        return QScrollArea::eventFilter(watched, event);
    }
    void showEvent(QShowEvent* event) override
    {
        QScrollArea::showEvent(event);
        fit();
    }

private:
    int wanted() const
    {
        return widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth();
    }
    // Widens this pane of the splitter by what the form lacks, taken from the other pane's room above its minimum.
    void fit()
    {
        setMaximumWidth(std::max(400, wanted()));
        updateGeometry();
        auto* split = qobject_cast<QSplitter*>(parentWidget());
        if (!split || !isVisible() || split->count() != 2)
            return;
        const int need = wanted() - width();
        const int self = split->indexOf(this), other = 1 - self;
        auto sizes = split->sizes();
        const int spare = sizes[other] - split->widget(other)->minimumSizeHint().width();
        const int give = std::min(need, spare);
        if (give <= 0)
            return;
        sizes[self] += give;
        sizes[other] -= give;
        split->setSizes(sizes);
    }
};

} // namespace

// The job may outlive the page by one training step: JobTracker's destructor cancels it, and its posts find no
// owner.
TrainingPage::~TrainingPage() = default;

QWidget* TrainingPage::createControls()
{
    auto* panel = new QWidget(this);
    auto* v = new QVBoxLayout(panel);
    v->setContentsMargins(0, 0, 6, 0);
    v->addWidget(m_form);
    m_start = new QPushButton(tr("Start"), panel);
    m_start->setObjectName(QStringLiteral("trainingStart"));
    m_start->setDefault(true);
    m_stop = new QPushButton(tr("Stop"), panel);
    m_stop->setObjectName(QStringLiteral("trainingStop"));
    m_stop->setToolTip(tr("Stops within one step; the last finished epoch's checkpoint stays for Resume"));
    m_resume = new QPushButton(tr("Resume"), panel);
    m_resume->setObjectName(QStringLiteral("trainingResumeButton"));
    m_resume->setToolTip(tr("Continue the stopped run from its checkpoint, in the same output folder"));
    connect(m_start, &QPushButton::clicked, this, &TrainingPage::start);
    connect(m_stop, &QPushButton::clicked, this, &TrainingPage::stop);
    connect(m_resume, &QPushButton::clicked, this, &TrainingPage::resume);
    v->addStretch(1);

    return new FormScrollArea(panel, this);
}

QWidget* TrainingPage::createResults()
{
    auto* panel = new QWidget(this);
    auto* v = new QVBoxLayout(panel);
    v->setContentsMargins(6, 0, 0, 0);

    m_status = new QLabel(tr("Set the options and press Start. Training runs in the background; the page "
                             "stays responsive and Stop keeps the last finished epoch."),
                          panel);
    m_status->setObjectName(QStringLiteral("trainingStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new ProgressStrip(panel);
    m_progress->setObjectName(QStringLiteral("trainingProgress"));
    m_details = new QLabel(panel);
    m_details->setObjectName(QStringLiteral("trainingDetails"));
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setStyleSheet(QStringLiteral("QLabel { color: #555; }"));
    v->addWidget(m_status);
    v->addWidget(m_progress);
    v->addWidget(m_details);
    m_staleBanner = new StaleBanner(panel);
    m_staleBanner->setObjectName(QStringLiteral("trainingStale"));
    v->addWidget(m_staleBanner);
    connect(m_form, &TrainingForm::optionsChanged, this, &TrainingPage::markResults);

    m_logScale = new QCheckBox(tr("Log scale (loss)"), panel);
    m_logScale->setObjectName(QStringLiteral("trainingLogScale"));
    m_stallLabel = new QLabel(panel);
    m_stallLabel->setObjectName(QStringLiteral("trainingStall"));
    m_stallLabel->setToolTip(tr("The most a 5 ms timer on the GUI thread was late during the run: how long the "
                                "window could not react"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_logScale);
    bar->addStretch(1);
    bar->addWidget(m_stallLabel);
    v->addLayout(bar);

    m_charts = new TrainingCharts(panel);
    connect(m_logScale, &QCheckBox::toggled, m_charts, &TrainingCharts::setLogScale);
    m_epochModel = new EpochTableModel(this);
    // Columns as wide as their header and recent cells need (not ResizeToContents: that measures every row on each
    // reset, O(epochs) per repaint); "0...." and "Samples/" were Stretch's equal shares at 1024x640.
    m_epochView = new EpochTableView(panel);
    m_epochView->setObjectName(QStringLiteral("trainingEpochs"));
    m_epochView->setModel(m_epochModel);
    m_epochView->verticalHeader()->hide();
    m_epochView->verticalHeader()->setDefaultSectionSize(m_epochView->fontMetrics().height() + 6);
    m_epochView->setAlternatingRowColors(true);
    m_epochView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_epochView->setMinimumHeight(120);
    auto* grid = new QGridLayout;
    grid->addWidget(m_charts->lossView(), 0, 0);
    grid->addWidget(m_charts->samplesView(), 0, 1);
    grid->addWidget(m_charts->memoryView(), 1, 0);
    grid->addWidget(m_epochView, 1, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    v->addLayout(grid, 1);

    m_outputLabel = new QLabel(tr("Output folder: appears here when a run ends."), panel);
    m_outputLabel->setObjectName(QStringLiteral("trainingOutputFolder"));
    m_outputLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_outputLabel->setWordWrap(true);
    m_openFolder = new QPushButton(tr("Open folder"), panel);
    m_openFolder->setObjectName(QStringLiteral("trainingOpenFolder"));
    m_openFolder->setEnabled(false);
    connect(m_openFolder, &QPushButton::clicked, this, &TrainingPage::openOutputFolder);
    auto* out = new QHBoxLayout;
    out->addWidget(m_outputLabel, 1);
    out->addWidget(m_openFolder);
    v->addLayout(out);
    return panel;
}

QString TrainingPage::statusText() const
{
    return m_status->text();
}

void TrainingPage::setRunning(bool running)
{
    m_form->setEditable(!running);
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
    const bool resumable = !running && canResume();
    if (m_resume->isEnabled() != resumable) {
        m_resume->setEnabled(resumable);
        Q_EMIT resumableChanged(resumable);
    }
    markResults();
}

bool TrainingPage::canResume() const
{
    return m_lastStatus == training::TrainingStatus::Stopped && m_checkpointEpoch > 0;
}

// The form's configuration, validated; on a bad one the error is shown, the run counts as failed, and none is
// returned.
std::optional<training::TrainingConfig> TrainingPage::validatedConfig()
{
    training::TrainingConfig config;
    try {
        if (!m_form->resume() && m_form->outputIsDefault() && QFileInfo::exists(m_form->outputFolder()))
            m_form->setOutputFolder(TrainingForm::newDefaultOutput()); // a fresh run never mixes with an old one
        config = m_form->config();
        // The sample file is written by the job; validation only needs its name.
        training::validate(config);
    } catch (const std::exception& e) {
        showError(TrainingForm::explainError(QString::fromStdString(e.what())));
        m_lastStatus = training::TrainingStatus::Failed;
        Q_EMIT runEnded();
        return std::nullopt;
    }

    return config;
}

// The page for a new run (or the same folder's resumed run): charts and table, status lines, the stall meter.
void TrainingPage::resetForRun(const training::TrainingConfig& config)
{
    // A resume continues what is shown only when it is the same folder's run.
    if (!config.resume || config.output != m_shownOutput) {
        m_charts->clear();
        m_table = {};
        m_epochModel->setData(EpochTable {});
    }
    m_shownOutput = config.output;
    m_shownConfig = config;
    m_recordedOrigin.clear();
    m_staleBanner->update({}, {}, {});
    m_tableDirty = false;
    m_plannedEpochs = config.epochs;
    m_charts->setPlannedEpochs(config.epochs);
    m_firstEpoch = 1;
    m_haveStep = false;
    m_devices.clear();
    m_notes.clear();
    m_lastStatus.reset();
    m_checkpointEpoch = 0;
    m_finishedOutput.clear();
    m_outputLabel->setText(tr("Output folder: %1 (being written)").arg(QString::fromStdString(config.output)));
    m_openFolder->setEnabled(false);
    m_progress->setFraction(0);
    m_details->clear();
    m_status->setText(config.resume ? tr("Resuming from %1…").arg(QString::fromStdString(config.output))
                                    : tr("Reading %1 and building the features…").arg(QString::fromStdString(config.input)));

    m_inbox = std::make_shared<ProgressInbox>();
    m_stall->start();
    m_longestUpdateNs = 0;
    m_charts->resetPaintTiming();
    m_stallLabel->setText(tr("measuring the GUI thread's longest stall…"));
    setRunning(true);
    repaint();

}

// In the job's thread: the sample file if asked, the resumed epochs shown at once, then the run; progress goes
// through the inbox to the GUI thread. Errors the run reports become the outcome's message. `self` is only used in
// calls posted to the GUI thread (JobControl drops them once the page is gone).
RunOutcome TrainingPage::runJob(TrainingPage* self, const training::TrainingConfig& config, bool writeSample,
                                const std::shared_ptr<ProgressInbox>& inbox, const JobControl& control)
{
    RunOutcome out;
    try {
        if (writeSample && !QFileInfo::exists(QString::fromStdString(config.input))) {
            QDir().mkpath(QFileInfo(QString::fromStdString(config.input)).absolutePath());
            writeFileAtomically(config.input, vpoc::generateSampleData(vpoc::SampleDataOptions {}));
        }
        if (config.resume) {
            // A page opened after the stop has no rows yet: show the checkpoint's epochs before the
            // run continues (a bad folder throws here with the message runTraining would give).
            auto metadata = training::readMetadata(config.output + "/model_metadata.json");
            training::checkTrainingFiles(metadata, config.output); // only the epochs the files hold
            auto saved = tableFromMetadata(metadata);
            control.post([self, saved = std::move(saved)] {
                if (!self->m_table.epochs.empty())
                    return;
                self->m_table = saved;
                self->m_tableDirty = true;
                for (const auto& e : self->m_table.epochs)
                    self->m_charts->addEpoch(e.epoch, e.valLoss, e.samplesPerS);
                self->scheduleRepaint();
            });
        }
        auto report = [self, control, inbox](const training::TrainingProgress& p) {
            bool post = false;
            {
                std::lock_guard<std::mutex> lock(inbox->mutex);
                inbox->items.push_back(p);
                post = !inbox->drainPosted;
                inbox->drainPosted = true;
            }
            if (post)
                control.post([self] { self->drain(); });
        };
        out.result = training::runTraining(config, report, control.cancelToken());
    } catch (const training::ConfigError& e) {
        out.error = TrainingForm::explainError(QString::fromStdString(e.what()));
    } catch (const vpoc::InputError& e) {
        out.error = QString::fromStdString(e.what());
    } catch (const training::DatasetCancelled&) {
        // Stop while the data were read: the status line says so, there is nothing else to show.
    } catch (const std::exception& e) {
        out.error = QString::fromStdString(e.what());
    }
    out.stopRequested = control.isCancelled();
    return out;
}

void TrainingPage::start()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_jobs.isRunning())
        return;
    const auto config = validatedConfig();
    if (!config)
        return;
    resetForRun(*config);
    const bool writeSample = m_form->inputIsSample();
    // Stop is JobTracker::requestStop(): the trainer sees control's cancel flag and the result (its last
    // checkpoint) still arrives; the page going away cancels the job and drops it.
    m_jobs.run(
        [this, config = *config, writeSample, inbox = m_inbox](const JobControl& control) {
            return runJob(this, config, writeSample, inbox, control);
        },
        [this](RunOutcome out) { onRunEnded(std::move(out)); },
        [this](const QString& error) { // the job catches what it expects; this is anything else
            RunOutcome out;
            out.error = error;
            onRunEnded(std::move(out));
        });
}

void TrainingPage::stop()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_jobs.isRunning() || m_jobs.stopRequested())
        return;
    m_jobs.requestStop();
    m_stopClock.start();
    m_stop->setEnabled(false);
    m_status->setText(tr("Stopping… the trainer stops within one step and keeps the last finished epoch's checkpoint."));
}

void TrainingPage::resume()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_jobs.isRunning())
        return;
    if (!m_finishedOutput.isEmpty())
        m_form->setOutputFolder(m_finishedOutput);
    m_form->setResume(true);
    start();
}

void TrainingPage::openOutputFolder()
{
    if (m_finishedOutput.isEmpty())
        return;
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(m_finishedOutput)))
        showError(tr("Could not open %1 with the desktop's file manager; open it by hand (the path can be copied "
                     "from the line beside the button)")
                      .arg(m_finishedOutput));
}

void TrainingPage::drain()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_inbox)
        return;
    QElapsedTimer clock;
    clock.start();
    std::vector<training::TrainingProgress> items;
    {
        std::lock_guard<std::mutex> lock(m_inbox->mutex);
        items.swap(m_inbox->items);
        m_inbox->drainPosted = false;
    }
    for (const auto& p : items)
        handle(p);
    if (!items.empty())
        scheduleRepaint();
    m_longestUpdateNs = std::max(m_longestUpdateNs, clock.nsecsElapsed());
}

void TrainingPage::handle(const training::TrainingProgress& p)
{
    using Kind = training::TrainingProgress::Kind;
    switch (p.kind) {
    case Kind::Started: {
        m_devices = QString::fromStdString(p.message);
        m_charts->setDevices(m_devices);
        m_firstEpoch = p.firstEpoch;
        // A resumed run redoes the epoch a stop interrupted: what came after the checkpoint goes.
        m_charts->truncateAfterEpoch(m_firstEpoch - 1);
        auto& epochs = m_table.epochs;
        epochs.erase(std::remove_if(epochs.begin(), epochs.end(), [this](const auto& e) { return e.epoch >= m_firstEpoch; }),
                     epochs.end());
        m_tableDirty = true;
        break;
    }
    case Kind::Note: m_notes << QString::fromStdString(p.message); break;
    case Kind::Step:
        m_charts->addStep(p);
        m_lastStep = p;
        m_haveStep = true;
        if (m_stepObserver)
            m_stepObserver(p);
        break;
    case Kind::Epoch: {
        m_charts->addEpoch(p.epoch, p.valLoss, p.samplesPerS);
        training::EpochMetrics m;
        m.epoch = p.epoch;
        m.trainLoss = p.loss;
        m.valLoss = p.valLoss;
        m.samplesPerS = p.samplesPerS;
        m.seconds = p.seconds;
        m_table.epochs.push_back(m);
        m_table.bestEpoch = p.bestEpoch;
        m_tableDirty = true;
        break;
    }
    case Kind::Finished:
        if (const QString execution = QString::fromStdString(p.execution); !execution.isEmpty())
            m_notes << tr("execution: %1").arg(execution);
        break;
    }
}

void TrainingPage::scheduleRepaint()
{
    if (!m_repaintTimer->isActive())
        m_repaintTimer->start();
}

void TrainingPage::repaint()
{
    Q_ASSERT(QThread::currentThread() == thread());
    QElapsedTimer clock;
    clock.start();
    updateViews();
    m_longestUpdateNs = std::max(m_longestUpdateNs, clock.nsecsElapsed());
}

void TrainingPage::updateViews()
{
    m_charts->refresh();
    if (m_tableDirty) {
        m_epochModel->setData(m_table);
        m_epochView->scrollToBottom();
        m_tableDirty = false;
    }
    if (!m_jobs.isRunning())
        return;
    QStringList details;
    if (!m_devices.isEmpty())
        details << tr("Training on %1").arg(m_devices);
    details << m_notes;
    m_details->setText(details.join(QStringLiteral(" · ")));
    if (!m_haveStep || m_jobs.stopRequested())
        return;
    const auto& p = m_lastStep;
    const double epochsInRun = std::max(1, m_plannedEpochs - m_firstEpoch + 1);
    const double done = (p.epoch - m_firstEpoch) + (p.stepsPerEpoch > 0 ? double(p.step) / double(p.stepsPerEpoch) : 0.0);
    m_progress->setFraction(done / epochsInRun);
    m_status->setText(tr("Epoch %1 of %2 · step %3 of %4 · loss %5 · %6 samples/s · ETA %7")
                          .arg(p.epoch)
                          .arg(m_plannedEpochs)
                          .arg(p.step)
                          .arg(p.stepsPerEpoch)
                          .arg(p.loss, 0, 'g', 4)
                          .arg(QLocale().toString(p.samplesPerS, 'f', 0))
                          .arg(duration(p.etaS)));
}

void TrainingPage::onRunEnded(RunOutcome out)
{
    Q_ASSERT(QThread::currentThread() == thread());
    drain();
    m_repaintTimer->stop();
    m_stall->stop();
    showStall();
    const double stopSeconds = m_stopClock.isValid() ? m_stopClock.elapsed() / 1000.0 : -1;
    m_stopClock.invalidate();
    m_form->setResume(false);

    if (!out.result) {
        if (out.stopRequested) {
            // A stop while the data were read leaves no error; any other failure is worth showing.
            m_lastStatus = training::TrainingStatus::Stopped;
            QString text = tr("Stopped before training started (while the data was read); no checkpoint was "
                              "written. Press Start to run again.");
            if (!out.error.isEmpty())
                text += tr(" The run said: %1").arg(out.error);
            m_status->setText(text);
        } else {
            m_lastStatus = training::TrainingStatus::Failed;
            showError(out.error);
        }
        repaint();
        setRunning(false);
        Q_EMIT runEnded();
        return;
    }

    const auto& r = *out.result;
    // model_metadata.json's epochs are the whole run's, a resumed run's earlier epochs included.
    m_table = tableFromMetadata(r.metadata);
    m_tableDirty = true;
    m_checkpointEpoch = m_table.epochs.empty() ? 0 : m_table.epochs.back().epoch;
    m_lastStatus = r.status;
    m_finishedOutput = QDir(QString::fromStdString(r.outputDir)).absolutePath();
    repaint();

    const QString best = r.bestEpoch > 0 ? tr("best epoch %1 (validation loss %2, saved as model.pt)")
                                               .arg(r.bestEpoch)
                                               .arg(r.bestValLoss, 0, 'g', 5)
                                         : tr("no epoch finished");
    if (r.status == training::TrainingStatus::Stopped) {
        const QString when = stopSeconds >= 0 ? tr(" %1 s after Stop").arg(stopSeconds, 0, 'f', 2) : QString();
        m_status->setText(m_checkpointEpoch > 0
                              ? tr("Stopped%1, last checkpoint: epoch %2; %3. Resume continues from it.")
                                    .arg(when)
                                    .arg(m_checkpointEpoch)
                                    .arg(best)
                              : tr("Stopped%1 before the first epoch finished: no checkpoint was written. Press Start "
                                   "to run again.")
                                    .arg(when));
    } else if (r.status == training::TrainingStatus::EarlyStopped) {
        m_status->setText(tr("Stopped early after epoch %1: the validation loss did not improve for the patience's "
                             "epochs; %2.")
                              .arg(m_checkpointEpoch)
                              .arg(best));
        m_progress->setFraction(1);
    } else {
        m_status->setText(tr("Finished %1 epochs; %2; %3 steps/s.")
                              .arg(m_checkpointEpoch)
                              .arg(best)
                              .arg(r.stepsPerS, 0, 'f', 0));
        m_progress->setFraction(1);
    }
    QStringList details;
    details << tr("Trained on %1").arg(m_devices.isEmpty() ? tr("?") : m_devices);
    if (!r.execution.empty())
        details << tr("execution: %1").arg(QString::fromStdString(r.execution));
    for (const auto& n : r.notes)
        details << QString::fromStdString(n);
    m_details->setText(details.join(QStringLiteral(" · ")));
    m_outputLabel->setText(tr("Output folder: %1").arg(m_finishedOutput));
    m_openFolder->setEnabled(true);
    setRunning(false);
    Q_EMIT runEnded();
}

bool TrainingPage::showRecordedRun(const nlohmann::json& metadata, const QString& origin)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_jobs.isRunning())
        return false; // a run here is not replaced by a report's
    const EpochTable table = metadata.is_object() ? tableFromMetadata(metadata) : EpochTable {};
    if (table.epochs.empty()) {
        clearRecordedRun();
        return false;
    }
    std::optional<training::TrainingConfig> config;
    if (const auto c = metadata.find("config"); c != metadata.end()) {
        try {
            config = training::configFromJson(*c);
        } catch (const std::exception&) {
            // An older report's config: the epochs still show; the form keeps its options.
        }
    }
    m_recordedOrigin = origin;
    m_table = table;
    m_epochModel->setData(m_table);
    m_charts->setDevices(QString());
    m_charts->showRecordedEpochs(m_table.epochs, config ? config->epochs : m_table.epochs.back().epoch);
    m_shownConfig.reset(); // not run with this form: nothing to mark out of date
    m_shownOutput.clear();
    m_finishedOutput.clear();
    m_checkpointEpoch = 0;
    m_lastStatus.reset();
    const QString status = QString::fromStdString(metadata.value("status", std::string("unknown")));
    QStringList devices;
    for (const auto& d : metadata.value("devices", nlohmann::json::array()))
        devices << (d.is_string() ? QString::fromStdString(d.get<std::string>()) : QString::fromStdString(d.dump()));
    m_status->setText(tr("Training run from %1: %2 epochs, status %3, best epoch %4. Press Start to train here.")
                          .arg(origin)
                          .arg(m_table.epochs.size())
                          .arg(status)
                          .arg(m_table.bestEpoch > 0 ? QString::number(m_table.bestEpoch) : tr("unknown")));
    m_details->setText(config ? tr("Computed with %1%2").arg(trainingOptionsSummary(*config),
                                                             devices.isEmpty() ? QString() : tr(" on %1").arg(devices.join(QStringLiteral(", "))))
                              : tr("The report does not say which options the run had."));
    m_outputLabel->setText(tr("Output folder: not on this machine (the run is %1's).").arg(origin));
    m_openFolder->setEnabled(false);
    m_progress->setFraction(1);
    setRunning(false);
    return true;
}

void TrainingPage::clearRecordedRun()
{
    if (m_recordedOrigin.isEmpty())
        return;
    m_recordedOrigin.clear();
    m_table = {};
    m_epochModel->setData(EpochTable {});
    m_charts->clear();
    m_charts->refresh();
    m_progress->setFraction(0);
    m_details->clear();
    m_status->setText(tr("Set the options and press Start. Training runs in the background; the page stays "
                         "responsive and Stop keeps the last finished epoch."));
    m_outputLabel->setText(tr("Output folder: appears here when a run ends."));
    setRunning(false);
}

void TrainingPage::markResults()
{
    if (!m_shownConfig || m_jobs.isRunning() || (m_table.epochs.empty() && !m_haveStep)) {
        m_staleBanner->update({}, {}, {});
        return;
    }
    QStringList changes;
    try {
        changes = trainingOptionChanges(*m_shownConfig, m_form->config());
    } catch (const std::exception&) {
        return; // a field being typed ("32,"): Start says what is wrong with it
    }
    m_staleBanner->update(trainingOptionsSummary(*m_shownConfig), changes, tr("press Start to train with them"));
}

bool TrainingPage::resultsStale() const
{
    return m_staleBanner->isStale();
}

QString TrainingPage::staleText() const
{
    return m_staleBanner->isStale() ? m_staleBanner->text() : QString();
}

QString TrainingPage::lastStatus() const
{
    return m_lastStatus ? QString::fromLatin1(training::trainingStatusName(*m_lastStatus)) : QString();
}

void TrainingPage::showError(const QString& message)
{
    m_status->setText(QStringLiteral("<span style='color:#c62828'>%1</span>").arg(message.toHtmlEscaped()));
}

void TrainingPage::showStall()
{
    m_stallLabel->setText(tr("longest GUI stall this run: %1 ms").arg(m_stall->longestStallMs(), 0, 'f', 1));
    // The page's own share: anything above it was the machine (other processes, the trainer's threads on
    // the same cores), not this page's work.
    m_stallLabel->setToolTip(tr("The most a 5 ms timer on the GUI thread was late during the run: how long the "
                                "window could not react.\nThe page's own work took at most %1 ms per update and "
                                "%2 ms per chart paint.")
                                 .arg(longestUpdateMs(), 0, 'f', 1)
                                 .arg(m_charts->longestPaintMs(), 0, 'f', 1));
}

} // namespace stackscope::ui
