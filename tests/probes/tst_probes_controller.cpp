// The Probes page's controller without its widgets: a report's results shown (grid, counts, findings, status),
// whose results these are against the machine the System page shows, what it says when there is nothing to run.
#include "ui/probes/probes_controller.h"

#include "core/diagnosis/machine_diagnosis.h"
#include "core/inspect/inspector.h"
#include "core/probes/probe_variants.h"
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

QStringList ids(const FindingsModel& model)
{
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << QString::fromStdString(model.findingAt(r)->id);
    out.sort();
    return out;
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
        QTest::newRow("unsupported is not a failure")
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

    // The line over the grid: whose findings and results these are, never combined without a word. The findings
    // are always the shown machine's; results from elsewhere are named apart (walkthrough 2026-11-27 third, problem 4).
    void otherMachine_data()
    {
        QTest::addColumn<QString>("shownWhenOpened"); // the System page's origin when the report's results came
        QTest::addColumn<QString>("shownNow");        // empty: this machine
        QTest::addColumn<bool>("withRecords");
        QTest::addColumn<bool>("matches");
        QTest::addColumn<QStringList>("says"); // each in the line, in this order; none: no line
        // The report's banner above every page says whose; no second line under it.
        QTest::newRow("the report's machine") << QStringLiteral("report A") << QStringLiteral("report A") << true << true
                                              << QStringList {};
        QTest::newRow("another report since")
            << QStringLiteral("report A") << QStringLiteral("report B") << true << false
            << QStringList {QStringLiteral("<b>Not this machine:</b> showing report B"),
                            QStringLiteral("The findings are that machine's"),
                            QStringLiteral("<b>The probe results are from report A</b>")};
        QTest::newRow("back on this machine") << QStringLiteral("report A") << QString() << true << false
                                              << QStringList {QStringLiteral("<b>These results are from report A.</b>")};
        QTest::newRow("no results, another machine shown")
            << QStringLiteral("report A") << QStringLiteral("report B") << false << false
            << QStringList {QStringLiteral("<b>Not this machine:</b> showing report B"),
                            QStringLiteral("The findings are that machine's")};
        QTest::newRow("no results, this machine") << QStringLiteral("report A") << QString() << false << false
                                                  << QStringList {};
    }
    void otherMachine()
    {
        QFETCH(QString, shownWhenOpened);
        QFETCH(QString, shownNow);
        QFETCH(bool, withRecords);
        QFETCH(bool, matches);
        QFETCH(QStringList, says);
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
        const QString text = c.machineText();
        QCOMPARE(text.isEmpty(), says.isEmpty());
        qsizetype at = 0;
        for (const QString& part : says) {
            const qsizetype found = text.indexOf(part, at);
            QVERIFY2(found >= 0, qPrintable(part + QStringLiteral(" | in | ") + text));
            at = found + part.size();
        }
        QCOMPARE(c.outcomesForShownMachine().size(), matches ? records.size() : std::size_t(0));
        QCOMPARE(c.canTryFixes(), false); // a report's results, or another machine's findings: nothing to try here
    }

    // The findings are the machine the System page shows, before and after a run here, as the status bar's counts
    // are: on a recorded root a run here emptied them (walkthrough 2026-11-27 third, problem 4).
    void findingsAreTheShownMachines_data()
    {
        QTest::addColumn<QString>("root"); // empty: this machine (an inspection with no root, no origin)
        QTest::addColumn<bool>("runHere");
        QTest::newRow("recorded root, no run") << QStringLiteral("ubuntu2404-rocm7") << false;
        QTest::newRow("recorded root, run here") << QStringLiteral("ubuntu2404-rocm7") << true;
        QTest::newRow("another recorded root, run here") << QStringLiteral("ubuntu2204-2x7900xt") << true;
        QTest::newRow("this machine, run here") << QString() << true;
    }
    void findingsAreTheShownMachines()
    {
        QFETCH(QString, root);
        QFETCH(bool, runHere);
        Snapshot shown;
        if (!root.isEmpty()) {
            InspectOptions o;
            o.root = (QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/") + root).toStdString();
            shown = inspectMachine(o);
        }
        SnapshotController snapshots;
        snapshots.setSnapshot(std::make_shared<const Snapshot>(shown), QString());
        ProbesController c(&snapshots);
        c.setSessionLogs({}); // diagnosed, as the page is when it is made
        const QStringList before = ids(*c.findings());
        const std::vector<ProbeRecord> ran {probeRecord("zeros", "cpu", ProbeResult::Ok),
                                            probeRecord("randn", "cpu", ProbeResult::Crash)};
        if (runHere) {
            for (const auto& r : ran)
                c.grid()->addRecord(r); // as a run here delivers them (live results)
            c.setSessionLogs({});       // diagnosed again, as at the run's end
        }
        MachineDiagnosisInput input;
        input.snapshot = &shown;
        if (root.isEmpty() && runHere)
            input.probes = probeOutcomes(ran); // this machine's own results join its findings
        const QStringList expected = [&] {
            FindingsModel m;
            m.setFindings(diagnoseMachine(input).findings);
            return ids(m);
        }();
        QCOMPARE(ids(*c.findings()), expected);
        if (root.isEmpty()) {
            QVERIFY(c.machineText().isEmpty());
            QVERIFY(c.canTryFixes());
            QCOMPARE(c.findingsHeading(), QStringLiteral("Findings: this machine"));
            return;
        }
        QVERIFY2(!expected.isEmpty(), qPrintable(root));
        QCOMPARE(ids(*c.findings()), before); // a run here does not change them
        QVERIFY(!c.canTryFixes());
        QVERIFY2(c.findingsHeading().contains(root) && c.findingsHeading().contains(QStringLiteral("not this machine")),
                 qPrintable(c.findingsHeading()));
        const QString text = c.machineText();
        QVERIFY2(text.startsWith(QStringLiteral("<b>Not this machine:</b> showing the recorded machine in")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("The findings are that machine's")), qPrintable(text));
        QCOMPARE(text.contains(QStringLiteral("<b>The probe results are from this machine</b>")), runHere);
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
