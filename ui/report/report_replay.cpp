// Replay: the report's snapshot with findings recomputed, its probe grid re-diagnosed, and the same probes run here.
#include "ui/report/report_replay.h"

#include "core/inspect/system_checks.h"
#include "core/probes/probe_variants.h"
#include "core/report/report.h"
#include "ui/probes/probe_session.h"
#include "ui/probes/probes_page.h"
#include "core/probes/probe_document.h"
#include "ui/report/probe_side_by_side.h"
#include "ui/report/replay_banner.h"
#include "ui/system/snapshot_controller.h"

#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QThread>

namespace stackscope::ui {

using nlohmann::json;

ReportReplay::ReportReplay(SnapshotController* snapshots, ProbesPage* probes, ReplayBanner* banner, QObject* parent)
    : QObject(parent)
    , m_snapshots(snapshots)
    , m_probes(probes)
    , m_banner(banner)
    , m_session(new ProbeSession(this))
{
    connect(m_banner, &ReplayBanner::runHereRequested, this, &ReportReplay::runHere);
    connect(m_banner, &ReplayBanner::closeRequested, this, &ReportReplay::close);
    // Another snapshot shown meanwhile (Refresh, File > Open snapshot) ends the replay: the banner
    // must never stand over this machine's facts.
    connect(m_snapshots, &SnapshotController::snapshotChanged, this, [this](SnapshotPtr, const QString& origin) {
        if (m_loaded && origin != m_origin) {
            m_session->cancel();
            m_loaded.reset();
            m_banner->hide();
            Q_EMIT closed();
        }
    });
    connect(m_session, &ProbeSession::recordArrived, this, [this](const ProbeRecord& r) {
        if (m_sideBySide)
            m_sideBySide->addHere(r);
    });
    connect(m_session, &ProbeSession::finished, this,
            [this](bool cancelled, const std::vector<ProbeDevice>& devices, const QString& listError) {
                if (m_sideBySide) {
                    QString text = cancelled ? tr("Cancelled.")
                                             : tr("Done on %n device(s) here. ", nullptr, static_cast<int>(devices.size())) +
                                                   m_sideBySide->differenceText();
                    if (!listError.isEmpty())
                        text += QLatin1Char(' ') + tr("Only the CPU was probed here: %1").arg(listError);
                    m_sideBySide->setStatus(text);
                }
                m_banner->runHereButton()->setEnabled(true);
                Q_EMIT runHereFinished();
            });
}

ReportReplay::~ReportReplay()
{
    delete m_sideBySide;
}

bool ReportReplay::canOpen(const QString& path)
{
    const QFileInfo info(path);
    if (info.isDir())
        return QFileInfo::exists(path + QStringLiteral("/report.json"));
    return path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) || path.endsWith(QLatin1String(".zip"), Qt::CaseInsensitive);
}

// One line that says what to do, by the error's kind, then the loader's words (the first line is shown, the rest
// goes behind Details).
QString ReportReplay::openErrorText(const QString& path, QString what, ErrorKind kind)
{
    const int colon = what.indexOf(QLatin1String(": "));
    if (colon > 0 && path.endsWith(QFileInfo(what.left(colon)).fileName()))
        what = what.mid(colon + 2); // the loader names the file; the line below names it once
    const QString name = QFileInfo(QDir::cleanPath(path)).fileName();
    // The loader may put the place first ("line 1, column 2: not valid JSON (...)").
    const QString firstLine = what.section(QLatin1Char('\n'), 0, 0);
    const bool notReport = firstLine.contains(QLatin1String("not valid JSON")) || what.startsWith(QLatin1String("the top level is"))
        || what.startsWith(QLatin1String("schema is")) || what.startsWith(QLatin1String("not a readable zip"));
    const QString line = kind == ErrorKind::Failed
        ? tr("Reading %1 failed on this machine: %2. Open it again; if it fails the same way, copy the details into a bug report.")
              .arg(name, firstLine)
        : notReport ? tr("%1 is not a StackScope report or snapshot: open a report.json, its folder or its .zip.").arg(name)
                    : tr("Cannot open %1: %2").arg(name, firstLine);
    return line + QStringLiteral("\n\n") + path + QStringLiteral(": ") + what;
}

struct ReportReplay::Read {
    QString path;
    std::optional<report::LoadedReport> loaded;
    std::vector<ProbeRecord> records;
    std::optional<Snapshot> shown; // the report's snapshot with this version's system checks
    ErrorKind errorKind = ErrorKind::Input;
    QString error; // empty when it was read
};

// On the task runner: the file read and parsed, the probe records and the snapshot's findings made; no widget touched.
ReportReplay::Read ReportReplay::read(const QString& path)
{
    Read r;
    r.path = path;
    try {
        auto loaded = report::loadReport(path.toStdString());
        r.records = probeRecordsFromDocument(loaded.report.value("probes", json()));
        // The report's own findings were made by the version that wrote it: replace them with this version's.
        Snapshot s = loaded.snapshot;
        s.findings.clear();
        addSystemFindings(s);
        r.shown = std::move(s);
        r.loaded = std::move(loaded);
    } catch (const Error& e) {
        r.errorKind = e.kind();
        r.error = QString::fromUtf8(e.what());
    } catch (const std::exception& e) {
        // The probe records' reader and the like throw plain exceptions for a damaged document: the file's fault.
        r.errorKind = dynamic_cast<const std::bad_alloc*>(&e) ? ErrorKind::Failed : ErrorKind::Input;
        r.error = QString::fromUtf8(e.what());
    }
    return r;
}

