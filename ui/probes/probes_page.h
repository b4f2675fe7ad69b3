// The Probes page, a view: the run bar (ProbeForm), the machine and out-of-date lines, the status line, and the
// results (ProbeResultsView: picker, grid, outcome chart, findings with "Try this fix"). The runs, the results and
// the findings are ProbesController's.
#pragma once

#include "core/diagnosis/diagnosis.h"
#include "core/diagnosis/machine_diagnosis.h"
#include "ui/models/findings_model.h"
#include "ui/probes/probe_grid_model.h"
#include "ui/probes/probe_option_changes.h"
#include "ui/probes/python_env_picker.h"

#include <QWidget>

#include <vector>

class QLabel;

namespace stackscope::ui {

class ProbeForm;
class ProbeResultsView;
class ProbesController;
class SnapshotController;
class StaleBanner;

class ProbesPage : public QWidget {
    Q_OBJECT
public:
    // `snapshots` (may be null) gives the GPUs' architectures and torch's backend: which rule
    // variants apply and whether findings apply here.
    explicit ProbesPage(SnapshotController* snapshots, QWidget* parent = nullptr);

    ProbesController* controller() const { return m_controller; }
    ProbeGridModel* gridModel() const;
    PythonEnvPicker* environmentPicker() const;
    // What "Run all probes" starts: one run per checked environment (libtorch, then the Python ones in the list's
    // order), each with the page's timeout and variants.
    std::vector<ProbeRunOptions> runOptions() const;
    FindingsModel* findingsModel() const;
    bool isRunning() const;
    // False when the results come from another machine than the System page's snapshot (a run here while
    // a file or report is loaded): the two are never combined; the findings stay the shown machine's, and the line
    // over the grid says whose each is.
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
    void createLines();
    void connectForm();
    void connectController();
    void startRun();
    void applyEnvironmentChoice();
    ProbeRunChoice currentChoice() const;
    void updateMachineLabel();
    // Marks the grid out of date while the form's choices differ from those it ran with, until the next run.
    void markResults();

    ProbesController* m_controller = nullptr;
    ProbeForm* m_form = nullptr;
    ProbeResultsView* m_results = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_machine = nullptr;
    StaleBanner* m_staleBanner = nullptr;
    bool m_runWhenDiscovered = false; // Run was pressed while the picker was still looking
};

} // namespace stackscope::ui
