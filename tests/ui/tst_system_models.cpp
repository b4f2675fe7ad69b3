// The System page's item models, each under QAbstractItemModelTester.
#include "core/inspect/inspector.h"
#include "core/snapshot/stack_rows.h"
#include "ui/models/findings_model.h"
#include "ui/models/stack_model.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {
Snapshot fixture(const char* name)
{
    InspectOptions o;
    o.root = std::string(STACKSCOPE_TEST_FIXTURES "/roots/") + name;
    return inspectMachine(o);
}
} // namespace

class TestSystemModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stackModel()
    {
        StackModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        const Snapshot s = fixture("ubuntu2204-2x7900xt");
        model.setRows(stackRows(s));
        QVERIFY(model.rowCount() >= 8);
        QCOMPARE(model.columnCount(), int(StackModel::NUM_COLUMNS));
        // Two ROCm installs, each with its version and folder.
        QStringList installs;
        for (int r = 0; r < model.rowCount(); ++r) {
            if (model.index(r, StackModel::ComponentColumn).data().toString() == QStringLiteral("ROCm install"))
                installs << model.index(r, StackModel::VersionColumn).data().toString() + QLatin1Char('@')
                        + model.index(r, StackModel::LocationColumn).data().toString();
        }
        QCOMPARE(installs, (QStringList {"6.1.2-119@/opt/rocm-6.1.2", "6.2.0-66@/opt/rocm-6.2.0"}));
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
    }

    void findingsModel()
    {
        FindingsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Snapshot s = fixture("ubuntu2204-2x7900xt");
        model.setFindings(s.findings);
        QCOMPARE(model.rowCount(), int(s.findings.size()));
        // Errors first, then warnings, then infos.
        int previous = 3;
        for (int r = 0; r < model.rowCount(); ++r) {
            const int severity = model.index(r, 0).data(FindingsModel::SeverityRole).toInt();
            QVERIFY(severity <= previous);
            previous = severity;
            QVERIFY(!model.index(r, 0).data(FindingsModel::FixRole).toString().isEmpty());
            QVERIFY(!model.index(r, 0).data(FindingsModel::SourcesRole).toStringList().isEmpty());
        }
        QCOMPARE(model.index(0, FindingsModel::SeverityColumn).data().toString(), QStringLiteral("error"));
        QVERIFY(!model.findingAt(-1));
        QVERIFY(!model.findingAt(model.rowCount()));
    }
};

QTEST_MAIN(TestSystemModels)
#include "tst_system_models.moc"