void ReportReplay::open(const QString& path)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const QString name = QFileInfo(QDir::cleanPath(path)).fileName();
    m_banner->showLoading(name.isEmpty() ? path : name);
    Q_EMIT loading(name.isEmpty() ? path : name);
    m_jobs.run([path](const JobControl&) { return read(path); },
               [this](Read r) { show(std::move(r)); },
               [this, path](const QString& message) {
                   showBanner();
                   Q_EMIT errorOccurred(openErrorText(path, message, ErrorKind::Failed));
               });
}

void ReportReplay::showBanner()
{
    if (!m_loaded) {
        m_banner->hide();
        return;
    }
    const auto& snap = m_loaded->snapshot;
    const QString source = QString::fromStdString(m_loaded->source);
    m_banner->showReport(QString::fromStdString(snap.host.hostname.value_or("an unnamed host")),
                         QString::fromStdString(snap.capturedAt.empty() ? std::string("at an unknown time") : snap.capturedAt),
                         m_loaded->isSnapshotOnly ? tr("Snapshot %1").arg(source) : tr("Report %1").arg(source),
                         !m_records.empty());
}

void ReportReplay::show(Read r)
{
    if (!r.error.isEmpty() || !r.loaded || !r.shown) {
        showBanner(); // what was shown before stays
        Q_EMIT errorOccurred(openErrorText(r.path, r.error, r.errorKind));
        return;
    }
    const QString source = QString::fromStdString(r.loaded->source);
    m_origin = tr("report %1").arg(source);
    m_loaded = std::move(r.loaded);
    m_records = std::move(r.records);
    m_snapshots->setSnapshot(std::make_shared<const Snapshot>(std::move(*r.shown)), m_origin);
    m_probes->showRecords(m_records, m_records.empty() ? tr("This report has no probe results.")
                                     : m_records.size() == 1 ? tr("1 probe result from the report; findings recomputed here.")
                                                             : tr("%1 probe results from the report; findings recomputed here.").arg(m_records.size()));
    showBanner();
    if (m_sideBySide)
        m_sideBySide->setReport(m_records, tr("Report (%1)").arg(QString::fromStdString(m_loaded->snapshot.host.hostname.value_or("?"))));
    Q_EMIT opened(source);
}

void ReportReplay::close()
{
    if (m_jobs.isRunning()) {
        // Closing while a report loads stops the loading; what was shown stays (a report open before, or this machine).
        m_jobs.cancel();
        showBanner();
        return;
    }
    m_session->cancel();
    m_loaded.reset();
    m_banner->hide();
    if (m_sideBySide)
        m_sideBySide->hide();
    m_probes->showRecords({}, tr("Back on this machine: run the probes to fill the grid."));
    m_snapshots->refresh();
    Q_EMIT closed();
}

ProbeRunOptions ReportReplay::runHereOptions() const
{
    ProbeRunOptions o;
    if (!m_loaded)
        return o;
    const auto set = report::probeSetOf(m_loaded->report.value("probes", json()));
    o.probeIds = set.probeIds;
    // The report's device ids may not exist here (its GPU 1 is not this machine's): probe every device here.
    for (const auto& v : set.variants) {
        ProbeVariant variant;
        variant.name = v.value("name", std::string("baseline"));
        if (auto env = v.find("env"); env != v.end() && env->is_object()) {
            for (const auto& [k, val] : env->items())
                variant.env[k] = val.is_string() ? std::optional<std::string>(val.get<std::string>()) : std::nullopt;
        }
        o.variants.push_back(std::move(variant));
    }
    if (o.variants.empty())
        o.variants.push_back(ProbeVariant {});
    return o;
}

void ReportReplay::runHere()
{
    if (!m_loaded)
        return;
    std::vector<ProbeRecord> records;
    try {
        records = probeRecordsFromDocument(m_loaded->report.value("probes", json()));
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(tr("The report's probe results cannot be read: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    if (!m_sideBySide) {
        m_sideBySide = new ProbeSideBySide(nullptr);
        m_sideBySide->setAttribute(Qt::WA_DeleteOnClose, false);
    }
    const auto& snap = m_loaded->snapshot;
    m_sideBySide->setReport(records, tr("Report (%1)").arg(QString::fromStdString(snap.host.hostname.value_or("?"))));
    auto options = runHereOptions();
    m_sideBySide->setStatus(tr("Running %n probe(s) here", nullptr, static_cast<int>(options.probeIds.size())) +
                            tr(" under %n variant(s)…", nullptr, static_cast<int>(options.variants.size())));
    m_sideBySide->show();
    m_sideBySide->raise();
    m_banner->runHereButton()->setEnabled(false);
    m_session->start(std::move(options));
}

} // namespace stackscope::ui
