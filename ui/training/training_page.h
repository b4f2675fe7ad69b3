// The Training page, a view: the form (TrainingForm) beside the results (TrainingResultsPanel: the status lines, live
// charts, the per-epoch table, the output folder with "Open folder", the longest GUI-thread stall), under the heading
// with Start / Stop / Resume (TrainingRunBar). The run itself (job, progress, results, charts and table filling) is
// TrainingRunController's; the form maps the options, training_run_options what is done with them around a run.
#pragma once

#include "core/training/training_run.h"

#include <QWidget>

#include <functional>
#include <optional>

namespace stackscope::training {
struct RecordedTrainingRun;
}

namespace stackscope::ui {

class EpochTableModel;
class SnapshotController;
class StallMeter;
class TrainingCharts;
class TrainingForm;
class TrainingResultsPanel;
class TrainingRunBar;
class TrainingRunController;
struct RunEnd;
struct RunProblem;

class TrainingPage : public QWidget {
    Q_OBJECT
public:
    // `snapshots` (may be null) gives the GPUs the Device box offers.
    explicit TrainingPage(SnapshotController* snapshots, QWidget* parent = nullptr);
    ~TrainingPage() override;

    TrainingForm* form() const { return m_form; }
    TrainingRunController* run() const { return m_run; }
    EpochTableModel* epochModel() const;
    TrainingCharts* charts() const;
    StallMeter* stallMeter() const;
    bool isRunning() const;
    QString statusText() const;
    // A run is shown, but an option that changes its numbers differs from the form now (the banner says which).
    bool resultsStale() const;
    QString staleText() const;
    // The last run's end, training::trainingStatusName's text; empty before the first run.
    QString lastStatus() const;
    // The epoch whose checkpoint the output folder holds after the last run (0: none).
    int checkpointEpoch() const;
    // A stopped run with a checkpoint can be continued (Resume, Run > Resume training).
    bool canResume() const;
    // The folder the last run wrote, once it ended; empty otherwise.
    QString outputFolder() const;
    // The longest the page's own progress handling and chart/table update took on the GUI thread during the
    // last run (painting apart: TrainingCharts::longestPaintMs()).
    double longestUpdateMs() const;
    // Called in the GUI thread with every step report (the main window feeds the Monitor's allocator series).
    void setStepObserver(std::function<void(const training::TrainingProgress&)> observer);

    // Shows a recorded run (a report's "training", model_metadata.json's shape): the epoch table and the charts, the
    // status line saying where it comes from; the form gets the run's options. Returns false, with the status saying
    // why, when the record has no epochs to show. A run started here replaces it.
    bool showRecordedRun(const training::RecordedTrainingRun& run, const QString& origin);
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
    // Sets the form's Device to the device the trainer suggested (one GPU, one process) when it measured one GPU
    // faster than the run's processes; starts nothing. False (form unchanged) without such advice or during a run.
    bool useSuggestedDevice();

Q_SIGNALS:
    // After every run, and after a start the options refused; lastStatus() says how it ended.
    void runEnded();
    // Whether Resume can continue a run changed (the window's Run > Resume training follows it).
    void resumableChanged(bool resumable);

private:
    QWidget* createControls();
    void setRunning(bool running);
    std::optional<training::TrainingConfig> acceptedConfig();
    void onRunEnded(const RunEnd& end);
    void showProblem(const RunProblem& problem);
    // Marks the shown run out of date while the form's options differ from those it ran with, until the next run.
    void markResults();

    TrainingForm* m_form = nullptr;
    TrainingResultsPanel* m_results = nullptr;
    TrainingRunController* m_run = nullptr;
    TrainingRunBar* m_bar = nullptr;
    QString m_recordedOrigin; // "report ..." while a recorded run is shown
};

} // namespace stackscope::ui
