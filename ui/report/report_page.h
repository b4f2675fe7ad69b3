// The Report page, a view: one-click export (folder + zip), redaction on by default, "Copy summary", where it went
// (ExportLocationBox), the pasted logs (SessionLogsBox), what redaction replaces (RedactionList) and the summary
// card (CardPreviewColumn). What the report holds, its preview and its export are ReportController's.
#pragma once

#include "ui/report/report_exporter.h"

#include <QWidget>

#include <functional>

class QBoxLayout;
class QCheckBox;
class QLabel;
class QLayout;
class QPushButton;

namespace stackscope::ui {

class CardPreviewColumn;
class ExportLocationBox;
class ProbesPage;
class RedactionList;
class ReportController;
class SessionLogModel;
class SessionLogsBox;
class SnapshotController;
class SummaryCard;
class VpocPage;

class ReportPage : public QWidget {
    Q_OBJECT
public:
    // `probes` gives the results of this session; `livePages` are drawn as they are, private texts redacted (VPOC).
    ReportPage(SnapshotController* snapshots, ProbesPage* probes, QWidget* parent = nullptr);

    ReportController* controller() const { return m_controller; }
    void addLivePage(const QString& title, QWidget* page);
    // The VPOC page: grabbed as it is, and its last run (options, sessions) goes into the report.
    void setVpocPage(VpocPage* page);
    // The folder of the last training run (its model_metadata.json goes into the report); "" for none.
    void setTrainingRunSource(std::function<QString()> folder);
    // The bandwidth run the System page shows (empty: none); each export carries it.
    void setBandwidthSource(std::function<std::optional<perf::SuiteRun>()> run);
    ReportExporter& exporter();
    // The logs pasted or dropped in this session (the window adds them); each export writes them into the report.
    SessionLogModel* sessionLogs() const;
    // The "Written to" box's text (tests): the last export's folder and zip, or what is being written.
    QString writtenToText() const;
    SummaryCard* summaryCard() const { return m_card; }
    // The "Redacted" box (told by the window when a report is open for replay).
    RedactionList* redactionList() const { return m_redactions; }
    bool redactionEnabled() const;
    void setRedactionEnabled(bool on);
    // What an export would hold now.
    ReportRequest request() const;
    const ReportResult& lastResult() const;
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
    void connectSignals();
    void setExportRunning(bool running);
    void onExported();
    void onExportFailed(const QString& parentDir, const QString& reason);
    void setStatus(const QString& text, bool error);

    ReportController* m_controller;
    QBoxLayout* m_columns = nullptr;
    CardPreviewColumn* m_cardColumn = nullptr;
    QPushButton* m_export;
    QCheckBox* m_redact;
    QPushButton* m_copy;
    QLabel* m_status;
    ExportLocationBox* m_where;
    SessionLogsBox* m_logs;
    RedactionList* m_redactions;
    SummaryCard* m_card;
};

} // namespace stackscope::ui
