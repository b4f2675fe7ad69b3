// The System page's model: the snapshot shown and what this session adds to it (the logs pasted or dropped, the probe
// results measured on that machine), diagnosed once by diagnoseMachine, as `stackscope-cli diagnose` does, into the
// stack, findings and kernel coverage models. No widgets: the page and its views show what it holds.
#pragma once

#include "core/diagnosis/machine_diagnosis.h"
#include "ui/system/snapshot_controller.h"

#include <QObject>

#include <optional>
#include <vector>

namespace stackscope::ui {

class CoverageModel;
class FindingsModel;
class StackModel;

class SystemController : public QObject {
    Q_OBJECT
public:
    explicit SystemController(QObject* parent = nullptr);

    StackModel* stackModel() const { return m_stackModel; }
    FindingsModel* findingsModel() const { return m_findingsModel; }
    CoverageModel* coverageModel() const { return m_coverageModel; }
    // The snapshot shown; null before the first.
    const SnapshotPtr& shown() const { return m_shown; }
    // The last diagnosis; none before the first snapshot.
    const std::optional<MachineDiagnosis>& diagnosis() const { return m_diagnosis; }

    // Shows `snapshot` (null: ignored): its kernel coverage, then its diagnosis with the session's inputs.
    void showSnapshot(SnapshotPtr snapshot);
    // The logs pasted or dropped (or an opened report's) and the probe results measured on the machine shown (none
    // when they were measured elsewhere). Diagnoses again once a snapshot is shown.
    void setSessionInputs(std::vector<ReadLogText> logs, std::vector<ProbeOutcome> probes);

Q_SIGNALS:
    // The models were filled again from a new diagnosis(): a snapshot shown, or the session's inputs changed.
    void diagnosed();

private:
    void diagnose();

    SnapshotPtr m_shown;
    std::vector<ReadLogText> m_sessionLogs;
    std::vector<ProbeOutcome> m_sessionProbes;
    std::optional<MachineDiagnosis> m_diagnosis;
    StackModel* m_stackModel;
    FindingsModel* m_findingsModel;
    CoverageModel* m_coverageModel;
};

} // namespace stackscope::ui
