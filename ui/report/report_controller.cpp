// What the support report holds and its export, apart from the Report page's widgets.
#include "ui/report/report_controller.h"

#include "core/report/report.h"
#include "core/training/training_files_check.h"
#include "core/vpoc/vpoc_output.h"
#include "ui/probes/probe_grid_model.h"
#include "ui/probes/probes_controller.h"
#include "ui/report/recent_log.h"
#include "ui/report/session_logs.h"
#include "ui/system/snapshot_controller.h"

#include <QFile>
#include <QWidget>

namespace stackscope::ui {

namespace {

// The trainer's own contract ("stackscope.training/1") into `r.trainingRun`; a file that cannot be read is said
// in the logs. `folder` "" means no training run.
void readTrainingRun(const QString& folder, ReportRequest& r)
{
    if (folder.isEmpty())
        return;
    const std::string where = "report: training run " + folder.toStdString() + ": ";
    QFile f(folder + QStringLiteral("/model_metadata.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        r.logLines.push_back(where + "cannot read model_metadata.json (" + f.errorString().toStdString() + ")");
        return;
    }
    if (f.size() > 16 * 1024 * 1024) {
        r.logLines.push_back(where + "model_metadata.json is over 16 MiB; left out");
        return;
    }
    const QByteArray bytes = f.readAll();
    auto doc = nlohmann::json::parse(bytes.constBegin(), bytes.constEnd(), nullptr, false);
    if (doc.is_discarded()) {
        r.logLines.push_back(where + "model_metadata.json is not valid JSON; left out");
        return;
    }
    const auto note = training::checkTrainingFiles(doc, folder.toStdString());
    if (!note.empty())
        r.logLines.push_back(where + note);
    r.trainingRun = std::move(doc);
}

} // namespace

ReportController::ReportController(SnapshotController* snapshots, ProbesController* probes, QObject* parent)
    : QObject(parent)
    , m_snapshots(snapshots)
    , m_probes(probes)
    , m_logs(new SessionLogModel(this))
{
    // From here on the app's warnings are kept for the report's logs/recent.log.
    installRecentLog();
    // Snapshots and probe results can arrive in bursts: the preview is rebuilt once they settle.
    m_previewTimer.setSingleShot(true);
    m_previewTimer.setInterval(200);
    connect(&m_previewTimer, &QTimer::timeout, this, &ReportController::previewDue);
    const auto due = [this] { m_previewTimer.start(); };
    if (m_snapshots)
        connect(m_snapshots, &SnapshotController::snapshotChanged, this, due);
    if (m_probes)
        connect(m_probes, &ProbesController::runFinished, this, due);
    // A pasted log can match a rule: the card's findings follow the logs.
    connect(m_logs, &SessionLogModel::rowsInserted, this, due);
    connect(m_logs, &SessionLogModel::rowsRemoved, this, due);
    connect(m_logs, &SessionLogModel::dataChanged, this, due);
    connect(m_logs, &SessionLogModel::modelReset, this, due);
}

void ReportController::addLivePage(const QString& title, QWidget* page)
{
    m_livePages.emplace_back(title, page);
}

ReportRequest ReportController::request(bool redact) const
{
    ReportRequest r;
    r.snapshot = m_snapshots ? m_snapshots->snapshot() : nullptr;
    // One machine per report: probe results measured here stay out of a report on a loaded snapshot.
    if (m_probes && m_probes->resultsMatchSnapshot())
        r.probes = m_probes->grid()->records();
    r.redact = redact;
    r.livePages = m_livePages;
    r.logLines = recentLogLines();
    for (auto& line : m_logs->reportLines())
        r.logLines.push_back(std::move(line));
    if (m_probes && !m_probes->resultsMatchSnapshot() && !m_probes->grid()->records().empty()) {
        r.logLines.push_back("report: the probe results were measured on another machine than the snapshot; left out");
        // Not "not run in this session": they were run, on this machine, and the report describes another one.
        r.probesNote = "run on this machine, not on the recorded machine this report describes, so left out: press "
                       "Refresh on the System page to report this machine with them";
    }
    addRunsTo(r);
    return r;
}

// The VPOC, training and bandwidth runs of the session, or why there is no bandwidth run.
void ReportController::addRunsTo(ReportRequest& r) const
{
    if (m_vpoc) {
        if (const auto result = m_vpoc())
            r.vpocRun = vpoc::toJson(*result);
    }
    if (m_trainingFolder)
        readTrainingRun(m_trainingFolder(), r);
    if (m_bandwidth)
        r.bandwidth = m_bandwidth();
    if (!r.bandwidth)
        r.bandwidthNote = "not measured in this session: Measure links on the System page (or open a recorded run "
                          "with File > Open bandwidth run...), then export again";
}

std::optional<ReportPreview> ReportController::preview(bool redact) const
{
    const auto r = request(redact);
    if (!r.snapshot)
        return std::nullopt;
    std::optional<report::Redactor> red;
    const auto doc = ReportExporter::buildDocument(r, &red);
    ReportPreview p;
    p.summary = report::reportSummary(doc);
    if (red) {
        p.redacted = red->replaced();
        p.uncertain = red->uncertainties();
    }
    return p;
}

QString ReportController::summaryMarkdown(bool redact) const
{
    const auto doc = ReportExporter::buildDocument(request(redact));
    return QString::fromStdString(report::reportMarkdown(doc));
}

bool ReportController::startExport(const QString& parentDir, bool redact)
{
    if (m_exporter.isRunning())
        return false;
    m_exporter.start(
        request(redact), parentDir,
        [this](ReportResult result) {
            m_last = std::move(result);
            Q_EMIT exported();
        },
        [this, parentDir](const QString& message) { Q_EMIT exportFailed(parentDir, message); });
    return true;
}

} // namespace stackscope::ui
