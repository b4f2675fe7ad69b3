// One support report: builds the document, draws the pages with the (redacted) report data, grabs them, writes folder and zip.
#pragma once

#include "core/probes/probe_runner.h"
#include "core/report/redactor.h"
#include "core/report/report_writer.h"
#include "ui/system/snapshot_controller.h"

#include <nlohmann/json.hpp>

#include <QImage>
#include <QPointer>
#include <QSize>
#include <QString>

#include <functional>
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
    bool redact = true;
    // write() takes a short telemetry sample (NVML / rocm_smi, about 0.6 s) when `telemetry` is null.
    bool sampleTelemetry = true;
    // Live pages grabbed as they are, with their texts scrubbed (the VPOC page: its numbers are not private).
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

class ReportExporter {
public:
    // Called with each widget just before it is grabbed (after its texts were scrubbed): tests walk
    // the widget's texts here to prove no private string is drawn.
    using GrabObserver = std::function<void(const QString& name, QWidget* widget)>;

    void setGrabObserver(GrabObserver observer) { m_observer = std::move(observer); }

    // The report document only (no screenshots, nothing written): the preview and "Copy summary".
    // `redactor` receives the one used (so its placeholder list can be shown); may be null.
    static nlohmann::json buildDocument(const ReportRequest& request, std::optional<report::Redactor>* redactor = nullptr);
    // Builds, grabs and writes under `parentDir`; throws report::ReportError with what to do.
    ReportResult write(const ReportRequest& request, const QString& parentDir);

private:
    QImage grabPage(const QString& name, QWidget* page, report::Redactor* redactor);

    GrabObserver m_observer;
    QSize m_pageSize {1130, 780};
};

QByteArray pngBytes(const QImage& image);

} // namespace stackscope::ui
