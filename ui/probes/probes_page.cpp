// The Probes page: one click runs the grid in child processes; cells, chart and findings fill in live.
#include "ui/probes/probes_page.h"

#include "ui/probes/probe_form.h"
#include "ui/probes/probe_grid_model.h"
#include "ui/probes/probe_results_view.h"
#include "ui/probes/probes_controller.h"
#include "ui/probes/python_env_picker.h"
#include "ui/widgets/stale_banner.h"

#include <QLabel>
#include <QThread>
#include <QVBoxLayout>

#include <utility>

namespace stackscope::ui {

ProbesPage::ProbesPage(SnapshotController* snapshots, QWidget* parent)
    : QWidget(parent)
    , m_controller(new ProbesController(snapshots, this))
    , m_form(new ProbeForm(this))
{
    m_status = new QLabel(tr("Each probe runs in a child process; a crash or hang cannot take the console down."), this);
    m_status->setWordWrap(true);
    m_results = new ProbeResultsView(m_controller->grid(), m_controller->findings(), this);
    createLines();

    auto* layout = new QVBoxLayout(this);
    // A heading as every other page has (walkthrough 2026-11-27 third, problem 10).
    layout->addWidget(new QLabel(tr("<h2>Probes</h2>"), this));
    layout->addWidget(m_form);
    layout->addWidget(m_machine);
    layout->addWidget(m_staleBanner);
    layout->addWidget(m_status);
    layout->addWidget(m_results, 1);

    connectForm();
    connectController();
}

// Says whose findings and results these are when the System page shows another machine (a file, a report, a root)
// or the results are another machine's; one banner area for "out of date" and "another machine" (the second says
// more, so it wins).
void ProbesPage::createLines()
{
    m_machine = new QLabel(this);
    m_machine->setObjectName(QStringLiteral("probesMachine"));
    m_machine->setWordWrap(true);
    m_machine->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; border: 1px solid #e0c36b; padding: 4px; }"));
    m_machine->hide();
    m_staleBanner = new StaleBanner(this);
    m_staleBanner->setObjectName(QStringLiteral("probesStale"));
}

void ProbesPage::connectForm()
{
    auto* picker = m_results->picker();
    connect(picker, &PythonEnvPicker::choiceChanged, this, &ProbesPage::applyEnvironmentChoice);
    connect(picker, &PythonEnvPicker::choiceChanged, this, &ProbesPage::markResults);
    connect(m_form, &ProbeForm::changed, this, &ProbesPage::markResults);
    connect(picker, &PythonEnvPicker::discoveryFinished, this, [this] {
        if (std::exchange(m_runWhenDiscovered, false))
            startRun();
    });
    connect(m_form, &ProbeForm::runClicked, this, &ProbesPage::runAll);
    connect(m_form, &ProbeForm::cancelClicked, this, &ProbesPage::cancel);
    connect(m_results, &ProbeResultsView::tryFixClicked, this, &ProbesPage::tryFix);
}

void ProbesPage::connectController()
{
    auto* c = m_controller;
    connect(c->grid(), &QAbstractItemModel::columnsInserted, this, &ProbesPage::applyEnvironmentChoice);
    connect(c, &ProbesController::runningChanged, this, [this](bool running) {
        markResults();
        m_form->setRunning(running);
        m_results->setRunning(running);
    });
    connect(c, &ProbesController::statusChanged, m_status, &QLabel::setText);
    connect(c, &ProbesController::countsChanged, m_results, &ProbeResultsView::setCounts);
    connect(c, &ProbesController::resultsReplaced, this, [this] {
        m_results->clearCellText();
        markResults();
    });
    connect(c, &ProbesController::originChanged, this, &ProbesPage::updateMachineLabel);
    connect(c, &ProbesController::findingsChanged, m_results, &ProbeResultsView::showFinding);
    connect(c, &ProbesController::findingsChanged, this, &ProbesPage::findingsChanged);
    connect(c, &ProbesController::runFinished, this, &ProbesPage::runFinished);
}

void ProbesPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!environmentPicker()->hasDiscovered())
        environmentPicker()->discover();
}

// Columns of environments the picker has unchecked are hidden; the results stay (a report still has them).
void ProbesPage::applyEnvironmentChoice()
{
    m_results->showEnvironments(environmentPicker()->checkedEnvironments(), m_controller->resultsLive());
}

void ProbesPage::runAll()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (environmentPicker()->isDiscovering()) {
        m_runWhenDiscovered = true;
        m_status->setText(tr("Still looking for Python environments; the run starts as soon as that is done\u2026"));
        return;
    }
    startRun();
}

void ProbesPage::startRun()
{
    m_controller->run(runOptions(), m_form->ruleVariants(), currentChoice(), m_form->timeoutSeconds());
}

void ProbesPage::cancel()
{
    m_controller->cancel();
}

void ProbesPage::tryFix()
{
    if (const auto* finding = m_results->currentFinding())
        m_controller->tryFix(*finding, m_results->currentFixIndex(), m_form->timeoutSeconds());
}

void ProbesPage::showRecords(const std::vector<ProbeRecord>& records, const QString& status)
{
    m_controller->showRecords(records, status);
}

ProbeGridModel* ProbesPage::gridModel() const
{
    return m_controller->grid();
}

FindingsModel* ProbesPage::findingsModel() const
{
    return m_controller->findings();
}

PythonEnvPicker* ProbesPage::environmentPicker() const
{
    return m_results->picker();
}

bool ProbesPage::isRunning() const
{
    return m_controller->isRunning();
}

std::vector<ProbeRunOptions> ProbesPage::runOptions() const
{
    return m_form->runs(environmentPicker()->checkedEnvironments());
}

ProbeRunChoice ProbesPage::currentChoice() const
{
    return m_form->choice(environmentPicker()->checkedEnvironments());
}

void ProbesPage::setTimeoutSeconds(double seconds)
{
    m_form->setTimeoutSeconds(seconds);
}

void ProbesPage::setRuleVariants(bool on)
{
    m_form->setRuleVariants(on);
}

void ProbesPage::markResults()
{
    const auto& ranWith = m_controller->ranWith();
    const bool shown = ranWith && m_controller->resultsLive() && !m_controller->isRunning() &&
                       !gridModel()->records().empty() && !m_machine->isVisibleTo(this);
    if (!shown) {
        m_staleBanner->update({}, {}, {});
        return;
    }
    m_staleBanner->update(probeChoiceSummary(*ranWith), probeChoiceChanges(*ranWith, currentChoice()),
                          tr("press Run all probes to run them"));
}

bool ProbesPage::resultsStale() const
{
    return m_staleBanner->isStale();
}

QString ProbesPage::staleText() const
{
    return m_staleBanner->isStale() ? m_staleBanner->text() : QString();
}

bool ProbesPage::resultsMatchSnapshot() const
{
    return m_controller->resultsMatchSnapshot();
}

void ProbesPage::updateMachineLabel()
{
    const QString text = m_controller->machineText();
    m_machine->setVisible(!text.isEmpty());
    markResults();
    if (!text.isEmpty())
        m_machine->setText(text);
    m_results->setFindingsHeading(m_controller->findingsHeading());
    m_results->setFixesTriable(m_controller->canTryFixes());
}

void ProbesPage::setSessionLogs(std::vector<ReadLogText> logs)
{
    m_controller->setSessionLogs(std::move(logs));
}

std::vector<ProbeOutcome> ProbesPage::outcomesForShownMachine() const
{
    return m_controller->outcomesForShownMachine();
}

} // namespace stackscope::ui
