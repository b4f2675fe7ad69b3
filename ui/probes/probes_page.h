// The Probes page: "Run all probes", the live grid, the outcome chart, findings with "Try this fix".
#pragma once

#include "core/diagnosis/diagnosis.h"
#include "core/diagnosis/machine_diagnosis.h"
#include "ui/models/findings_model.h"
#include "ui/probes/probe_grid_model.h"
#include "ui/probes/probe_option_changes.h"
#include "ui/probes/probe_results.h"
#include "ui/probes/probe_session.h"
#include "ui/probes/python_env_picker.h"

#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace stackscope {
struct Snapshot;
}

class QHBoxLayout;
class QSplitter;

namespace stackscope::ui {

class SnapshotController;
class OutcomeChart;
class StaleBanner;

class ProbesPage : public QWidget {
    Q_OBJECT
public:
    // `snapshots` (may be null) gives the GPUs' architectures and torch's backend: which rule
    // variants apply and whether findings apply here.
    explicit ProbesPage(SnapshotController* snapshots, QWidget* parent = nullptr);

    ProbeGridModel* gridModel() const { return m_grid; }
    PythonEnvPicker* environmentPicker() const { return m_picker; }
    // What "Run all probes" starts: one run per checked environment (libtorch, then the Python ones in the list's
    // order), each with the page's timeout and variants.
    std::vector<ProbeRunOptions> runOptions() const;
    FindingsModel* findingsModel() const { return m_findings; }
    bool isRunning() const { return m_session->isRunning(); }
    // False when the results come from another machine than the System page's snapshot (a run here while
    // a file or report is loaded): the two are never combined without a label.
    bool resultsMatchSnapshot() const;
    // The grid was run here with other environments, timeout or variants than the form's now (the banner says which).
    bool resultsStale() const;
    QString staleText() const;
    // The logs pasted or dropped in the session (or an opened report's): with results measured on the machine the
    // System page shows, the findings are that page's diagnosis (snapshot, logs, these results). Re-diagnoses.
    void setSessionLogs(std::vector<stackscope::ReadLogText> logs);
    // These results' outcomes when they were measured on the machine the System page shows, else none.
    std::vector<stackscope::ProbeOutcome> outcomesForShownMachine() const;
    // Test hooks for the form's run choices.
    void setTimeoutSeconds(double seconds);
    void setRuleVariants(bool on);

public Q_SLOTS:
    void runAll();
    void cancel();
    // Runs the selected finding's selected fix as a variant on the failing cells, then re-diagnoses.
    void tryFix();
    // Shows results made elsewhere (an opened report) as if they had just run; findings are recomputed.
    void showRecords(const std::vector<stackscope::ProbeRecord>& records, const QString& status);

Q_SIGNALS:
    void runFinished();
    // The findings were diagnosed again (results arrived or were shown, the machine shown or the logs changed).
    void findingsChanged();

protected:
    void showEvent(QShowEvent* event) override;

private:
    QHBoxLayout* createRunBar();
    QSplitter* createPanes();
    void connectSignals();
    void startRun();
    void applyEnvironmentChoice();
    void onRecord(const ProbeRecord& record);
    void onFinished(bool cancelled, const std::vector<ProbeDevice>& devices, const QString& listError);
    void rediagnose();
    void showCell(const QModelIndex& index);
    void showFinding();
    void updateButtons();
    void updateMachineLabel();
    ProbeRunOptions baseOptions() const;
    ProbeRunChoice currentChoice() const;
    // Marks the grid out of date while the form's choices differ from those it ran with, until the next run.
    void markResults();

    SnapshotController* m_snapshots = nullptr;
    std::vector<ReadLogText> m_sessionLogs;
    ProbeSession* m_session = nullptr;
    ProbeGridModel* m_grid = nullptr;
    FindingsModel* m_findings = nullptr;
    OutcomeCounts m_counts;
    QString m_tryingFix; // the variant name being verified, empty for a full run
    bool m_resultsLive = true; // run here (true) or shown from a report (false)
    QString m_resultsOrigin;   // the report's origin when not live
    std::optional<ProbeRunChoice> m_ranWith; // the choices of the live run shown
    QLabel* m_machine = nullptr;
    StaleBanner* m_staleBanner = nullptr;
    PythonEnvPicker* m_picker = nullptr;
    bool m_runWhenDiscovered = false; // Run was pressed while the picker was still looking
    QString m_runError; // set by ProbeSession::failed, shown by onFinished
    QTimer* m_chartTimer = nullptr;

    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_tryFixButton = nullptr;
    QCheckBox* m_ruleVariants = nullptr;
    QDoubleSpinBox* m_timeout = nullptr;
    QLabel* m_status = nullptr;
    QTableView* m_gridView = nullptr;
    QTableView* m_findingsView = nullptr;
    QComboBox* m_fixes = nullptr;
    QPlainTextEdit* m_cellText = nullptr;
    QLabel* m_findingText = nullptr;
    OutcomeChart* m_chart = nullptr;
};

} // namespace stackscope::ui
