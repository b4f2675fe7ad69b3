// Opens a report (report.json, its folder or .zip, or a snapshot) into the pages under the replay banner.
#pragma once

#include "core/report/report_loader.h"
#include "core/probes/probe_runner.h"
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
    const report::LoadedReport* loaded() const { return m_loaded ? &*m_loaded : nullptr; }
    ReplayBanner* banner() const { return m_banner; }
    // Null until "Run these probes here" was used.
    ProbeSideBySide* sideBySide() const { return m_sideBySide; }
    // The options "Run these probes here" uses: the report's probe ids and variants, every device here.
    ProbeRunOptions runHereOptions() const;

    // Whether a dropped path looks like something open() reads.
    static bool canOpen(const QString& path);
    // The message for a file open() cannot read: one line saying what to open instead, then the loader's text.
    static QString openErrorText(const QString& path, QString what);

public Q_SLOTS:
    // False (errorOccurred with what to do) when the file cannot be read; the pages are left as they were.
    bool open(const QString& path);
    // Back to this machine: the banner goes, the System page re-inspects, the Probes page is cleared.
    void close();
    void runHere();

Q_SIGNALS:
    void opened(const QString& source);
    void closed();
    void runHereFinished();
    void errorOccurred(const QString& message);

private:
    SnapshotController* m_snapshots;
    ProbesPage* m_probes;
    ReplayBanner* m_banner;
    ProbeSession* m_session;
    QPointer<ProbeSideBySide> m_sideBySide;
    std::optional<report::LoadedReport> m_loaded;
    QString m_origin; // the origin the report's snapshot was shown under
};

} // namespace stackscope::ui
