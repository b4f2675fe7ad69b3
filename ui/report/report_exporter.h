// One support report: builds the document in a job, draws the pages with the (redacted) report data, writes folder and zip in a job.
#pragma once

#include "core/perf/suite_run.h"
#include "core/probes/probe_runner.h"
#include "core/report/redactor.h"
#include "core/report/report_writer.h"
#include "ui/jobs/job_tracker.h"
#include "ui/system/snapshot_controller.h"

#include <nlohmann/json.hpp>

#include <QImage>
#include <QObject>
#include <QPointer>
#include <QSize>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QWidget;

namespace stackscope::ui {

// What the window has at the moment of the export.
struct ReportRequest {
    SnapshotPtr snapshot;
    std::vector<ProbeRecord> probes; // empty: not run in this session (the report says so)
    std::string probesNote;          // why `probes` is empty when it is not "not run" (measured on another machine)
    std::vector<std::string> logLines;
    nlohmann::json vpocRun, trainingRun, telemetry; // null when there are none
    // The bandwidth run the System page shows (its topology), judged again against `snapshot` in the report where
    // that is the machine that ran it; empty: none, `bandwidthNote` says why.
    std::optional<perf::SuiteRun> bandwidth;
    std::string bandwidthNote;
    bool redact = true;
    // The export takes a short telemetry sample (NVML / rocm_smi, about 0.6 s, in its job) when `telemetry` is null.
    bool sampleTelemetry = true;
    // Live pages drawn as they are, their private texts drawn redacted by stand-ins (the VPOC page: its numbers are
    // not private); the widgets themselves are not changed.
    std::vector<std::pair<QString, QPointer<QWidget>>> livePages;
};

struct ReportResult {
    QString folder;
    QString zip;
    nlohmann::json report;
    std::vector<report::RedactionEntry> redacted; // empty when redaction is off
    std::vector<std::string> uncertain;           // what redaction could not be sure of (redaction.uncertain)
    std::vector<QString> screenshots;             // names written under screenshots/
};

// Exports one report at a time without blocking the GUI thread: the document is built (telemetry sampled,
// redacted) in a JobTracker job; the pages are drawn on this thread one per event loop turn, each after the loop
// has laid it out (a posted step, no nested event loop); the PNGs, files and zip are written in a second job.
class ReportExporter : public QObject {
    Q_OBJECT
public:
    // Called with each page as it is drawn: the texts the screenshot shows (after redaction). Tests check that
    // no private string is among them.
    using GrabObserver = std::function<void(const QString& name, const QStringList& drawnTexts)>;
    using Done = std::function<void(ReportResult result)>;
    using Fail = std::function<void(const QString& message)>;

    explicit ReportExporter(QObject* parent = nullptr);
    ~ReportExporter() override;

    void setGrabObserver(GrabObserver observer) { m_observer = std::move(observer); }
    QSize pageSize() const { return m_pageSize; }

    // The report document only (no screenshots, nothing written): the preview and "Copy summary".
    // `redactor` receives the one used (so its placeholder list can be shown); may be null.
    static nlohmann::json buildDocument(const ReportRequest& request, std::optional<report::Redactor>* redactor = nullptr);
    // Starts writing the report under `parentDir` (a running export is dropped). Later, in this thread: `done`, or
    // `fail` with what to do. Neither is called when the exporter is destroyed or cancel() is called first.
    void start(const ReportRequest& request, const QString& parentDir, Done done, Fail fail);
    bool isRunning() const { return m_run != nullptr; }
    void cancel();

private:
    struct Prepared; // what the first job built
    struct Shot;
    struct PageStep;
    struct Run;

    // The jobs: they touch no widget and no member.
    static Prepared prepare(ReportRequest request, const QString& parentDir);
    static ReportResult writeFiles(nlohmann::json doc, const std::shared_ptr<report::Redactor>& redactor,
                                   const std::vector<Shot>& shots, const QString& parentDir);

    std::vector<PageStep> pageSteps(const ReportRequest& request) const;
    void onPrepared(quint64 id, Prepared prepared);
    void showNextPage(quint64 id);
    void grabPage(quint64 id, const QPointer<QWidget>& page);
    void startWriting();
    void succeed(quint64 id, ReportResult result);
    void failWith(quint64 id, const QString& message);
    bool isCurrent(quint64 id) const;
    QImage draw(const QString& name, QWidget* page, report::Redactor* redactor);

    GrabObserver m_observer;
    QSize m_pageSize {1130, 780};
    quint64 m_lastId = 0;
    std::unique_ptr<Run> m_run;
    JobTracker m_jobs {this}; // last: destroyed first, so no queued result reaches a half-destroyed exporter
};

QByteArray pngBytes(const QImage& image);

} // namespace stackscope::ui
