// TrainingRunController: the run in a worker thread, progress coalesced into at most ~25 repaints a second, Stop that
// keeps the last checkpoint, Resume, and the run's end.
#include "ui/training/training_run_controller.h"

#include "core/training/training_files_check.h"
#include "core/training/training_metadata.h"
#include "core/util/atomic_file.h"
#include "core/vpoc/sample_data.h"
#include "ui/training/stall_meter.h"
#include "ui/training/training_charts.h"

#include <QDir>
#include <QFileInfo>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <mutex>
#include <vector>

namespace stackscope::ui {

// Progress from the worker waits here until the GUI thread takes it. The worker posts one drain call only when none
// is pending, so however often the trainer reports, the event queue holds at most one.
struct ProgressInbox {
    std::mutex mutex;
    std::vector<training::TrainingProgress> items;
    bool drainPosted = false;
};

struct TrainingRunController::Outcome {
    std::shared_ptr<const training::TrainingResult> result;
    std::optional<RunProblem> problem;
    bool stopRequested = false;
};

namespace {

// Repaints at most every 40 ms (25 a second) however fast progress arrives (STYLE.md item 6).
constexpr int kRepaintMs = 40;

EpochTable tableOf(const training::RecordedTrainingRun& run)
{
    return {run.epochs, run.bestEpoch};
}

// The sample data the form points at, written on first use; a folder that cannot be written is the input's problem.
void writeSampleData(const std::string& path)
{
    if (QFileInfo::exists(QString::fromStdString(path)))
        return;
    QDir().mkpath(QFileInfo(QString::fromStdString(path)).absolutePath());
    writeFileAtomically(path, vpoc::generateSampleData(vpoc::SampleDataOptions {}));
}

} // namespace

TrainingRunController::TrainingRunController(TrainingCharts* charts, EpochTableModel* epochs, QObject* parent)
    : QObject(parent)
    , m_jobs(this)
    , m_charts(charts)
    , m_epochModel(epochs)
    , m_repaintTimer(new QTimer(this))
    , m_stall(new StallMeter(this))
{
    m_repaintTimer->setSingleShot(true);
    m_repaintTimer->setInterval(kRepaintMs);
    connect(m_repaintTimer, &QTimer::timeout, this, &TrainingRunController::repaint);
}

// The job may outlive the controller by one training step: JobTracker's destructor cancels it, and its posts find no
// owner.
TrainingRunController::~TrainingRunController() = default;

void TrainingRunController::setStepObserver(std::function<void(const training::TrainingProgress&)> observer)
{
    m_stepObserver = std::move(observer);
}

bool TrainingRunController::canResume() const
{
    return m_lastStatus == training::TrainingStatus::Stopped && m_checkpointEpoch > 0;
}

void TrainingRunController::refuseStart()
{
    m_lastStatus = training::TrainingStatus::Failed;
}

void TrainingRunController::start(const training::TrainingConfig& config, bool writeSample)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_jobs.isRunning())
        return;
    resetFor(config);
    repaint();
    // Stop is JobTracker::requestStop(): the trainer sees the cancel token and the result (its last checkpoint)
    // still arrives; the controller going away cancels the job and drops it.
    m_jobs.run(
        [this, config, writeSample, inbox = m_inbox](const JobControl& control) {
            return runJob(this, config, writeSample, inbox, control);
        },
        [this](Outcome out) { finish(std::move(out)); },
        [this](const QString& error) { // the job catches what it expects; this is anything else
            Outcome out;
            out.problem = RunProblem {ErrorKind::Failed, error, {}};
            finish(std::move(out));
        });
}

void TrainingRunController::requestStop()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_jobs.isRunning() || m_jobs.stopRequested())
        return;
    m_jobs.requestStop();
    m_stopClock.start();
}

// The charts and the table for a new run, or for the same folder's resumed run (which continues what is shown).
void TrainingRunController::resetFor(const training::TrainingConfig& config)
{
    if (!config.resume || config.output != m_shownOutput) {
        m_charts->clear();
        m_table = {};
        m_epochModel->setData(EpochTable {});
    }
    m_shownOutput = config.output;
    m_shownConfig = config;
    m_tableDirty = false;
    m_live = LiveRun {};
    m_live.plannedEpochs = config.epochs;
    m_charts->setPlannedEpochs(config.epochs);
    m_lastStatus.reset();
    m_checkpointEpoch = 0;
    m_finishedOutput.clear();
    m_stopClock.invalidate();
    m_inbox = std::make_shared<ProgressInbox>();
    m_stall->start();
    m_longestUpdateNs = 0;
    m_charts->resetPaintTiming();
    setDeviceAdvice(std::nullopt); // each run measures its own
}

