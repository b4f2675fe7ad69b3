// The VPOC page: pick data (or the sample), set options, run in a worker thread with progress, ETA and
// cancel; the session table; price chart with POC/VAH/VAL and developing POC beside the volume profile.
#pragma once

#include "core/vpoc/vpoc_engine.h"
#include "ui/jobs/job_tracker.h"
#include "ui/vpoc/eta_estimate.h"

#include <QElapsedTimer>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QVBoxLayout;
class QChart;
class QChartView;

namespace stackscope::ui {

class SessionModel;
class VolumeProfileView;

class VpocPage : public QWidget {
    Q_OBJECT
public:
    explicit VpocPage(QWidget* parent = nullptr);

    SessionModel* sessionModel() const { return m_sessions; }
    VolumeProfileView* profileView() const { return m_profile; }
    QChart* priceChart() const { return m_priceChart; }
    QChartView* priceView() const { return m_priceView; }
    QString statusText() const;
    bool isRunning() const { return m_jobs.isRunning(); }
    // A result is shown (and can be exported).
    bool hasResults() const;
    // A result is shown, but the input or an option that changes it differs from the form (the banner says which).
    bool resultsStale() const { return m_stale; }
    // The whole text behind "Details…"; empty when the status line says everything.
    QString detailText() const { return m_detailText; }
    // Whether the status line is an error (shown in red with a warning sign).
    bool statusIsError() const { return m_statusIsError; }
    void setInputFile(const QString& path);
    // Options from the form; throws std::invalid_argument with a message for a bad value.
    vpoc::VpocOptions options() const;
    // The chart pair as one PNG / the sessions and the selected profile as CSV. False + status on error.
    bool exportPng(const QString& path);
    bool exportCsv(const QString& path);
    // Writes the embedded sample data (synthetic ES bars) to the app data folder and selects it.
    QString useSampleData();
    // The progress bar and status line for one report from the job (the engine's, or a recorded one in tests).
    void showProgress(const vpoc::VpocProgress& p);

    // Shows a recorded run (a report's "vpoc": sessions and their levels, no profiles or price line) under a line
    // saying where it comes from; a run here replaces it. False, with the status saying why, when it cannot be read.
    bool showRecordedRun(std::shared_ptr<const vpoc::VpocResult> result, const QString& origin);
    // Empties the page of a recorded run (the report was closed); a run made here stays.
    void clearRecordedRun();
    bool showsRecordedRun() const { return !m_recordedOrigin.isEmpty(); }

public Q_SLOTS:
    void run();
    void cancel();
    void selectSession(int row);

Q_SIGNALS:
    void finished(bool ok);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QWidget* createForm();
    QGroupBox* createInputBox(QWidget* form);
    QGroupBox* createOptionsBox(QWidget* form);
    void addRunControls(QWidget* form, QVBoxLayout* v);
    QWidget* createResults();
    struct JobOutcome; // a run's result, error or cancellation
    // The end of a run (in the GUI thread): the table, charts and status line, or the error.
    void onJobEnded(JobOutcome out);
    void setRunning(bool running);
    void showError(const QString& message);
    void setStatus(const QString& text, const QString& details);
    void clearResults();
    // Says what the shown results were computed with, and marks them out of date (a banner above them, exports
    // off) while the input or an option that changes them differs from the form, until the next run.
    void markResults();
    // The form's options as they are (no check that an input is chosen); throws std::invalid_argument for a bad tick.
    vpoc::VpocOptions formOptions() const;
    void alignProfile();
    // Time labels the price chart has room for at this view width (about 90 px a label, 90 px of y axis).
    static int timeLabelsFor(int viewWidth);
    void updatePriceChart(int row);

    JobTracker m_jobs;
    QElapsedTimer m_clock;
    EtaEstimate m_eta;
    int m_chartRow = -1;   // the session the price chart shows
    int m_timeLabels = 0;  // the time labels it was built with
    QLineEdit* m_input = nullptr;
    QComboBox* m_format = nullptr;
    QDoubleSpinBox* m_tick = nullptr;
    QComboBox* m_session = nullptr;
    QLineEdit* m_sessionTz = nullptr;
    QLineEdit* m_dataTz = nullptr;
    QComboBox* m_distribution = nullptr;
    QDoubleSpinBox* m_va = nullptr;
    QComboBox* m_vaMethod = nullptr;
    QComboBox* m_backend = nullptr;
    QSpinBox* m_vramBudget = nullptr;
    QCheckBox* m_developing = nullptr;
    QCheckBox* m_skipBad = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_statusIcon = nullptr; // a warning sign beside an error
    bool m_statusIsError = false;
    static constexpr int kMaxShownError = 480; // characters an error may have and still be shown whole
    SessionModel* m_sessions = nullptr;
    QTableView* m_table = nullptr;
    QChart* m_priceChart = nullptr;
    QChartView* m_priceView = nullptr;
    VolumeProfileView* m_profile = nullptr;
    QWidget* m_charts = nullptr;
    QPushButton* m_exportPng = nullptr;
    QPushButton* m_exportCsv = nullptr;
    QPushButton* m_details = nullptr;
    QLabel* m_resultsFor = nullptr;
    QLabel* m_staleBanner = nullptr;
    bool m_stale = false;
    QString m_resultsInput; // the input the shown results came from
    QString m_recordedOrigin; // "report ..." while a recorded run is shown
    QString m_detailText;
    std::pair<double, double> m_axisTicks {0, 0}; // the price chart's y range in ticks
};

} // namespace stackscope::ui
