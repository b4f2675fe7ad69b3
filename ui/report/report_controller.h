// The Report page's model: gathers what a report holds (the snapshot, the probe results of the machine it shows,
// the pasted logs, the VPOC, training and bandwidth runs, the live pages), builds the preview and the Markdown
// summary, and runs the export (ReportExporter). Says when the preview is due again. No widgets of its own.
#pragma once

#include "core/report/report_summary.h"
#include "ui/report/report_exporter.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace stackscope::vpoc {
struct VpocResult;
}

namespace stackscope::ui {

class ProbesController;
class SessionLogModel;
class SnapshotController;

// What the page shows before an export: the summary card's data and what redaction would replace.
struct ReportPreview {
    report::ReportSummary summary;
    std::vector<report::RedactionEntry> redacted; // empty when redaction is off
    std::vector<std::string> uncertain;
};

class ReportController : public QObject {
    Q_OBJECT
public:
    // `probes` (may be null) gives the probe results of this session.
    ReportController(SnapshotController* snapshots, ProbesController* probes, QObject* parent = nullptr);

    // A page drawn as it is, its private texts redacted.
    void addLivePage(const QString& title, QWidget* page);
    // The VPOC run shown (null: none); it goes into the report.
    void setVpocSource(std::function<std::shared_ptr<const vpoc::VpocResult>()> run) { m_vpoc = std::move(run); }
    // The folder of the last training run (its model_metadata.json goes into the report); "" for none.
    void setTrainingRunSource(std::function<QString()> folder) { m_trainingFolder = std::move(folder); }
    // The bandwidth run the System page shows (empty: none); each export carries it.
    void setBandwidthSource(std::function<std::optional<perf::SuiteRun>()> run) { m_bandwidth = std::move(run); }

    ReportExporter& exporter() { return m_exporter; }
    SessionLogModel* sessionLogs() const { return m_logs; }
    // What an export would hold now.
    ReportRequest request(bool redact) const;
    // The card and the redaction list as an export now would have them; none before the first snapshot. Throws
    // std::exception with what went wrong when the document cannot be built.
    std::optional<ReportPreview> preview(bool redact) const;
    // The report's Markdown (GPUs, stack, failing probes, findings with fixes); throws as preview() does.
    QString summaryMarkdown(bool redact) const;

    // Starts writing the report under `parentDir` in the background (false: an export is running already). Then
    // exported(), or exportFailed() with the reason.
    bool startExport(const QString& parentDir, bool redact);
    bool isExporting() const { return m_exporter.isRunning(); }
    // The last report written; its folder is empty before the first.
    const ReportResult& lastResult() const { return m_last; }

Q_SIGNALS:
    // The snapshot, the probe results or the logs changed and have settled (200 ms): the preview is out of date.
    void previewDue();
    void exported();
    void exportFailed(const QString& parentDir, const QString& reason);

private:
    void addRunsTo(ReportRequest& r) const;

    SnapshotController* m_snapshots;
    ProbesController* m_probes;
    std::vector<std::pair<QString, QPointer<QWidget>>> m_livePages;
    std::function<std::shared_ptr<const vpoc::VpocResult>()> m_vpoc;
    std::function<QString()> m_trainingFolder;
    std::function<std::optional<perf::SuiteRun>()> m_bandwidth;
    SessionLogModel* m_logs;
    QTimer m_previewTimer;
    ReportExporter m_exporter;
    ReportResult m_last;
};

} // namespace stackscope::ui
