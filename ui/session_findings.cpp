// The session's logs and probe results fed to the pages' one diagnosis.
#include "ui/session_findings.h"

#include "ui/probes/probes_page.h"
#include "ui/report/session_logs.h"
#include "ui/system/system_page.h"

#include <memory>

namespace stackscope::ui {

void installSessionFindings(SessionLogModel* logs, SystemPage* system, ProbesPage* probes)
{
    // The logs read once per change (the bounded reader), shared by both pages.
    auto read = std::make_shared<std::vector<ReadLogText>>();
    const auto logsChanged = [logs, probes, read] {
        *read = logs->diagnosisLogs();
        probes->setSessionLogs(*read); // findingsChanged follows: the System page below
    };
    QObject::connect(logs, &SessionLogModel::rowsInserted, probes, logsChanged);
    QObject::connect(logs, &SessionLogModel::rowsRemoved, probes, logsChanged);
    QObject::connect(logs, &SessionLogModel::dataChanged, probes, logsChanged);
    QObject::connect(logs, &SessionLogModel::modelReset, probes, logsChanged);
    QObject::connect(probes, &ProbesPage::findingsChanged, system, [system, probes, read] {
        system->setSessionInputs(*read, probes->outcomesForShownMachine());
    });
}

} // namespace stackscope::ui
