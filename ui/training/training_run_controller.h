// The Training page's controller: a run in a worker thread (JobTracker), its progress drained from an inbox into the
// charts and the epoch table at most ~25 times a second, Stop, Resume, and how the run ended as one value; also a
// recorded run (a report's) in the same charts and table. No widgets of its own: the page shows what it says.
#pragma once

#include "core/training/training_run.h"
#include "ui/jobs/job_tracker.h"
#include "ui/training/epoch_table_model.h"
#include "ui/training/training_problem.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

class QTimer;

namespace stackscope::training {
struct RecordedTrainingRun;
}

namespace stackscope::ui {

class StallMeter;
class TrainingCharts;
struct ProgressInbox;

// How a run ended, for the page to say so.
struct RunEnd {
    std::shared_ptr<const training::TrainingResult> result; // null: the run failed, or stopped before training
    std::optional<RunProblem> problem;                      // why, when it failed
    bool stopRequested = false;
    double secondsAfterStop = -1; // from Stop to the end; -1 without Stop
};

// What a run in progress has said so far.
struct LiveRun {
    QString devices; // as the trainer names them ("CPU", a GPU's name)
    QStringList notes;
    std::optional<training::TrainingProgress> lastStep;
    int firstEpoch = 1; // a resumed run starts after its checkpoint
    int plannedEpochs = 1;
};

class TrainingRunController : public QObject {
    Q_OBJECT
public:
    // `charts` and `epochs` are the page's; this fills them.
    TrainingRunController(TrainingCharts* charts, EpochTableModel* epochs, QObject* parent);
    ~TrainingRunController() override;

    // Runs `config` (validated) in a worker thread, after writing the sample data when `writeSample` and it is
    // missing. A resume of the run shown continues its charts and table; anything else starts them afresh.
    void start(const training::TrainingConfig& config, bool writeSample);
    // The trainer stops within one step and keeps the last finished epoch's checkpoint; ended() still comes.
    void requestStop();
    bool isRunning() const { return m_jobs.isRunning(); }
    bool stopRequested() const { return m_jobs.stopRequested(); }
    // A start refused before any job (the form or validate() said no): the last run counts as failed.
    void refuseStart();

    const LiveRun& live() const { return m_live; }
    const EpochTable& table() const { return m_table; }
    bool hasResults() const { return !m_table.epochs.empty() || m_live.lastStep; }
    std::optional<training::TrainingStatus> lastStatus() const { return m_lastStatus; }
    // The epoch whose checkpoint the output folder holds after the last run (0: none).
    int checkpointEpoch() const { return m_checkpointEpoch; }
    bool canResume() const;
    // The folder the last run wrote, once it ended (absolute); empty otherwise.
    QString finishedOutput() const { return m_finishedOutput; }
    // The options of the run shown, when it ran here; none for a recorded run or before the first.
    const std::optional<training::TrainingConfig>& shownConfig() const { return m_shownConfig; }

    // Shows a recorded run's epochs in the charts and the table. False (nothing changed) while a run goes on or
    // when the record has no epochs.
    bool showRecorded(const training::RecordedTrainingRun& run);
    // Empties the charts and the table (a recorded run closed).
    void clearShown();

    // The trainer's comparison of the ranks with one GPU for the run shown (live, or a recorded run's); none when it
    // did not measure one (one process, CPU ranks, before the ranks' first steps).
    const std::optional<training::DeviceAdvice>& deviceAdvice() const { return m_deviceAdvice; }

    // One progress value, on the GUI thread: the run's inbox drains into it (tests give it values directly).
    void handle(const training::TrainingProgress& p);

    StallMeter* stallMeter() const { return m_stall; }
    // The longest the progress handling and the chart/table update took on the GUI thread during the last run.
    double longestUpdateMs() const { return m_longestUpdateNs / 1e6; }
    // Called in the GUI thread with every step report (the main window feeds the Monitor's allocator series).
    void setStepObserver(std::function<void(const training::TrainingProgress&)> observer);

Q_SIGNALS:
    // The charts and the table were brought up to date during a run: the page updates its status line from live().
    void progressed();
    void ended(const stackscope::ui::RunEnd& end);
    // deviceAdvice() changed: measured during a run, a recorded run's, or gone with a new run.
    void deviceAdviceChanged();

private:
    struct Outcome;
    void resetFor(const training::TrainingConfig& config);
    static Outcome runJob(TrainingRunController* self, const training::TrainingConfig& config, bool writeSample,
                          const std::shared_ptr<ProgressInbox>& inbox, const JobControl& control);
    void showSavedEpochs(const EpochTable& saved);
    void drain();
    void setDeviceAdvice(std::optional<training::DeviceAdvice> advice);
    void scheduleRepaint();
    void repaint();
    void finish(Outcome out);

    JobTracker m_jobs;
    TrainingCharts* m_charts;
    EpochTableModel* m_epochModel;
    std::shared_ptr<ProgressInbox> m_inbox;
    QTimer* m_repaintTimer = nullptr;
    StallMeter* m_stall = nullptr;
    QElapsedTimer m_stopClock;
    qint64 m_longestUpdateNs = 0;
    std::function<void(const training::TrainingProgress&)> m_stepObserver;

    EpochTable m_table;
    bool m_tableDirty = false;
    LiveRun m_live;
    std::optional<training::TrainingStatus> m_lastStatus;
    int m_checkpointEpoch = 0;
    QString m_finishedOutput;
    std::string m_shownOutput; // the folder of the run the charts and the table show
    std::optional<training::TrainingConfig> m_shownConfig;
    std::optional<training::DeviceAdvice> m_deviceAdvice;
};

} // namespace stackscope::ui
