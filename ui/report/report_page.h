// The Report page: one-click export (folder + zip), redaction on by default, "Copy summary", where it went, pasted logs, the card preview.
#pragma once

#include "ui/report/report_exporter.h"

#include <QWidget>

#include <functional>

class QCheckBox;
class QLabel;
class QBoxLayout;
class QLayout;
class QScrollArea;
class QListView;
class QPushButton;
class QTableWidget;
class QTimer;

namespace stackscope::ui {

class ProbesPage;
class SessionLogModel;
class SnapshotController;
class SummaryCard;
class VpocPage;

class ReportPage : public QWidget {
    Q_OBJECT
public:
    // `probes` gives the results of this session; `livePages` are drawn as they are, private texts redacted (VPOC).
    ReportPage(SnapshotController* snapshots, ProbesPage* probes, QWidget* parent = nullptr);

    void addLivePage(const QString& title, QWidget* page);
    // The VPOC page: grabbed as it is, and its last run (options, sessions) goes into the report.
    void setVpocPage(VpocPage* page);
    // The folder of the last training run (its model_metadata.json goes into the report); "" for none.
    void setTrainingRunSource(std::function<QString()> folder) { m_trainingFolder = std::move(folder); }
    // The bandwidth run the System page shows (empty: none); each export carries it.
    void setBandwidthSource(std::function<std::optional<perf::SuiteRun>()> run) { m_bandwidth = std::move(run); }
    ReportExporter& exporter() { return m_exporter; }
    // The logs pasted or dropped in this session (the window adds them); each export writes them into the report.
    SessionLogModel* sessionLogs() const { return m_logs; }
    // The "Written to" box's text (tests): the last export's folder and zip, or what is being written.
    QString writtenToText() const;
    SummaryCard* summaryCard() const { return m_card; }
    bool redactionEnabled() const;
    void setRedactionEnabled(bool on);
    // What an export would hold now.
    ReportRequest request() const;
    const ReportResult& lastResult() const { return m_last; }
    bool isExporting() const;
    QString statusText() const;
    // Where the export's folder dialog starts: Documents when it exists, else the home folder.
    static QString exportStartFolder();

public Q_SLOTS:
    // Asks for a folder, then exports there.
    void exportInteractive();
    // Starts writing the report under `parentDir` in the background (false: an export is running already). Then
    // exported(), or errorOccurred() with the reason, and the reason on the page.
    bool exportTo(const QString& parentDir);
    // The report's Markdown on the clipboard (built now with the current redaction setting).
    void copySummary();
    // Rebuilds the preview card and the redaction list from the current data.
    void refreshPreview();

Q_SIGNALS:
    void exported(const QString& folder, const QString& zip);
    void errorOccurred(const QString& message);
    void pasteLogRequested();
    // An export started (true) or ended, written or not (false): its button and action are off meanwhile.
    void exportRunningChanged(bool running);

protected:
    // Side by side where the card fits beside the controls, else the card below them (1024x640: no sideways scroll).
    void resizeEvent(QResizeEvent* event) override;

private:
    void arrangeColumns();
    void configureWidgets();
    QLayout* buildControlsColumn();
    QLayout* buildCardColumn();
    QWidget* buildLogsBox();
    void connectSignals();
    void setExportRunning(bool running);
    void onExported(ReportResult result);
    void onExportFailed(const QString& parentDir, const QString& reason);
    void showRedactions(const std::vector<report::RedactionEntry>& entries, const std::vector<std::string>& uncertain,
                        bool enabled);
    void setStatus(const QString& text, bool error);

    SnapshotController* m_snapshots;
    ProbesPage* m_probes;
    std::vector<std::pair<QString, QPointer<QWidget>>> m_livePages;
    QPointer<VpocPage> m_vpoc;
    std::function<QString()> m_trainingFolder;
    std::function<std::optional<perf::SuiteRun>()> m_bandwidth;
    ReportExporter m_exporter;
    QBoxLayout* m_columns = nullptr;
    QScrollArea* m_cardArea = nullptr;
    ReportResult m_last;
    QPushButton* m_export;
    QCheckBox* m_redact;
    QPushButton* m_copy;
    QLabel* m_status;
    QLabel* m_where;
    QPushButton* m_openFolder;
    SessionLogModel* m_logs;
    QListView* m_logList;
    QPushButton* m_removeLog;
    QLabel* m_logsNote;
    QTableWidget* m_redactions;
    QLabel* m_uncertain; // what redaction could not be sure of (redaction.uncertain in report.json)
    SummaryCard* m_card;
    QTimer* m_previewTimer;
};

} // namespace stackscope::ui
