// The right side of the Training page: the status lines, the progress line, the box offering one GPU where the
// trainer measured it faster, the out-of-date banner, the log-scale
// switch and the stall figure, the charts and the epoch table, and the output folder with "Open folder". Widgets only:
// the page says what they show.
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;

namespace stackscope::ui {

class EpochTableModel;
class EpochTableView;
class ProgressStrip;
class StaleBanner;
class TrainingCharts;

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
    // The box under the status lines offering a faster device: rich text with the figures and the button's words;
    // hidden again by hideDeviceAdvice(). The button only says it was pressed (the page sets the form).
    void showDeviceAdvice(const QString& text, const QString& button, const QString& buttonToolTip);
    void hideDeviceAdvice();
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
