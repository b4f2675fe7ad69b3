// TrainingPage: the form and the results side by side under the heading's buttons, and when the results say what; the
// run is TrainingRunController's, the options around it training_run_options', the words the results panel's (from
// training_status_text), a refused or failed start training_problem's.
#include "ui/training/training_page.h"

#include "core/training/training_metadata.h"
#include "ui/training/stall_meter.h"
#include "ui/training/training_charts.h"
#include "ui/training/training_form.h"
#include "ui/training/training_option_changes.h"
#include "ui/training/training_page_widgets.h"
#include "ui/training/training_problem.h"
#include "ui/training/training_results_panel.h"
#include "ui/training/training_run_bar.h"
#include "ui/training/training_run_controller.h"
#include "ui/training/training_run_options.h"
#include "ui/training/training_status_text.h"
#include "ui/widgets/stale_banner.h"

#include <QDesktopServices>
#include <QFileInfo>
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
    connect(m_run, &TrainingRunController::progressed, this,
            [this] { m_results->showLive(m_run->live(), m_run->stopRequested()); });
    connect(m_run, &TrainingRunController::ended, this, &TrainingPage::onRunEnded);
    connect(m_form, &TrainingForm::optionsChanged, this, &TrainingPage::markResults);
    connect(m_results, &TrainingResultsPanel::openFolderClicked, this, &TrainingPage::openOutputFolder);
    connect(m_run, &TrainingRunController::deviceAdviceChanged, this,
            [this] { m_results->showDeviceAdvice(m_run->deviceAdvice()); });
    connect(m_results, &TrainingResultsPanel::deviceAdviceButtonClicked, this, &TrainingPage::useSuggestedDevice);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_bar);
    layout->addWidget(split, 1);
    setRunning(false);
}

// The controller's job may outlive the page by one training step: its JobTracker cancels it, and its posts find no
// owner.
TrainingPage::~TrainingPage() = default;

// The form in its scroll area, and the heading with the buttons (made after the form: the Tab order).
QWidget* TrainingPage::createControls()
{
    auto* panel = new QWidget(this);
    auto* v = new QVBoxLayout(panel);
    v->setContentsMargins(0, 0, 6, 0);
    v->addWidget(m_form);
    v->addStretch(1);
    m_bar = new TrainingRunBar(this);
    connect(m_bar, &TrainingRunBar::startClicked, this, &TrainingPage::start);
    connect(m_bar, &TrainingRunBar::stopClicked, this, &TrainingPage::stop);
    connect(m_bar, &TrainingRunBar::resumeClicked, this, &TrainingPage::resume);
    auto* scroll = new FormScrollArea(panel, this);
    scroll->setObjectName(QStringLiteral("trainingFormScroll"));
    return scroll;
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
    m_results->setDeviceAdviceButtonEnabled(!running); // the form is locked during a run
    if (m_bar->setRunning(running, canResume()))
        Q_EMIT resumableChanged(m_bar->canResume());
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
    m_results->showStarting(*config);
    setRunning(true);
}

// The form's configuration, validated; on a bad one the page names the field to correct, the run counts as failed,
// and none is returned.
std::optional<training::TrainingConfig> TrainingPage::acceptedConfig()
{
    try {
        if (!m_form->resume() && m_form->outputIsDefault() && QFileInfo::exists(m_form->outputFolder()))
            m_form->setOutputFolder(TrainingForm::newDefaultOutput()); // a fresh run never mixes with an old one
        auto config = m_form->config();
        checkStartable(config, m_form->inputIsSample());
        return config;
    } catch (const std::exception& e) {
        showProblem(runProblem(e));
        m_run->refuseStart();
        Q_EMIT runEnded();
        return std::nullopt;
    }
}

void TrainingPage::stop()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!isRunning() || m_run->stopRequested())
        return;
    m_run->requestStop();
    m_bar->stopRequested();
    m_results->showStopping();
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
    if (!outputFolder().isEmpty() && !QDesktopServices::openUrl(QUrl::fromLocalFile(outputFolder())))
        m_results->showOpenFolderFailed(outputFolder());
}

bool TrainingPage::useSuggestedDevice()
{
    Q_ASSERT(QThread::currentThread() == thread());
    const auto& advice = m_run->deviceAdvice();
    if (isRunning() || !advice || advice->suggestedDevice.empty())
        return false;
    try {
        m_form->setConfig(withSuggestedDevice(m_form->config(), *advice));
        return true;
    } catch (const std::exception& e) {
        showProblem(runProblem(e)); // a field being typed ("32,"): the status names it
        return false;
    }
}

void TrainingPage::onRunEnded(const RunEnd& end)
{
    m_results->showStall(stallMeter()->longestStallMs(), longestUpdateMs(), charts()->longestPaintMs());
    m_form->setResume(false);
    setRunning(false); // first: the field a problem names can take the focus only once the form is editable again
    if (end.result) {
        m_results->showEnded(*end.result, end.secondsAfterStop, checkpointEpoch(), m_run->live().devices,
                             outputFolder());
    } else if (end.stopRequested) {
        m_results->setStatus(stoppedBeforeTrainingText(end.problem ? end.problem->message : QString()));
    } else {
        showProblem(end.problem.value_or(RunProblem {ErrorKind::Failed,
                                                     tr("the run ended without a result or a reason; run it again, "
                                                        "or train with stackscope-cli train to see its output"),
                                                     {}}));
        m_results->showFailedOutput(QString::fromStdString(m_run->shownConfig()->output));
    }
    Q_EMIT runEnded();
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
    // The form shows the options the run was made with, so form and results agree. A field the form cannot set (a
    // device not here) leaves the results marked "computed with …" by markResults.
    if (run.config)
        m_form->setConfig(recordedRunOnThisMachine(*run.config, m_form->outputFolder().toStdString()));
    markResults();
    m_results->showRecorded(run, origin);
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
