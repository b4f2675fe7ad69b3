// The Training page: the form, Start / Stop / Resume, training in a worker thread with live charts, the
// per-epoch table, ETA and notes, the output folder with "Open folder", and the longest GUI-thread stall.
#pragma once

#include "core/training/training_run.h"
#include "ui/jobs/job_tracker.h"
#include "ui/training/epoch_table_model.h"

#include <QElapsedTimer>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QCheckBox;
class QLabel;
class QPushButton;
class QTableView;
class QTimer;

namespace stackscope::ui {

class EpochTableView;
class ProgressStrip;
class SnapshotController;
class StaleBanner;
class StallMeter;
class TrainingCharts;
class TrainingForm;
struct ProgressInbox;
struct RunOutcome;

class TrainingPage : public QWidget {
    Q_OBJECT
public:
    // `snapshots` (may be null) gives the GPUs the Device box offers.
    explicit TrainingPage(SnapshotController* snapshots, QWidget* parent = nullptr);
    ~TrainingPage() override;

    TrainingForm* form() const { return m_form; }
    EpochTableModel* epochModel() const { return m_epochModel; }
    TrainingCharts* charts() const { return m_charts; }
    StallMeter* stallMeter() const { return m_stall; }
    bool isRunning() const { return m_jobs.isRunning(); }
    QString statusText() const;
    // A run is shown, but an option that changes its numbers differs from the form now (the banner says which).
    bool resultsStale() const;
    QString staleText() const;
    // The last run's end, training::trainingStatusName's text; empty before the first run.
    QString lastStatus() const;
    // The epoch whose checkpoint the output folder holds after the last run (0: none).
    int checkpointEpoch() const { return m_checkpointEpoch; }
    // A stopped run with a checkpoint can be continued (Resume, Run > Resume training).
    bool canResume() const;
    // The folder the last run wrote, once it ended; empty otherwise.
    QString outputFolder() const { return m_finishedOutput; }
    // The longest the page's own progress handling and chart/table update took on the GUI thread during the
    // last run (painting apart: TrainingCharts::longestPaintMs()).
    double longestUpdateMs() const { return m_longestUpdateNs / 1e6; }
    // Called in the GUI thread with every step report (the main window feeds the Monitor's allocator series).
    void setStepObserver(std::function<void(const training::TrainingProgress&)> observer)
    {
        m_stepObserver = std::move(observer);
    }

    // Shows a recorded run (a report's "training", model_metadata.json's shape): the epoch table and the charts, the
    // status line saying where it comes from; the form gets the run's options. Returns false, with the status saying
    // why, when `metadata` has no epochs to show. A run started here replaces it.
    bool showRecordedRun(const nlohmann::json& metadata, const QString& origin);
    // Empties the page of a recorded run (the report was closed); a run made here stays.
    void clearRecordedRun();
    bool showsRecordedRun() const { return !m_recordedOrigin.isEmpty(); }

public Q_SLOTS:
    void start();
    // Asks the trainer to stop: it stops within one step and keeps the last finished epoch's checkpoint.
    void stop();
    // Continues the stopped run in the same output folder from its checkpoint.
    void resume();
    void openOutputFolder();

Q_SIGNALS:
    // After every run; lastStatus() says how it ended.
    void runEnded();
    // Whether Resume can continue a run changed (the window's Run > Resume training follows it).
    void resumableChanged(bool resumable);

private:
    std::optional<training::TrainingConfig> validatedConfig();
    void resetForRun(const training::TrainingConfig& config);
    static RunOutcome runJob(TrainingPage* self, const training::TrainingConfig& config, bool writeSample,
                             const std::shared_ptr<ProgressInbox>& inbox, const JobControl& control);
    QWidget* createControls();
    QWidget* createResults();
    void setRunning(bool running);
    void drain();
    void handle(const training::TrainingProgress& p);
    void scheduleRepaint();
    void repaint();
    void updateViews();
    void onRunEnded(RunOutcome out);
    void showError(const QString& message);
    void showStall();
    // Marks the shown run out of date while the form's options differ from those it ran with, until the next run.
    void markResults();

    JobTracker m_jobs;
    std::shared_ptr<ProgressInbox> m_inbox;
    QElapsedTimer m_stopClock;
    QTimer* m_repaintTimer = nullptr;
    qint64 m_longestUpdateNs = 0;
    StallMeter* m_stall = nullptr;

    // The run being shown.
    EpochTable m_table;
    bool m_tableDirty = false;
    training::TrainingProgress m_lastStep;
    bool m_haveStep = false;
    int m_firstEpoch = 1;
    int m_plannedEpochs = 1;
    QString m_devices;
    QStringList m_notes;
    std::optional<training::TrainingStatus> m_lastStatus;
    int m_checkpointEpoch = 0;
    QString m_finishedOutput;
    std::string m_shownOutput; // the folder of the run the charts and the table show
    std::optional<training::TrainingConfig> m_shownConfig; // the options of the run shown
    QString m_recordedOrigin; // "report ..." while a recorded run is shown

    TrainingForm* m_form = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_resume = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_details = nullptr;
    StaleBanner* m_staleBanner = nullptr;
    ProgressStrip* m_progress = nullptr;
    QCheckBox* m_logScale = nullptr;
    QLabel* m_stallLabel = nullptr;
    TrainingCharts* m_charts = nullptr;
    EpochTableModel* m_epochModel = nullptr;
    EpochTableView* m_epochView = nullptr;
    QLabel* m_outputLabel = nullptr;
    QPushButton* m_openFolder = nullptr;
    std::function<void(const training::TrainingProgress&)> m_stepObserver;
};

} // namespace stackscope::ui
