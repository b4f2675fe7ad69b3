// The Report page's controller without its widgets: what an export would hold (probe results only from the machine
// the report describes, the training run's file or why it is left out, the bandwidth note), the preview with and
// without redaction, and when the preview is due again.
#include "ui/report/report_controller.h"

#include "core/snapshot/snapshot.h"
#include "ui/probes/probes_controller.h"
#include "ui/report/session_logs.h"
#include "ui/system/snapshot_controller.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

SnapshotPtr machine(const std::string& hostname)
{
    auto s = std::make_shared<Snapshot>();
    s->capturedAt = "2026-11-27T12:00:00Z";
    s->host.hostname = hostname;
    return s;
}

ProbeRecord okRecord()
{
    ProbeRecord r;
    r.outcome.probeId = "zeros";
    r.outcome.device = "cpu";
    return r;
}

bool anyLineHas(const std::vector<std::string>& lines, const std::string& text)
{
    for (const auto& l : lines)
        if (l.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestReportController : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // One machine per report: results shown from the report the System page shows go in; once the System page
    // shows another machine they stay out, with why.
    void probesOfTheReportedMachine_data()
    {
        QTest::addColumn<QString>("shownNow");
        QTest::addColumn<bool>("included");
        QTest::newRow("same machine") << QStringLiteral("report A") << true;
        QTest::newRow("another machine shown") << QStringLiteral("report B") << false;
    }
    void probesOfTheReportedMachine()
    {
        QFETCH(QString, shownNow);
        QFETCH(bool, included);
        SnapshotController snapshots;
        snapshots.setSnapshot(machine("a"), QStringLiteral("report A"));
        ProbesController probes(&snapshots);
        probes.showRecords({okRecord()}, QStringLiteral("shown"));
        snapshots.setSnapshot(machine("b"), shownNow);
        ReportController c(&snapshots, &probes);
        const auto r = c.request(true);
        QCOMPARE(r.probes.size(), included ? std::size_t(1) : std::size_t(0));
        QCOMPARE(r.probesNote.empty(), included);
        QCOMPARE(anyLineHas(r.logLines, "measured on another machine"), !included);
        QVERIFY(r.redact);
    }

    // The training run's model_metadata.json: read when it is valid, else left out with a log line saying why.
    void trainingRun_data()
    {
        QTest::addColumn<QByteArray>("metadata"); // empty: no file
        QTest::addColumn<bool>("read");
        QTest::addColumn<QString>("logSays");
        QTest::newRow("no file") << QByteArray() << false << QStringLiteral("cannot read model_metadata.json");
        QTest::newRow("not JSON") << QByteArray("{ nope") << false << QStringLiteral("is not valid JSON; left out");
        QTest::newRow("a run") << QByteArray("{\"schema\": \"stackscope.training/1\", \"status\": \"completed\"}") << true
                               << QString();
    }
    void trainingRun()
    {
        QFETCH(QByteArray, metadata);
        QFETCH(bool, read);
        QFETCH(QString, logSays);
        QTemporaryDir dir;
        if (!metadata.isEmpty()) {
            QFile f(dir.filePath(QStringLiteral("model_metadata.json")));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(metadata);
        }
        ReportController c(nullptr, nullptr);
        c.setTrainingRunSource([&dir] { return dir.path(); });
        const auto r = c.request(true);
        QCOMPARE(!r.trainingRun.is_null(), read);
        if (!logSays.isEmpty())
            QVERIFY(anyLineHas(r.logLines, logSays.toStdString()));
        c.setTrainingRunSource([] { return QString(); }); // no run: nothing, and nothing said
        QVERIFY(c.request(true).trainingRun.is_null());
    }

    void bandwidth_data()
    {
        QTest::addColumn<bool>("measured");
        QTest::newRow("measured") << true;
        QTest::newRow("not measured") << false;
    }
    void bandwidth()
    {
        QFETCH(bool, measured);
        ReportController c(nullptr, nullptr);
        c.setBandwidthSource([measured]() -> std::optional<perf::SuiteRun> {
            return measured ? std::optional<perf::SuiteRun>(perf::SuiteRun {}) : std::nullopt;
        });
        const auto r = c.request(false);
        QCOMPARE(r.bandwidth.has_value(), measured);
        QCOMPARE(r.bandwidthNote.empty(), measured);
        QVERIFY(!r.redact);
    }

    void preview_data()
    {
        QTest::addColumn<bool>("redact");
        QTest::newRow("redacted") << true;
        QTest::newRow("not redacted") << false;
    }
    void preview()
    {
        QFETCH(bool, redact);
        SnapshotController snapshots;
        ReportController c(&snapshots, nullptr);
        QVERIFY(!c.preview(redact)); // nothing to show before the first snapshot
        snapshots.setSnapshot(machine("quuxhost-7731"), QString());
        const auto p = c.preview(redact);
        QVERIFY(p);
        bool host = false;
        for (const auto& e : p->redacted)
            host = host || e.kind == "host";
        QCOMPARE(host, redact);
        QCOMPARE(p->uncertain.empty(), !redact);
        const QString markdown = c.summaryMarkdown(redact);
        QVERIFY(markdown.startsWith(QLatin1Char('#')));
        QVERIFY(!redact || !markdown.contains(QStringLiteral("quuxhost-7731")));
    }

    // The preview follows the snapshot and the logs, once they settle (200 ms).
    void previewDue()
    {
        SnapshotController snapshots;
        ReportController c(&snapshots, nullptr);
        QSignalSpy due(&c, &ReportController::previewDue);
        snapshots.setSnapshot(machine("a"), QString());
        snapshots.setSnapshot(machine("b"), QString());
        QTRY_COMPARE_WITH_TIMEOUT(due.size(), 1, 2000);
        QTest::qWait(300);
        QCOMPARE(due.size(), 1); // the burst is one preview
        c.sessionLogs()->add(QStringLiteral("pasted text"), QStringLiteral("RuntimeError: HIP error"));
        QTRY_COMPARE_WITH_TIMEOUT(due.size(), 2, 2000);
        c.sessionLogs()->remove(0);
        QTRY_COMPARE_WITH_TIMEOUT(due.size(), 3, 2000);
        QVERIFY(c.lastResult().folder.isEmpty()); // nothing exported
        QVERIFY(!c.isExporting());
    }
};

QTEST_MAIN(TestReportController)
#include "tst_report_controller.moc"
