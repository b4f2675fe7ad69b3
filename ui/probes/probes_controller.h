// The Probes page's model: runs the grid (ProbeSession, one job), fills the grid model and the outcome counts as
// results arrive, diagnoses the findings, and keeps whose results these are (a run here or an opened report's).
// Says what happened as text for the status line. No widgets.
#pragma once

#include "core/diagnosis/machine_diagnosis.h"
#include "ui/probes/probe_option_changes.h"
#include "ui/probes/probe_results.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <optional>
#include <vector>

namespace stackscope::ui {

class FindingsModel;
class ProbeGridModel;
class ProbeSession;
class SnapshotController;

class ProbesController : public QObject {
    Q_OBJECT
public:
    // `snapshots` (may be null) gives the machine the System page shows: its GPUs choose the rules' variants and
    // copy-probe verdicts, and its snapshot and logs join the findings while the results are that machine's.
    explicit ProbesController(SnapshotController* snapshots, QObject* parent = nullptr);

    ProbeGridModel* grid() const { return m_grid; }
    FindingsModel* findings() const { return m_findings; }
    const OutcomeCounts& counts() const { return m_counts; }
    bool isRunning() const;
    // Run here (true) or shown from a report (false).
    bool resultsLive() const { return m_resultsLive; }
    // The choices of the live run shown; none for a report's results or before the first run.
    const std::optional<ProbeRunChoice>& ranWith() const { return m_ranWith; }
    // False when the results come from another machine than the System page's snapshot (a run here while a file or
    // report is loaded): the two are never combined without a label.
    bool resultsMatchSnapshot() const;
    // What the line above the grid says when the System page shows another machine than this one, or the results
    // come from another machine than it shows (rich text, probesMachineText); empty when both are this machine's.
    QString machineText() const;
    // Whose the findings are: always the machine the System page shows (the status bar's), never mixed with results
    // measured elsewhere.
    QString findingsHeading() const;
    // A fix is tried by running the failing probes again here: only for this machine's findings and results.
    bool canTryFixes() const;
    void setSessionLogs(std::vector<ReadLogText> logs);
    // These results' outcomes when they were measured on the machine the System page shows, else none.
    std::vector<ProbeOutcome> outcomesForShownMachine() const;

    // Starts `runs` (one per environment) with the baseline and, with `ruleVariants`, the rules' variants for this
    // machine. `choice` is what the stale banner compares the form with later.
    void run(std::vector<ProbeRunOptions> runs, bool ruleVariants, const ProbeRunChoice& choice, double timeoutS);
    void cancel();
    // Re-runs the baseline's failing cells with the finding's fix `fixIndex`; the run's end says verified or not.
    void tryFix(const Finding& finding, int fixIndex, double timeoutS);
    // Shows results made elsewhere (an opened report) as if they had just run; findings are recomputed.
    void showRecords(const std::vector<ProbeRecord>& records, const QString& status);

Q_SIGNALS:
    void statusChanged(const QString& text);
    // The outcome counts for the chart: at once when a run starts, ends or a report is shown, else at most every
    // 40 ms (25 Hz) while results arrive in bursts.
    void countsChanged(const stackscope::ui::OutcomeCounts& counts);
    // The grid was emptied or replaced: what a selected cell said is gone.
    void resultsReplaced();
    void runningChanged(bool running);
    // Whose results these are, or the machine the System page shows, changed (the label and the stale banner).
    void originChanged();
    // The findings were diagnosed again (results arrived or were shown, the machine shown or the logs changed).
    void findingsChanged();
    void runFinished();

private:
    void onRecord(const ProbeRecord& record);
    void onFinished(bool cancelled, const std::vector<ProbeDevice>& devices, const QString& listError);
    QString finishedText(bool cancelled, std::size_t devices) const;
    void rediagnose();

    SnapshotController* m_snapshots = nullptr;
    ProbeSession* m_session = nullptr;
    ProbeGridModel* m_grid = nullptr;
    FindingsModel* m_findings = nullptr;
    std::vector<ReadLogText> m_sessionLogs;
    OutcomeCounts m_counts;
    QTimer m_countsTimer;
    QString m_tryingFix; // the variant name being verified, empty for a full run
    bool m_resultsLive = true;
    QString m_resultsOrigin; // the report's origin when not live
    std::optional<ProbeRunChoice> m_ranWith;
    QString m_runError; // set by ProbeSession::failed, said when the run ends
};

} // namespace stackscope::ui
