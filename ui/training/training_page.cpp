// TrainingPage: the form and the results side by side, the buttons, and what the results say; the run is
// TrainingRunController's, the sentences training_status_text's, a refused or failed start training_problem's.
#include "ui/training/training_page.h"

#include "core/training/training_metadata.h"
#include "ui/training/stall_meter.h"
#include "ui/training/training_charts.h"
#include "ui/training/training_form.h"
#include "ui/training/training_option_changes.h"
#include "ui/training/training_page_widgets.h"
#include "ui/training/training_problem.h"
#include "ui/training/training_results_panel.h"
#include "ui/training/training_run_controller.h"
#include "ui/training/training_status_text.h"
#include "ui/widgets/stale_banner.h"
#include "ui/widgets/status_colors.h"

#include <QDesktopServices>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QThread>
#include <QUrl>
#include <QVBoxLayout>

namespace stackscope::ui {

TrainingPage::TrainingPage(SnapshotController* snapshots, QWidget* parent)
    : QWidget(parent)
    , m_form(new TrainingForm(snapshots, this))
{
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(createControls());
    m_results = new TrainingResultsPanel(this);
    split->addWidget(m_results);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    m_run = new TrainingRunController(m_results->charts(), m_results->epochModel(), this);
    connect(m_run, &TrainingRunController::progressed, this, &TrainingPage::showProgress);
    connect(m_run, &TrainingRunController::ended, this, &TrainingPage::onRunEnded);
    connect(m_form, &TrainingForm::optionsChanged, this, &TrainingPage::markResults);
    connect(m_results, &TrainingResultsPanel::openFolderClicked, this, &TrainingPage::openOutputFolder);
    connect(m_run, &TrainingRunController::deviceAdviceChanged, this, &TrainingPage::showDeviceAdvice);
    connect(m_results, &TrainingResultsPanel::deviceAdviceButtonClicked, this, &TrainingPage::useSuggestedDevice);

    auto* layout = new QVBoxLayout(this);
    // Start/Stop/Resume sit beside the title, outside every scroll area: always in view, at any window size.
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("<h2>Training</h2>"), this));
    top->addStretch(1);
    top->addWidget(m_start);
    top->addWidget(m_stop);
    top->addWidget(m_resume);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    setRunning(false);
}

// The controller's job may outlive the page by one training step: its JobTracker cancels it, and its posts find no
// owner.
TrainingPage::~TrainingPage() = default;

// The form in its scroll area, and the buttons the page puts beside its title.
QWidget* TrainingPage::createControls()
{
    auto* panel = new QWidget(this);
    auto* v = new QVBoxLayout(panel);
    v->setContentsMargins(0, 0, 6, 0);
    v->addWidget(m_form);
    v->addStretch(1);
    m_start = new QPushButton(tr("Start"), this);
    m_start->setObjectName(QStringLiteral("trainingStart"));
    m_start->setDefault(true);
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setObjectName(QStringLiteral("trainingStop"));
    m_stop->setToolTip(tr("Stops within one step; the last finished epoch's checkpoint stays for Resume"));
    m_resume = new QPushButton(tr("Resume"), this);
    m_resume->setObjectName(QStringLiteral("trainingResumeButton"));
    m_resume->setToolTip(tr("Continue the stopped run from its checkpoint, in the same output folder"));
    connect(m_start, &QPushButton::clicked, this, &TrainingPage::start);
    connect(m_stop, &QPushButton::clicked, this, &TrainingPage::stop);
    connect(m_resume, &QPushButton::clicked, this, &TrainingPage::resume);
    return new FormScrollArea(panel, this);
}

EpochTableModel* TrainingPage::epochModel() const
{
    return m_results->epochModel();
}

TrainingCharts* TrainingPage::charts() const
{
    return m_results->charts();
}

StallMeter* TrainingPage::stallMeter() const
{
    return m_run->stallMeter();
}

bool TrainingPage::isRunning() const
{
    return m_run->isRunning();
}

QString TrainingPage::statusText() const
{
    return m_results->status();
}

QString TrainingPage::lastStatus() const
{
    const auto status = m_run->lastStatus();
    return status ? QString::fromLatin1(training::trainingStatusName(*status)) : QString();
}

int TrainingPage::checkpointEpoch() const
{
    return m_run->checkpointEpoch();
}

bool TrainingPage::canResume() const
{
    return m_run->canResume();
}

QString TrainingPage::outputFolder() const
{
    return m_run->finishedOutput();
}

double TrainingPage::longestUpdateMs() const
{
    return m_run->longestUpdateMs();
}

