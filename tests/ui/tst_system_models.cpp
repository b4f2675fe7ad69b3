// The System page's item models, each under QAbstractItemModelTester.
#include "core/archscan/arch_scan.h"
#include "core/inspect/inspector.h"
#include "core/snapshot/stack_rows.h"
#include "ui/models/coverage_model.h"
#include "ui/models/findings_model.h"
#include "ui/models/stack_model.h"

#include <QAbstractItemModelTester>
#include <QtTest>

#include <algorithm>

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
        // Status second, after the component: a long value never pushes it out of view.
        QStringList headers;
        for (int c = 0; c < model.columnCount(); ++c)
            headers << model.headerData(c, Qt::Horizontal).toString();
        QCOMPARE(headers, (QStringList {"Component", "Status", "Version", "Found at"}));
        // Each cell's tooltip is its whole text (the view cuts long ones in the middle), then the note.
        for (int r = 0; r < model.rowCount(); ++r) {
            for (int c : {int(StackModel::VersionColumn), int(StackModel::LocationColumn)}) {
                const QString tip = model.index(r, c).data(Qt::ToolTipRole).toString();
                const QString note = model.index(r, c).data(StackModel::NoteRole).toString();
                QCOMPARE(tip.section(QLatin1Char('\n'), 0, 0), model.index(r, c).data().toString());
                QCOMPARE(tip.contains(note), true);
            }
        }
        // The archs libtorch was built for get a row of their own (an "invalid device function" is read there);
        // the recorded machine has none (torch not loaded), so none is shown.
        auto withArchs = s;
        withArchs.torch.archList = std::vector<std::string> {"gfx90a", "gfx1100"};
        const auto rows = stackRows(withArchs);
        const auto archs = std::find_if(rows.begin(), rows.end(), [](const StackRow& r) { return r.component == "libtorch archs"; });
        QVERIFY(archs != rows.end());
        QCOMPARE(archs->version, std::string("gfx90a gfx1100"));
        const auto plain = stackRows(s);
        QVERIFY(std::none_of(plain.begin(), plain.end(), [](const StackRow& r) { return r.component == "libtorch archs"; }));
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
    }

    void coverageModel_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("columns");
        QTest::addColumn<QString>("cell"); // verdict of row 0, first device
        QTest::newRow("not scanned") << QByteArray("null") << 0 << 3 << QString();
        QTest::newRow("two devices") << QByteArray(R"({"devices": ["gfx1100", "sm_90"], "libraries": [
            {"path": "/opt/rocm/lib/libtorch_hip.so", "kind": "hip", "targets": [{"id": "gfx1030"}, {"id": "gfx90a"}],
             "covers": {"gfx1100": "no"}, "explain": {"gfx1100": "no code object for gfx1100: install a build with it"}},
            {"path": "/x/libtorch_cuda.so", "kind": "cuda", "targets": [{"id": "sm_90"}], "covers": {"sm_90": "yes"}}]})")
                                     << 2 << 5 << "no";
        // Keys of a newer scan are not needed; a library that covers no device shows "–" there.
        QTest::newRow("old shape, no verdict") << QByteArray(R"({"devices": ["gfx1100"], "libraries": [{"path": "/l/a.so"}]})")
                                               << 1 << 4 << "";
    }
    void coverageModel()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, rows);
        QFETCH(int, columns);
        QFETCH(QString, cell);
        CoverageModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto parsed = nlohmann::json::parse(json.toStdString());
        model.setCoverage(parsed.is_null() ? std::nullopt : std::optional(archscan::coverageFromJson(parsed)));
        QCOMPARE(model.rowCount(), rows);
        QCOMPARE(model.columnCount(), columns);
        if (rows == 0) {
            QVERIFY(!model.emptyReason().isEmpty());
            return;
        }
        const QModelIndex first = model.index(0, CoverageModel::FIRST_DEVICE_COLUMN);
        QCOMPARE(first.data(CoverageModel::VerdictRole).toString(), cell);
        if (cell == QStringLiteral("no")) {
            QVERIFY(first.data(Qt::ToolTipRole).toString().contains(QStringLiteral("install a build")));
            QCOMPARE(first.data(Qt::BackgroundRole).value<QColor>(), QColor(0xff, 0xcd, 0xd2));
            QCOMPARE(model.index(0, CoverageModel::LibraryColumn).data().toString(), QStringLiteral("libtorch_hip.so"));
            // The CUDA library is not applicable to the AMD device.
            QCOMPARE(model.index(1, CoverageModel::FIRST_DEVICE_COLUMN).data().toString(), QStringLiteral("–"));
        }
    }

    void findingsModel()
    {
        FindingsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Snapshot s = fixture("ubuntu2204-2x7900xt");
        model.setFindings(s.findings, FindingsModel::Order::ErrorsFirst);
        QCOMPARE(model.rowCount(), int(s.findings.size()));
        QVERIFY(model.rowCount() > 1);
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
        // A check has no fix a probe variant could try: its Fix column is empty, its fix text is the FixRole.
        QCOMPARE(model.index(0, FindingsModel::VerifiedColumn).data().toString(), QString());
        QCOMPARE(model.index(0, 0).data(FindingsModel::FixRole).toString(), QString::fromStdString(model.findingAt(0)->fix));
        // AsGiven keeps the order it was given (diagnose() ranks its findings itself).
        auto reversed = s.findings;
        std::reverse(reversed.begin(), reversed.end());
        model.setFindings(reversed);
        QCOMPARE(model.findingAt(0)->id, reversed.front().id);
    }
};

QTEST_MAIN(TestSystemModels)
#include "tst_system_models.moc"
