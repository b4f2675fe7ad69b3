// The System page and main window: recorded machines, a live inspection without the torch module,
// and screenshots (written to the build folder, looked at by a person before a change lands).
#include "core/archscan/arch_scan.h"
#include "core/diagnosis/machine_diagnosis.h"
#include "core/inspect/inspector.h"
#include "ui/main_window.h"
#include "ui/models/coverage_model.h"
#include "ui/models/findings_model.h"
#include "ui/models/stack_model.h"
#include "ui/system/system_page.h"
#include "ui/system/verdict_panel.h"

#include <QLabel>
#include <QHeaderView>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QSignalSpy>

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
        // No GPU: the verdict says so and why; no empty card box takes the room of the tables (issue 35).
        auto* cardsArea = page->findChild<QWidget*>(QStringLiteral("gpuCards"));
        QVERIFY(cardsArea);
        QCOMPARE(cardsArea->isVisible(), cards > 0);
        if (cards == 0)
            QCOMPARE(page->verdict()->state(), VerdictState::NoGpu);
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

    // A long value (a kernel command line of a GPU server) never widens a column: Status stays in view at every
    // size, the value is cut in the middle with the whole of it in the tooltip, and the details pane wraps it.
    void longValueKeepsStatusInView_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x640") << QSize(1024, 640);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void longValueKeepsStatusInView()
    {
        QFETCH(QSize, size);
        Snapshot s = *fixture("ubuntu2404-secureboot-dkms");
        QString cmdline = QStringLiteral("BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=UUID=2b1c0e4e-8d0f-4c55-9a57-1c9b5a0f7a10 ro");
        for (int i = 0; i < 24; ++i)
            cmdline += QStringLiteral(" hugepagesz=1G hugepages=%1 amd_iommu=on iommu=pt").arg(i);
        cmdline += QStringLiteral(" initrd=/boot/").append(QString(300, QLatin1Char('x'))); // no space to wrap at
        s.hostExtras.kernelCmdline = cmdline.toStdString();
        MainWindow window;
        window.resize(size);
        window.snapshots()->setSnapshot(std::make_shared<const Snapshot>(s), QStringLiteral("long command line"));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        SystemPage* page = window.systemPage();
        auto* view = page->findChild<QTableView*>(QStringLiteral("stackTable"));
        auto* detail = page->findChild<QTextBrowser*>(QStringLiteral("stackDetail"));
        QVERIFY(view && detail);
        QTRY_VERIFY(view->isVisible() && view->viewport()->width() > 300);
        QCOMPARE(view->model()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("Status"));

        const auto* header = view->horizontalHeader();
        const int room = view->viewport()->width();
        QVERIFY2(header->length() <= room, qPrintable(QStringLiteral("columns %1 px in %2 px").arg(header->length()).arg(room)));
        QCOMPARE(view->horizontalScrollBar()->maximum(), 0);
        QVERIFY(header->sectionViewportPosition(StackModel::StatusColumn) >= 0);
        QVERIFY(header->sectionViewportPosition(StackModel::StatusColumn) + header->sectionSize(StackModel::StatusColumn) <= room);
        QVERIFY2(header->sectionSize(StackModel::VersionColumn) <= room / 2,
                 qPrintable(QStringLiteral("Version %1 px of %2").arg(header->sectionSize(StackModel::VersionColumn)).arg(room)));
        // The page does not grow sideways either.
        auto* scroll = window.findChild<QScrollArea*>(QStringLiteral("SystemScroll"));
        QVERIFY(scroll);
        QCOMPARE(scroll->horizontalScrollBar()->maximum(), 0);

        int row = -1;
        for (int r = 0; r < view->model()->rowCount(); ++r) {
            if (view->model()->index(r, StackModel::ComponentColumn).data().toString() == QStringLiteral("Kernel command line"))
                row = r;
        }
        QVERIFY(row >= 0);
        QCOMPARE(view->model()->index(row, StackModel::VersionColumn).data(Qt::ToolTipRole).toString(), cmdline);
        QVERIFY(detail->toPlainText().isEmpty());
        view->selectRow(row);
        QVERIFY2(detail->toPlainText().contains(cmdline), qPrintable(detail->toPlainText().left(300)));
        QVERIFY(detail->toPlainText().contains(QStringLiteral("/proc/cmdline")));
        QCOMPARE(detail->horizontalScrollBar()->maximum(), 0); // wrapped, not one long line
        QCOMPARE(scroll->horizontalScrollBar()->maximum(), 0);
        QCOMPARE(header->length(), view->horizontalHeader()->length());
        scroll->ensureWidgetVisible(detail);
        saveScreenshot(window, QStringLiteral("system-long-cmdline-%1").arg(size.width()));
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