// In the job's thread: the sample file if asked, the resumed epochs shown at once, then the run; progress goes
// through the inbox to the GUI thread. `self` is only used in calls posted to the GUI thread (JobControl drops them
// once the controller is gone).
TrainingRunController::Outcome TrainingRunController::runJob(TrainingRunController* self,
                                                             const training::TrainingConfig& config, bool writeSample,
                                                             const std::shared_ptr<ProgressInbox>& inbox,
                                                             const JobControl& control)
{
    Outcome out;
    try {
        if (writeSample) {
            try {
                writeSampleData(config.input);
            } catch (const FileWriteError& e) {
                out.problem = runProblem(e);
                out.problem->option = "--input";
                return out;
            }
        }
        if (config.resume) {
            // A page opened after the stop has no rows yet: show the checkpoint's epochs before the run continues
            // (a bad folder throws here with the message runTraining would give).
            auto metadata = training::readMetadata(config.output + "/model_metadata.json");
            training::checkTrainingFiles(metadata, config.output); // only the epochs the files hold
            control.post([self, saved = tableOf(training::recordedTrainingRun(metadata))] { self->showSavedEpochs(saved); });
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
    } catch (const training::DatasetCancelled&) {
        // Stop while the data were read: the status line says so, there is nothing else to show.
    } catch (const std::exception& e) {
        out.problem = runProblem(e);
    }
    out.stopRequested = control.isCancelled();
    return out;
}

void TrainingRunController::showSavedEpochs(const EpochTable& saved)
{
    if (!m_table.epochs.empty())
        return;
    m_table = saved;
    m_tableDirty = true;
    for (const auto& e : m_table.epochs)
        m_charts->addEpoch(e.epoch, e.valLoss, e.samplesPerS);
    scheduleRepaint();
}

void TrainingRunController::drain()
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

void TrainingRunController::handle(const training::TrainingProgress& p)
{
    Q_ASSERT(QThread::currentThread() == thread());
    using Kind = training::TrainingProgress::Kind;
    switch (p.kind) {
    case Kind::Started: {
        m_live.devices = QString::fromStdString(p.message);
        m_charts->setDevices(m_live.devices);
        m_live.firstEpoch = p.firstEpoch;
        // A resumed run redoes the epoch a stop interrupted: what came after the checkpoint goes.
        m_charts->truncateAfterEpoch(m_live.firstEpoch - 1);
        auto& epochs = m_table.epochs;
        epochs.erase(std::remove_if(epochs.begin(), epochs.end(),
                                    [first = m_live.firstEpoch](const auto& e) { return e.epoch >= first; }),
                     epochs.end());
        m_tableDirty = true;
        break;
    }
    case Kind::Note:
        if (p.deviceAdvice)
            setDeviceAdvice(p.deviceAdvice);
        // One GPU faster: the page shows the advice in its own box, not among the notes.
        if (!p.deviceAdvice || p.deviceAdvice->kind != training::DeviceAdvice::Kind::FewerGpusFaster)
            m_live.notes << QString::fromStdString(p.message);
        break;
    case Kind::Step:
        m_charts->addStep(p);
        m_live.lastStep = p;
        if (m_stepObserver)
            m_stepObserver(p);
        break;
    case Kind::Epoch:
        m_charts->addEpoch(p.epoch, p.valLoss, p.samplesPerS);
        m_table.epochs.push_back({p.epoch, p.loss, p.valLoss, p.samplesPerS, p.seconds});
        m_table.bestEpoch = p.bestEpoch;
        m_tableDirty = true;
        break;
    case Kind::Finished:
        if (!p.execution.empty())
            m_live.notes << tr("execution: %1").arg(QString::fromStdString(p.execution));
        break;
    }
}

void TrainingRunController::setDeviceAdvice(std::optional<training::DeviceAdvice> advice)
{
    if (!advice && !m_deviceAdvice)
        return;
    m_deviceAdvice = std::move(advice);
    Q_EMIT deviceAdviceChanged();
}

void TrainingRunController::scheduleRepaint()
{
    if (!m_repaintTimer->isActive())
        m_repaintTimer->start();
}

// The charts and the table, then (during a run) the page's status line: the page's whole share of an update.
void TrainingRunController::repaint()
{
    Q_ASSERT(QThread::currentThread() == thread());
    QElapsedTimer clock;
    clock.start();
    m_charts->refresh();
    if (m_tableDirty) {
        m_epochModel->setData(m_table);
        m_tableDirty = false;
    }
    if (m_jobs.isRunning())
        Q_EMIT progressed();
    m_longestUpdateNs = std::max(m_longestUpdateNs, clock.nsecsElapsed());
}

void TrainingRunController::finish(Outcome out)
{
    Q_ASSERT(QThread::currentThread() == thread());
    drain();
    m_repaintTimer->stop();
    m_stall->stop();
    RunEnd end {out.result, out.problem, out.stopRequested, -1};
    if (m_stopClock.isValid())
        end.secondsAfterStop = m_stopClock.elapsed() / 1000.0;
    m_stopClock.invalidate();
    if (out.result) {
        // model_metadata.json's epochs are the whole run's, a resumed run's earlier epochs included.
        m_table = tableOf(training::recordedTrainingRun(out.result->metadata));
        m_tableDirty = true;
        m_checkpointEpoch = m_table.epochs.empty() ? 0 : m_table.epochs.back().epoch;
        m_lastStatus = out.result->status;
        m_finishedOutput = QDir(QString::fromStdString(out.result->outputDir)).absolutePath();
    } else {
        // A stop while the data were read leaves no error; any other end without a result is a failure.
        m_lastStatus = out.stopRequested ? training::TrainingStatus::Stopped : training::TrainingStatus::Failed;
    }
    repaint();
    Q_EMIT ended(end);
}

bool TrainingRunController::showRecorded(const training::RecordedTrainingRun& run)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_jobs.isRunning() || run.epochs.empty())
        return false; // a run here is not replaced by a report's
    m_table = tableOf(run);
    m_epochModel->setData(m_table);
    m_charts->setDevices(QString());
    m_charts->showRecordedEpochs(m_table.epochs, run.config ? run.config->epochs : m_table.epochs.back().epoch);
    m_live = LiveRun {};
    m_shownConfig = run.config; // the page sets its form to it; where the form differs the results are marked
    m_shownOutput.clear();
    m_finishedOutput.clear();
    m_checkpointEpoch = 0;
    m_lastStatus.reset();
    setDeviceAdvice(run.deviceAdvice);
    return true;
}

void TrainingRunController::clearShown()
{
    m_shownConfig.reset();
    m_table = {};
    m_epochModel->setData(EpochTable {});
    m_charts->clear();
    m_charts->refresh();
    setDeviceAdvice(std::nullopt);
}

} // namespace stackscope::ui
