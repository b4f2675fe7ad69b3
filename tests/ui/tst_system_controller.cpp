// SystemController, the System page's model: a snapshot shown fills the stack, findings and coverage models from the
// one diagnosis (diagnoseMachine over the snapshot and the session's logs and probes), and the session's inputs
// diagnose again, only once a snapshot is shown.
#include "core/diagnosis/machine_diagnosis.h"
#include "core/inspect/inspector.h"
#include "core/snapshot/stack_rows.h"
#include "ui/models/coverage_model.h"
#include "ui/models/findings_model.h"
#include "ui/models/stack_model.h"
#include "ui/system/system_controller.h"

#include <QSignalSpy>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {
SnapshotPtr recordedRoot(const QString& name)
{
    InspectOptions o;
    o.root = std::string(STACKSCOPE_TEST_FIXTURES "/roots/") + name.toStdString();
    return std::make_shared<const Snapshot>(inspectMachine(o));
}

QStringList ids(const std::vector<Finding>& findings)
{
    QStringList out;
    for (const auto& f : findings)
        out << QString::fromStdString(f.id);
    return out;
}
} // namespace

class TestSystemController : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The models hold what diagnoseMachine says about the same inputs, and the inputs reach it: a pasted log's cause
    // is among the findings, a machine without GPU says so.
    void snapshotAndInputs_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("log"); // pasted in the session; empty: none
        QTest::addColumn<QString>("mustHave");
        QTest::addColumn<QString>("mustLack");
        QTest::addColumn<int>("verdict");
        QTest::newRow("rocm7") << "ubuntu2404-rocm7" << "" << "VERSION_STREAM" << "NO_CODE_OBJECT_FOR_GPU"
                               << int(VerdictState::Unknown);
        QTest::newRow("rocm7 with a pasted HIP error")
            << "ubuntu2404-rocm7" << "RuntimeError: HIP error: invalid device function\n" << "NO_CODE_OBJECT_FOR_GPU" << ""
            << int(VerdictState::Problem);
        QTest::newRow("no GPU") << "debian12-nogpu" << "" << "NO_GPU_VISIBLE" << "" << int(VerdictState::NoGpu);
        QTest::newRow("h100") << "ubuntu2404-h100" << "" << "KFD_ABSENT" << "NO_GPU_VISIBLE" << int(VerdictState::Unknown);
    }
    void snapshotAndInputs()
    {
        QFETCH(QString, root);
        QFETCH(QString, log);
        QFETCH(QString, mustHave);
        QFETCH(QString, mustLack);
        QFETCH(int, verdict);
        const SnapshotPtr snapshot = recordedRoot(root);
        MachineDiagnosisInput input;
        input.snapshot = snapshot.get();
        if (!log.isEmpty())
            input.logs.push_back(readLogText(log.toStdString(), "pasted text"));
        const MachineDiagnosis want = diagnoseMachine(input);

        SystemController c;
        QSignalSpy diagnosed(&c, &SystemController::diagnosed);
        c.setSessionInputs(input.logs, {});
        QCOMPARE(diagnosed.size(), 0); // nothing shown yet: nothing to diagnose
        QVERIFY(!c.diagnosis());
        c.showSnapshot(snapshot);
        QCOMPARE(diagnosed.size(), 1);
        QCOMPARE(c.shown(), snapshot);

        const QStringList shown = ids(c.findingsModel()->findings());
        QCOMPARE(shown, ids(want.findings));
        QVERIFY2(shown.contains(mustHave), qPrintable(shown.join(QLatin1Char(' '))));
        if (!mustLack.isEmpty())
            QVERIFY2(!shown.contains(mustLack), qPrintable(shown.join(QLatin1Char(' '))));
        QCOMPARE(int(c.diagnosis()->verdict), verdict);
        const auto rows = stackRows(*snapshot, want.findings);
        QCOMPARE(c.stackModel()->rowCount(), int(rows.size()));
        for (int i = 0; i < int(rows.size()); ++i)
            QCOMPARE(c.stackModel()->rowAt(i)->status, rows[std::size_t(i)].status);
        CoverageModel coverage;
        coverage.setCoverage(snapshot->archCoverage);
        QCOMPARE(c.coverageModel()->rowCount(), coverage.rowCount());
        QCOMPARE(c.coverageModel()->emptyReason(), coverage.emptyReason());
    }

    // After a snapshot, each change of the session's inputs diagnoses again: the log's finding comes and goes.
    void inputsRediagnose()
    {
        SystemController c;
        c.showSnapshot(recordedRoot(QStringLiteral("ubuntu2404-rocm7")));
        QSignalSpy diagnosed(&c, &SystemController::diagnosed);
        const int before = c.findingsModel()->rowCount();
        c.setSessionInputs({readLogText("RuntimeError: HIP error: invalid device function\n", "pasted text")}, {});
        QCOMPARE(diagnosed.size(), 1);
        QVERIFY(ids(c.findingsModel()->findings()).contains(QStringLiteral("NO_CODE_OBJECT_FOR_GPU")));
        QCOMPARE(c.diagnosis()->verdict, VerdictState::Problem);
        c.setSessionInputs({}, {});
        QCOMPARE(diagnosed.size(), 2);
        QCOMPARE(c.findingsModel()->rowCount(), before);
        QVERIFY(!ids(c.findingsModel()->findings()).contains(QStringLiteral("NO_CODE_OBJECT_FOR_GPU")));
    }

    // A null snapshot (an inspection that gave none) leaves the one shown.
    void nullSnapshotIgnored()
    {
        SystemController c;
        const SnapshotPtr shown = recordedRoot(QStringLiteral("debian12-nogpu"));
        c.showSnapshot(shown);
        QSignalSpy diagnosed(&c, &SystemController::diagnosed);
        c.showSnapshot(nullptr);
        QCOMPARE(diagnosed.size(), 0);
        QCOMPARE(c.shown(), shown);
        QCOMPARE(c.diagnosis()->verdict, VerdictState::NoGpu);
    }
};

QTEST_MAIN(TestSystemController)
#include "tst_system_controller.moc"
