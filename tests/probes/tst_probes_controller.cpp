// The Probes page's controller without its widgets: a report's results shown (grid, counts, findings, status),
// whose results these are against the machine the System page shows, what it says when there is nothing to run.
#include "ui/probes/probes_controller.h"

#include "core/snapshot/snapshot.h"
#include "tests/probes/probe_test_records.h"
#include "ui/models/findings_model.h"
#include "ui/probes/probe_grid_model.h"
#include "ui/system/snapshot_controller.h"

#include <QSignalSpy>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;
using stackscope::test::findingWithFix;
using stackscope::test::probeRecord;

Q_DECLARE_METATYPE(stackscope::ui::OutcomeCounts)

namespace {

int total(const OutcomeCounts& counts, ProbeResult r)
{
    int n = 0;
    for (std::size_t c = 0; c < counts.columns.size(); ++c)
        n += counts.count(c, r);
    return n;
}

SnapshotPtr machine()
{
    return std::make_shared<const Snapshot>();
}

} // namespace

class TestProbesController : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<OutcomeCounts>();
    }

    void showRecords_data()
    {
        QTest::addColumn<std::vector<ProbeRecord>>("records");
        QTest::addColumn<int>("ok");
        QTest::addColumn<int>("failed");
        QTest::addColumn<int>("columns");
        QTest::newRow("none") << std::vector<ProbeRecord> {} << 0 << 0 << 0;
        QTest::newRow("cpu ok, gpu error")
            << std::vector<ProbeRecord> {probeRecord("zeros", "cpu", ProbeResult::Ok), probeRecord("zeros", "0", ProbeResult::Error)}
            << 1 << 1 << 2;
        QTest::newRow("unsupported is not counted")
            << std::vector<ProbeRecord> {probeRecord("zeros", "cpu", ProbeResult::Unsupported),
                                         probeRecord("randn", "cpu", ProbeResult::Crash)}
            << 0 << 1 << 1;
    }
    void showRecords()
    {
        QFETCH(std::vector<ProbeRecord>, records);
        QFETCH(int, ok);
        QFETCH(int, failed);
        QFETCH(int, columns);
        ProbesController c(nullptr);
        QSignalSpy status(&c, &ProbesController::statusChanged);
        QSignalSpy counts(&c, &ProbesController::countsChanged);
        QSignalSpy replaced(&c, &ProbesController::resultsReplaced);
        QSignalSpy findings(&c, &ProbesController::findingsChanged);
        QSignalSpy origin(&c, &ProbesController::originChanged);
        c.showRecords(records, QStringLiteral("from the report"));
        QCOMPARE(status.size(), 1);
        QCOMPARE(status.at(0).at(0).toString(), QStringLiteral("from the report"));
        QCOMPARE(counts.size(), 1); // at once, not after the 40 ms coalescing
        const auto shown = counts.at(0).at(0).value<OutcomeCounts>();
        QCOMPARE(static_cast<int>(shown.columns.size()), columns);
        QCOMPARE(total(shown, ProbeResult::Ok), ok);
        QCOMPARE(total(shown, ProbeResult::Error) + total(shown, ProbeResult::Crash), failed);
        QCOMPARE(replaced.size(), 1);
        QCOMPARE(findings.size(), 1);
        QCOMPARE(origin.size(), 1);
        QCOMPARE(c.grid()->records().size(), records.size());
        QVERIFY(c.grid()->isFinished());
        QVERIFY(!c.resultsLive());
        QVERIFY(!c.ranWith()); // a report's grid was not run with the form's choices
        QVERIFY(!c.isRunning());
    }

    // The label over the grid: results and the System page's machine told apart, never combined without a word.
    void otherMachine_data()
    {
        QTest::addColumn<QString>("shownWhenOpened"); // the System page's origin when the report's results came
        QTest::addColumn<QString>("shownNow");
        QTest::addColumn<bool>("withRecords");
        QTest::addColumn<bool>("matches");
        QTest::addColumn<QString>("says");
        QTest::newRow("the report's machine") << QStringLiteral("report A") << QStringLiteral("report A") << true << true << QString();
        QTest::newRow("another report since")
            << QStringLiteral("report A") << QStringLiteral("report B") << true << false
            << QStringLiteral("<b>These results are from report A.</b>");
        QTest::newRow("back on this machine") << QStringLiteral("report A") << QString() << true << false
                                              << QStringLiteral("<b>These results are from report A.</b>");
        QTest::newRow("no results, nothing to say") << QStringLiteral("report A") << QStringLiteral("report B") << false
                                                   << false << QString();
    }
    void otherMachine()
    {
        QFETCH(QString, shownWhenOpened);
        QFETCH(QString, shownNow);
        QFETCH(bool, withRecords);
        QFETCH(bool, matches);
        QFETCH(QString, says);
        SnapshotController snapshots;
        snapshots.setSnapshot(machine(), shownWhenOpened);
        ProbesController c(&snapshots);
        std::vector<ProbeRecord> records;
        if (withRecords)
            records.push_back(probeRecord("zeros", "cpu", ProbeResult::Ok));
        c.showRecords(records, QStringLiteral("shown"));
        QVERIFY(c.resultsMatchSnapshot());
        QSignalSpy origin(&c, &ProbesController::originChanged);
        QSignalSpy findings(&c, &ProbesController::findingsChanged);
        snapshots.setSnapshot(machine(), shownNow);
        QCOMPARE(origin.size(), 1);
        QCOMPARE(findings.size(), 1); // diagnosed again for the machine shown now
        QCOMPARE(c.resultsMatchSnapshot(), matches);
        const QString text = c.otherMachineText();
        QCOMPARE(text.isEmpty(), says.isEmpty());
        QVERIFY2(text.startsWith(says), qPrintable(text));
        QCOMPARE(c.outcomesForShownMachine().size(), matches ? records.size() : std::size_t(0));
    }

    void nothingToRun_data()
    {
        QTest::addColumn<std::vector<ProbeRecord>>("records");
        QTest::addColumn<int>("fixIndex");
        QTest::addColumn<QString>("status"); // empty: nothing said, nothing started
        QTest::newRow("no environment checked") << std::vector<ProbeRecord> {} << -2
                                                << QStringLiteral("No environment is checked");
        QTest::newRow("fix on a grid that did not fail")
            << std::vector<ProbeRecord> {probeRecord("zeros", "cpu", ProbeResult::Ok)} << 0
            << QStringLiteral("Nothing failed in the baseline");
        QTest::newRow("no fix chosen") << std::vector<ProbeRecord> {probeRecord("zeros", "cpu", ProbeResult::Error)} << 5
                                       << QString();
    }
    void nothingToRun()
    {
        QFETCH(std::vector<ProbeRecord>, records);
        QFETCH(int, fixIndex);
        QFETCH(QString, status);
        ProbesController c(nullptr);
        c.showRecords(records, QStringLiteral("shown"));
        QSignalSpy said(&c, &ProbesController::statusChanged);
        QSignalSpy running(&c, &ProbesController::runningChanged);
        if (fixIndex == -2)
            c.run({}, true, ProbeRunChoice {}, 30);
        else
            c.tryFix(findingWithFix(), fixIndex, 30);
        QCOMPARE(said.size(), status.isEmpty() ? 0 : 1);
        if (!status.isEmpty())
            QVERIFY2(said.at(0).at(0).toString().startsWith(status), qPrintable(said.at(0).at(0).toString()));
        QCOMPARE(running.size(), 0);
        QVERIFY(!c.isRunning());
        QCOMPARE(c.grid()->records().size(), records.size()); // the grid shown stays
    }

    // Pasted logs join the diagnosis of the machine shown: a log line a rule knows becomes a finding.
    void sessionLogsRediagnose()
    {
        SnapshotController snapshots;
        snapshots.setSnapshot(machine(), QString());
        ProbesController c(&snapshots);
        QSignalSpy findings(&c, &ProbesController::findingsChanged);
        const int before = c.findings()->rowCount();
        c.setSessionLogs({readLogText("RuntimeError: HIP error: invalid device function\n", "pasted")});
        QCOMPARE(findings.size(), 1);
        QVERIFY2(c.findings()->rowCount() > before, qPrintable(QString::number(c.findings()->rowCount())));
        c.setSessionLogs({});
        QCOMPARE(findings.size(), 2);
        QCOMPARE(c.findings()->rowCount(), before);
    }
};

QTEST_MAIN(TestProbesController)
#include "tst_probes_controller.moc"