void TrainingPage::setStepObserver(std::function<void(const training::TrainingProgress&)> observer)
{
    m_run->setStepObserver(std::move(observer));
}

void TrainingPage::setRunning(bool running)
{
    m_form->setEditable(!running);
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
    m_results->setDeviceAdviceButtonEnabled(!running); // the form is locked during a run
    const bool resumable = !running && canResume();
    if (m_resume->isEnabled() != resumable) {
        m_resume->setEnabled(resumable);
        Q_EMIT resumableChanged(resumable);
    }
    markResults();
}

void TrainingPage::start()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (isRunning())
        return;
    const auto config = acceptedConfig();
    if (!config)
        return;
    m_recordedOrigin.clear();
    m_run->start(*config, m_form->inputIsSample());
    showStarting(*config);
}

// The form's configuration, validated; on a bad one the page names the field to correct, the run counts as failed,
// and none is returned.
std::optional<training::TrainingConfig> TrainingPage::acceptedConfig()
{
    try {
        if (!m_form->resume() && m_form->outputIsDefault() && QFileInfo::exists(m_form->outputFolder()))
            m_form->setOutputFolder(TrainingForm::newDefaultOutput()); // a fresh run never mixes with an old one
        auto config = m_form->config();
        training::validate(config); // the sample file is written by the job; validation needs only its name
        if (!m_form->inputIsSample() && !QFileInfo(QString::fromStdString(config.input)).isFile())
            throw training::ConfigError("--input " + config.input + ": no such file; choose a CSV of bars (Browse…), "
                                        "or Sample data");
        return config;
    } catch (const std::exception& e) {
        showProblem(runProblem(e));
        m_run->refuseStart();
        Q_EMIT runEnded();
        return std::nullopt;
    }
}

// The status lines, the output folder and the stall figure of a run that has just started.
void TrainingPage::showStarting(const training::TrainingConfig& config)
{
    m_results->setOutput(tr("Output folder: %1 (being written)").arg(QString::fromStdString(config.output)), false);
    m_results->setProgress(0);
    m_results->setDetails({});
    m_results->setStatus(config.resume
                             ? tr("Resuming from %1…").arg(QString::fromStdString(config.output))
                             : tr("Reading %1 and building the features…").arg(QString::fromStdString(config.input)));
    m_results->setStall(tr("measuring the GUI thread's longest stall…"));
    setRunning(true);
}

void TrainingPage::stop()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!isRunning() || m_run->stopRequested())
        return;
    m_run->requestStop();
    m_stop->setEnabled(false);
    m_results->setStatus(
        tr("Stopping… the trainer stops within one step and keeps the last finished epoch's checkpoint."));
}

void TrainingPage::resume()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (isRunning())
        return;
    if (!outputFolder().isEmpty())
        m_form->setOutputFolder(outputFolder());
    m_form->setResume(true);
    start();
}

void TrainingPage::openOutputFolder()
{
    if (outputFolder().isEmpty() || QDesktopServices::openUrl(QUrl::fromLocalFile(outputFolder())))
        return;
    m_results->setStatus(QStringLiteral("<span style='color:%1'>%2</span>")
                             .arg(errorColor().name(),
                                  tr("Could not open %1 with the desktop's file manager; open it by hand (the path "
                                     "can be copied from the line beside the button)")
                                      .arg(outputFolder())
                                      .toHtmlEscaped()));
}

void TrainingPage::showDeviceAdvice()
{
    const auto& advice = m_run->deviceAdvice();
    if (!advice || advice->kind != training::DeviceAdvice::Kind::FewerGpusFaster) {
        m_results->hideDeviceAdvice(); // several GPUs faster: the note says so among the others
        return;
    }
    m_results->showDeviceAdvice(deviceAdviceText(*advice), deviceAdviceButtonText(*advice),
                                deviceAdviceButtonToolTip(*advice));
}

bool TrainingPage::useSuggestedDevice()
{
    Q_ASSERT(QThread::currentThread() == thread());
    const auto& advice = m_run->deviceAdvice();
    if (isRunning() || !advice || advice->suggestedDevice.empty())
        return false;
    try {
        // Through the whole configuration, so the processes follow the device: one GPU, one process.
        auto config = m_form->config();
        config.device = training::parseDevices(advice->suggestedDevice);
        config.processes = 0;
        m_form->setConfig(config);
        return true;
    } catch (const std::exception& e) {
        showProblem(runProblem(e)); // a field being typed ("32,"): the status names it
        return false;
    }
}

