// The right side of the Training page: the status lines, the progress line, the box offering one GPU where the
// trainer measured it faster, the out-of-date banner, the log-scale
// switch and the stall figure, the charts and the epoch table, and the output folder with "Open folder". A view: it
// words the run it is given (training_status_text's sentences); the page says when.
#pragma once

#include "core/training/training_run.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QLabel;
class QPushButton;

namespace stackscope::training {
struct RecordedTrainingRun;
}

namespace stackscope::ui {

class EpochTableModel;
class EpochTableView;
class ProgressStrip;
class StaleBanner;
class TrainingCharts;
struct LiveRun;

class TrainingResultsPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrainingResultsPanel(QWidget* parent);

    TrainingCharts* charts() const { return m_charts; }
    EpochTableModel* epochModel() const { return m_epochModel; }
    StaleBanner* staleBanner() const { return m_staleBanner; }

    // The status line (rich text allowed) and the grey line under it.
    void setStatus(const QString& text);
    QString status() const;
    void setDetails(const QString& text);
    void setProgress(double fraction);
    // The line about the output folder; `openable` enables "Open folder".
    void setOutput(const QString& text, bool openable);
    // The stall figure while it is measured.
    void setStall(const QString& text);
    // The run's longest GUI stall, and in the tooltip the page's own share of it (an update, a chart's paint).
    void showStall(double stallMs, double updateMs, double paintMs);
    // Before any run: what to do, and where the output folder will be said.
    void showIdle();
    // A run starting: what it reads first (or resumes from), its output folder being written, the stall being measured.
    void showStarting(const training::TrainingConfig& config);
    // Stop was pressed: the trainer stops within one step.
    void showStopping();
    // During a run: its devices and notes; unless a stop was asked for, the progress line and the ETA.
    void showLive(const LiveRun& live, bool stopRequested);
    // A run that ended with a result: how (with the checkpoint there is to resume from and the seconds from Stop, or
    // -1), its devices and notes, and its output folder, which "Open folder" opens.
    void showEnded(const training::TrainingResult& result, double secondsAfterStop, int checkpointEpoch,
                   const QString& devices, const QString& output);
    // A failed run's output folder and whether its model_metadata.json records the failure.
    void showFailedOutput(const QString& output);
    // A recorded run (a report's): where it comes from, its options and devices; its folder is not on this machine.
    void showRecorded(const training::RecordedTrainingRun& run, const QString& origin);
    // The desktop's file manager did not open `folder`.
    void showOpenFolderFailed(const QString& folder);
    // The box under the status lines offering one GPU, when the trainer measured it faster than the run's processes
    // (both figures and the button's words); hidden for any other advice or none. The button only says it was pressed
    // (the page sets the form).
    void showDeviceAdvice(const std::optional<training::DeviceAdvice>& advice);
    void setDeviceAdviceButtonEnabled(bool enabled);

Q_SIGNALS:
    void openFolderClicked();
    void deviceAdviceButtonClicked();

private:
    void createStatusLines();
    QWidget* createDeviceAdviceBox();
    void createChartGrid();
    void createOutputLine();

    QLabel* m_status = nullptr;
    ProgressStrip* m_progress = nullptr;
    QLabel* m_details = nullptr;
    QWidget* m_adviceBox = nullptr;
    QLabel* m_adviceText = nullptr;
    QPushButton* m_adviceButton = nullptr;
    StaleBanner* m_staleBanner = nullptr;
    QCheckBox* m_logScale = nullptr;
    QLabel* m_stallLabel = nullptr;
    TrainingCharts* m_charts = nullptr;
    EpochTableModel* m_epochModel = nullptr;
    EpochTableView* m_epochView = nullptr;
    QLabel* m_outputLabel = nullptr;
    QPushButton* m_openFolder = nullptr;
};

} // namespace stackscope::ui
