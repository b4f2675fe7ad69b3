// Opens a report (report.json, its folder or .zip, or a snapshot) into the pages under the replay banner.
#pragma once

#include "core/report/report_loader.h"
#include "core/probes/probe_runner.h"
#include "core/util/error.h"
#include "ui/jobs/job_tracker.h"
#include "ui/report/probe_side_by_side.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <optional>

namespace stackscope::ui {

class ProbeSession;
class ProbesPage;
class ReplayBanner;
class SnapshotController;

class ReportReplay : public QObject {
    Q_OBJECT
public:
    ReportReplay(SnapshotController* snapshots, ProbesPage* probes, ReplayBanner* banner, QObject* parent = nullptr);
    ~ReportReplay() override;

    bool isOpen() const { return m_loaded.has_value(); }
    // A report is being read (open() was called and neither opened() nor errorOccurred() came yet).
    bool isLoading() const { return m_jobs.isRunning(); }
    const report::LoadedReport* loaded() const { return m_loaded ? &*m_loaded : nullptr; }
    ReplayBanner* banner() const { return m_banner; }
    // Null until "Run these probes here" was used.
    ProbeSideBySide* sideBySide() const { return m_sideBySide; }
    // The options "Run these probes here" uses: the report's probe ids and variants, every device here.
    ProbeRunOptions runHereOptions() const;

    // Whether a dropped path looks like something open() reads.
    static bool canOpen(const QString& path);
    // The message for a file open() cannot read, by the error's kind: for Input (not a report, damaged, too big) one
    // line saying what to open instead, for Failed (this machine failed the read) one saying to try again; then the
    // loader's text.
    static QString openErrorText(const QString& path, QString what, ErrorKind kind = ErrorKind::Input);

public Q_SLOTS:
    // Starts reading the report on the task runner (ui::JobTracker): the banner says "Loading <name>…" at once; then
    // opened() with the pages filled, or errorOccurred() with what to do (the pages are left as they were). A second
    // open() drops the first one's result.
    void open(const QString& path);
    // Back to this machine: the banner goes, the System page re-inspects, the Probes page is cleared. While a report
    // is loading: the loading stops and what was shown before stays.
    void close();
    void runHere();

Q_SIGNALS:
    // open() started reading `name` (the file's or folder's name).
    void loading(const QString& name);
    void opened(const QString& source);
    void closed();
    void runHereFinished();
    void errorOccurred(const QString& message);

private:
    struct Read; // what the loading job gives back
    static Read read(const QString& path);
    void show(Read read);
    void showBanner();

    SnapshotController* m_snapshots;
    ProbesPage* m_probes;
    ReplayBanner* m_banner;
    ProbeSession* m_session;
    QPointer<ProbeSideBySide> m_sideBySide;
    std::optional<report::LoadedReport> m_loaded;
    QString m_origin; // the origin the report's snapshot was shown under
    std::vector<ProbeRecord> m_records; // the report's probe results
    JobTracker m_jobs {this}; // last: destroyed first, so no queued result reaches a half-destroyed replay
};

} // namespace stackscope::ui
