// Owns the bandwidth run the System page shows: measured here in the background (Measure links, Stop), opened from a
// recorded file, or handed over by a replayed report; judged against the snapshot shown where that is the machine
// that ran it (perf::judgeRecordedRun), again whenever the snapshot changes.
#pragma once

#include "core/perf/recorded_run.h"
#include "ui/jobs/job_tracker.h"
#include "ui/system/snapshot_controller.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class QTimer;

namespace stackscope::ui {

struct ShownRun {
    perf::JudgedRun judged;
    QString origin;  // "measured on this machine", the file it came from, "report …"
    QString machine; // "vm, 2 × NVIDIA H200": as the run recorded it, else its snapshot's where judged against it
};

// "2 × NVIDIA H200, NVIDIA A100" from a list of GPU names.
QString gpuNamesText(const std::vector<std::string>& names);
// The machine a run was measured on, for its header: as the run recorded it, else (a run recorded before runs named
// their machine) its snapshot's host and GPUs where it was judged against that snapshot; empty when unknown.
QString machineText(const perf::JudgedRun& judged, const Snapshot* snapshot);
using ShownRunPtr = std::shared_ptr<const ShownRun>;

class BandwidthController : public QObject {
    Q_OBJECT
public:
    explicit BandwidthController(SnapshotController* snapshots, QObject* parent = nullptr);

    // Null while no run is shown.
    ShownRunPtr shown() const { return m_shown; }
    bool isMeasuring() const { return m_jobs.isRunning(); }
    QString statusText() const { return m_status; }
    // Tests: the program run for "Measure links" (empty: stackscope-cli, cliProgram()).
    void setProgram(const QString& program) { m_program = program; }

public Q_SLOTS:
    // Runs the suite on this machine in the background, or says plainly why not (no GPU visible, another machine
    // shown, an inspection still running).
    void measure();
    // Ends the running measurement (its process group is killed); the run shown before stays.
    void stop();
    // A recorded run (`bench bandwidth --json` output). False, with errorOccurred() saying what to give, when the
    // file is not one; the run shown stays.
    bool openFile(const QString& path);
    void setRun(perf::SuiteRun run, const QString& origin);
    // No run shown; `why` becomes the status line.
    void clear(const QString& why);

Q_SIGNALS:
    void runChanged(stackscope::ui::ShownRunPtr run);
    void measuringChanged(bool measuring);
    void statusChanged(const QString& text);
    void errorOccurred(const QString& message);

private:
    QString whyNotMeasurable() const;
    void judgeAndShow();
    void setStatus(const QString& text);

    SnapshotController* m_snapshots;
    std::optional<perf::SuiteRun> m_recorded; // as measured or read, before judging
    QString m_origin;
    ShownRunPtr m_shown;
    QString m_status;
    QString m_program;
    QElapsedTimer m_clock;
    QTimer* m_tick;
    JobTracker m_jobs {this}; // last: destroyed first
};

} // namespace stackscope::ui