// During a run, after each repaint of the charts: devices and notes, the progress line and the ETA.
void TrainingPage::showProgress()
{
    const LiveRun& live = m_run->live();
    m_results->setDetails(liveDetails(live.devices, live.notes));
    if (!live.lastStep || m_run->stopRequested())
        return;
    m_results->setProgress(progressFraction(*live.lastStep, live.firstEpoch, live.plannedEpochs));
    m_results->setStatus(progressText(*live.lastStep, live.plannedEpochs));
}

void TrainingPage::onRunEnded(const RunEnd& end)
{
    showStall();
    m_form->setResume(false);
    setRunning(false); // first: the field a problem names can take the focus only once the form is editable again
    if (end.result) {
        const auto& r = *end.result;
        m_results->setStatus(endedText(r, checkpointEpoch(), end.secondsAfterStop));
        if (r.status != training::TrainingStatus::Stopped)
            m_results->setProgress(1);
        m_results->setDetails(endedDetails(m_run->live().devices, r));
        m_results->setOutput(tr("Output folder: %1").arg(outputFolder()), true);
    } else if (end.stopRequested) {
        m_results->setStatus(stoppedBeforeTrainingText(end.problem ? end.problem->message : QString()));
    } else {
        showProblem(end.problem.value_or(RunProblem {ErrorKind::Failed,
                                                     tr("the run ended without a result or a reason; run it again, "
                                                        "or train with stackscope-cli train to see its output"),
                                                     {}}));
        showFailedOutput();
    }
    Q_EMIT runEnded();
}

// After a failed run: whether its folder holds a record of the failure.
void TrainingPage::showFailedOutput()
{
    const QString output = QString::fromStdString(m_run->shownConfig()->output);
    m_results->setOutput(failedOutputText(output, QFileInfo::exists(output + QStringLiteral("/model_metadata.json"))),
                         false);
}

// An Input problem names the field to correct and puts the focus there; a failure says what to do next.
void TrainingPage::showProblem(const RunProblem& problem)
{
    const QString next = problem.kind == ErrorKind::Failed
        ? tr("The options were accepted: once the cause is fixed, press Start again.")
        : QString();
    m_results->setStatus(problemHtml(problem, TrainingForm::fieldLabel(problem.option), next));
    if (problem.kind == ErrorKind::Input)
        m_form->focusField(problem.option);
}

void TrainingPage::showStall()
{
    m_results->showStall(stallMeter()->longestStallMs(), longestUpdateMs(), charts()->longestPaintMs());
}

bool TrainingPage::showRecordedRun(const training::RecordedTrainingRun& run, const QString& origin)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (isRunning())
        return false; // a run here is not replaced by a report's
    if (!m_run->showRecorded(run)) {
        clearRecordedRun();
        return false;
    }
    m_recordedOrigin = origin;
    if (run.config) {
        // The form shows the options the run was made with, so form and results agree; the output folder stays this
        // machine's (the run's is on the machine that made it) and nothing resumes. A field the form cannot set (a
        // device not here) leaves the results marked "computed with …" by markResults.
        training::TrainingConfig config = *run.config;
        config.output = m_form->outputFolder().toStdString();
        config.resume = false;
        m_form->setConfig(config);
    }
    markResults();
    m_results->setStatus(recordedText(run, origin));
    m_results->setDetails(recordedDetails(run));
    m_results->setOutput(tr("Output folder: not on this machine (the run is %1's).").arg(origin), false);
    m_results->setProgress(1);
    setRunning(false);
    return true;
}

void TrainingPage::clearRecordedRun()
{
    if (m_recordedOrigin.isEmpty())
        return;
    m_recordedOrigin.clear();
    m_run->clearShown();
    m_results->showIdle();
    setRunning(false);
}

void TrainingPage::markResults()
{
    auto* banner = m_results->staleBanner();
    if (!m_run || !m_run->shownConfig() || isRunning() || !m_run->hasResults()) {
        banner->update({}, {}, {});
        return;
    }
    QStringList changes;
    try {
        changes = trainingOptionChanges(*m_run->shownConfig(), m_form->config());
    } catch (const std::exception&) {
        return; // a field being typed ("32,"): Start says what is wrong with it
    }
    banner->update(trainingOptionsSummary(*m_run->shownConfig()), changes, tr("press Start to train with them"));
}

bool TrainingPage::resultsStale() const
{
    return m_results->staleBanner()->isStale();
}

QString TrainingPage::staleText() const
{
    return resultsStale() ? m_results->staleBanner()->text() : QString();
}

} // namespace stackscope::ui
