// The System page and main window: recorded machines, a live inspection without the torch module,
// and screenshots (written to the build folder, looked at by a person before a change lands).
#include "core/archscan/arch_scan.h"
#include "core/diagnosis/diagnosis.h"
#include "core/inspect/inspector.h"
#include "ui/main_window.h"
#include "ui/models/coverage_model.h"
#include "ui/models/findings_model.h"
#include "ui/models/stack_model.h"
#include "ui/system/system_page.h"

#include <QLabel>
#include <QTabWidget>
#include <QSignalSpy>
#include "core/diagnosis/diagnosis.h"

#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {
SnapshotPtr fixture(const char* name)
{
    InspectOptions o;
    o.root = std::string(STACKSCOPE_TEST_FIXTURES "/roots/") + name;
    return std::make_shared<const Snapshot>(inspectMachine(o));
}

QString screenshotPath(const QString& name)
{
    return QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/") + name + QStringLiteral(".png");
}

void saveScreenshot(QWidget& w, const QString& name)
{
    QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
    const QImage image = w.grab().toImage();
    QVERIFY(!image.isNull());
    QVERIFY(image.width() >= 800 && image.height() >= 600);
    // A blank grab (nothing painted) has a handful of colours; a page with text and tables has many.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7) {
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    }
    QVERIFY2(colours.size() > 20, qPrintable(QStringLiteral("only %1 colours").arg(colours.size())));
    QVERIFY(image.save(screenshotPath(name)));
}
} // namespace

class TestSystemPage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void recordedMachines_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<int>("cards");
        QTest::newRow("amd-2x7900xt") << "ubuntu2204-2x7900xt" << 3;
        QTest::newRow("rocm7") << "ubuntu2404-rocm7" << 1;
        QTest::newRow("nvidia-h100") << "ubuntu2404-h100" << 1;
        QTest::newRow("no-gpu") << "debian12-nogpu" << 0;
    }
    void recordedMachines()
    {
        QFETCH(QString, root);
        QFETCH(int, cards);
        MainWindow window;
        window.resize(1280, 820);
        const auto snapshot = fixture(root.toUtf8().constData());
        window.snapshots()->setSnapshot(snapshot, QString());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        SystemPage* page = window.systemPage();
        QCOMPARE(page->gpuCardCount(), cards);
        // The checks and what the rules say about the snapshot: the list `inspect` and `diagnose --snapshot` print.
        QCOMPARE(page->findingsModel()->rowCount(), int(machineFindings(*snapshot).size()));
        QVERIFY(page->stackModel()->rowCount() > 0);
        auto* banner = page->findChild<QLabel*>(QStringLiteral("snapshotBanner"));
        QVERIFY(banner && banner->isVisible()); // a recorded machine is never shown as this one
        QVERIFY(window.statusText().contains(QStringLiteral("recorded root")));
        if (cards == 0)
            QVERIFY(page->findChild<QLabel*>(QStringLiteral("noGpuLabel")));
        saveScreenshot(window, QStringLiteral("system-") + root);
    }

    void coverageMatrix()
    {
        // A real scan of the checked-in Tensile fixture folders against the recorded AMD box's GPUs.
        Snapshot s = *fixture("ubuntu2204-2x7900xt");
        const std::string lib = STACKSCOPE_TEST_FIXTURES "/archscan/";
        s.archCoverage = archscan::scanCoverage(
            {lib + "rocblas/library", lib + "hipblaslt/library", lib + "rocblas-gfx110-trap/library"}, {"gfx1100", "gfx1036"});
        MainWindow window;
        window.resize(1280, 820);
        window.snapshots()->setSnapshot(std::make_shared<const Snapshot>(s), QStringLiteral("coverage test"));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* model = window.systemPage()->coverageModel();
        QCOMPARE(model->rowCount(), 3);
        QCOMPARE(model->devices(), (QStringList {"gfx1100", "gfx1036"}));
        bool red = false;
        for (int r = 0; r < model->rowCount(); ++r) {
            for (int c = CoverageModel::FIRST_DEVICE_COLUMN; c < model->columnCount(); ++c)
                red = red || model->index(r, c).data(CoverageModel::VerdictRole).toString() == QStringLiteral("no");
        }
        QVERIFY(red); // the gfx110 trap folder does not cover gfx1100
        QCOMPARE(model->index(0, CoverageModel::LibraryColumn).data().toString(), QStringLiteral("rocblas/library"));
        auto* tabs = window.systemPage()->findChild<QTabWidget*>(QStringLiteral("stackTabs"));
        QVERIFY(tabs);
        tabs->setCurrentIndex(1);
        saveScreenshot(window, QStringLiteral("system-coverage"));
    }

    void liveInspectionWithoutTorchModule()
    {
        qputenv("STACKSCOPE_TORCH_MODULE", "/nonexistent/libstackscope_torch.so");
        MainWindow window;
        QSignalSpy changed(window.snapshots(), &SnapshotController::snapshotChanged);
        window.show();
        window.snapshots()->refresh();
        QVERIFY(changed.wait(60000));
        qunsetenv("STACKSCOPE_TORCH_MODULE");
        const auto s = window.snapshots()->snapshot();
        QVERIFY(s && !s->root);
        bool reported = false;
        for (int r = 0; r < window.systemPage()->findingsModel()->rowCount(); ++r) {
            reported = reported || window.systemPage()->findingsModel()->index(r, FindingsModel::IdColumn).data().toString()
                    == QStringLiteral("TORCH_MODULE_LOAD_FAILED");
        }
        QVERIFY(reported);
        QVERIFY(window.statusText().contains(QStringLiteral("torch not loaded")));
        auto* banner = window.systemPage()->findChild<QLabel*>(QStringLiteral("snapshotBanner"));
        QVERIFY(banner && !banner->isVisible());
    }

    void openBadSnapshotKeepsCurrent()
    {
        MainWindow window;
        window.snapshots()->setSnapshot(fixture("debian12-nogpu"), QString());
        QSignalSpy errors(window.snapshots(), &SnapshotController::errorOccurred);
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"schema\": \"something/else\"}");
        f.close();
        QVERIFY(!window.snapshots()->openFile(bad));
        QCOMPARE(errors.size(), 1);
        QVERIFY(errors.at(0).at(0).toString().contains(QStringLiteral("something/else")));
        QVERIFY(window.snapshots()->snapshot()->root); // still the one shown before
    }
};

QTEST_MAIN(TestSystemPage)
#include "tst_system_page.moc"
