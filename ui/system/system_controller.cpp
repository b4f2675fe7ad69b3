#include "ui/system/system_controller.h"

#include "core/snapshot/stack_rows.h"
#include "ui/models/coverage_model.h"
#include "ui/models/findings_model.h"
#include "ui/models/stack_model.h"

#include <QThread>

namespace stackscope::ui {

SystemController::SystemController(QObject* parent)
    : QObject(parent)
    , m_stackModel(new StackModel(this))
    , m_findingsModel(new FindingsModel(this))
    , m_coverageModel(new CoverageModel(this))
{
}

void SystemController::showSnapshot(SnapshotPtr snapshot)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!snapshot)
        return;
    m_shown = std::move(snapshot);
    m_coverageModel->setCoverage(m_shown->archCoverage);
    diagnose();
}

void SystemController::setSessionInputs(std::vector<ReadLogText> logs, std::vector<ProbeOutcome> probes)
{
    m_sessionLogs = std::move(logs);
    m_sessionProbes = std::move(probes);
    if (m_shown)
        diagnose();
}

// The one diagnosis (as `stackscope-cli diagnose` makes it) over the snapshot, the logs pasted in the session and the
// probe results measured on this machine: the page only renders it.
void SystemController::diagnose()
{
    MachineDiagnosisInput input;
    input.snapshot = m_shown.get();
    input.logs = m_sessionLogs;
    input.probes = m_sessionProbes;
    m_diagnosis = diagnoseMachine(input);
    m_stackModel->setRows(stackRows(*m_shown, m_diagnosis->findings));
    m_findingsModel->setFindings(m_diagnosis->findings, FindingsModel::Order::AsGiven);
    Q_EMIT diagnosed();
}

} // namespace stackscope::ui
