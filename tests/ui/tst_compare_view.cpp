// Compare's view of two snapshots (walkthrough 2026-11-27 problems 14 and 15): a value a recorded machine never
// reported reads unknown and is not counted as a difference that matters; sizes read in the System card's units.
#include "core/report/snapshot_diff.h"
#include "core/snapshot/snapshot_json.h"
#include "ui/report/compare_dialog.h"
#include "ui/report/diff_model.h"
#include "ui/widgets/status_colors.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

// A machine with one small GPU (512 MiB) and its libraries and torch asked.
Snapshot machineHere()
{
    Snapshot s;
    s.capturedAt = "2026-11-27T10:00:00Z";
    s.host.os = "Ubuntu 24.04.1 LTS";
    GpuInfo g;
    g.index = 0;
    g.vendor = "amd";
    g.name = "AMD Radeon Graphics";
    g.arch = "gfx1036";
    g.vramTotalBytes = 512ull << 20;
    s.gpus.push_back(g);
    s.rocm.hipRuntimeVersion = "6.2.41134";
    s.torch.version = "2.5.1+rocm6.2";
    LibraryStatus hip;
    hip.component = "HIP runtime";
    hip.loaded = true;
    hip.path = "/opt/rocm/lib/libamdhip64.so";
    s.libraries.push_back(hip);
    return s;
}

// The same machine read under --root: no library loaded, no torch; another OS, a bigger GPU.
Snapshot recordedMachine(std::uint64_t vram, const std::string& os)
{
    Snapshot s = machineHere();
    s.root = "/recorded/root";
    s.libraries.clear();
    s.rocm.hipRuntimeVersion.reset();
    s.torch = TorchInfo {};
    s.gpus[0].vramTotalBytes = vram;
    s.host.os = os;
    return s;
}

} // namespace

class TestCompareView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void countsKnownAndUnknownApart_data()
    {
        QTest::addColumn<qulonglong>("recordedVram");
        QTest::addColumn<QString>("recordedOs");
        QTest::addColumn<int>("known");
        QTest::addColumn<QString>("status");
        QTest::newRow("only unknowns") << qulonglong(512ull << 20) << "Ubuntu 24.04.1 LTS" << 0
                                       << "No difference that matters; 14 values unknown";
        QTest::newRow("VRAM and OS differ") << qulonglong(20ull << 30) << "Ubuntu 22.04.4 LTS" << 2
                                            << "2 differences that matter; 14 values unknown";
    }
    void countsKnownAndUnknownApart()
    {
        QFETCH(qulonglong, recordedVram);
        QFETCH(QString, recordedOs);
        QFETCH(int, known);
        QFETCH(QString, status);
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("recorded.json"));
        QFile file(a);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(toJson(recordedMachine(recordedVram, recordedOs.toStdString())).dump()));
        file.close();

        CompareDialog dialog;
        new QAbstractItemModelTester(dialog.model(), QAbstractItemModelTester::FailureReportingMode::QtTest, &dialog);
        dialog.setFiles(a);
        dialog.setThisMachineAsB(std::make_shared<const Snapshot>(machineHere()));
        DiffModel* model = dialog.model();
        QVERIFY2(model->rowCount() > 0, qPrintable(dialog.statusText()));
        QCOMPARE(model->knownCount(), known);
        // The recorded side's torch facts, library-only versions and the HIP runtime library were never asked.
        QCOMPARE(model->unknownCount(), 14);
        QVERIFY2(dialog.statusText().startsWith(status), qPrintable(dialog.statusText()));
        // The differences that matter first, then the unknowns, which read unknown in the unknown colour.
        for (int r = 0; r < model->rowCount(); ++r) {
            const auto& row = model->rows()[std::size_t(r)];
            QCOMPARE(DiffModel::isUnknown(row), r >= known);
            if (!DiffModel::isUnknown(row))
                continue;
            const QModelIndex cell = model->index(r, DiffModel::AColumn);
            QVERIFY2(cell.data().toString().startsWith(QStringLiteral("unknown")), qPrintable(cell.data().toString()));
            QCOMPARE(cell.data(Qt::ForegroundRole).value<QColor>(), unknownColor());
            QVERIFY(!cell.data(Qt::ToolTipRole).toString().isEmpty());
        }
        dialog.resize(1000, 600);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        QVERIFY(dialog.grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/compare-") +
                                   QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')) +
                                   QStringLiteral(".png")));
    }

    // The System card's units: 512 MiB, not "0.5 GiB"; 20.0 GiB.
    void vramInTheCardsUnits_data()
    {
        QTest::addColumn<qulonglong>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("512 MiB") << qulonglong(512ull << 20) << "512 MiB";
        QTest::newRow("20 GiB") << qulonglong(20ull << 30) << "20.0 GiB";
    }
    void vramInTheCardsUnits()
    {
        QFETCH(qulonglong, bytes);
        QFETCH(QString, text);
        Snapshot a = machineHere();
        Snapshot b = machineHere();
        a.gpus[0].vramTotalBytes = bytes;
        b.gpus[0].vramTotalBytes = bytes * 3;
        const auto rows = report::diffSnapshots(a, b);
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(rows[0].item), QStringLiteral("GPU 0 VRAM"));
        QCOMPARE(QString::fromStdString(rows[0].a), text);
    }
};

QTEST_MAIN(TestCompareView)
#include "tst_compare_view.moc"
