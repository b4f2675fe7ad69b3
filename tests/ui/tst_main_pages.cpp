// Every page of the main window on this machine: the Probes grid after a CPU run, the VPOC page on the
// sample data, the System page; screenshots of each (written to the build folder and looked at).
#include "ui/main_window.h"
#include "ui/probes/probe_grid_model.h"
#include "ui/probes/probes_page.h"
#include "ui/system/system_page.h"
#include "ui/vpoc/session_model.h"
#include "ui/vpoc/vpoc_page.h"

#include <QSignalSpy>
#include <QtTest>

using namespace stackscope::ui;

namespace {
void save(QWidget& w, const QString& name)
{
    QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
    QTest::qWait(300); // chart scenes lay out on the event loop
    QVERIFY(w.grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/") + name + QStringLiteral(".png")));
}
} // namespace

class TestMainPages : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pages()
    {
        // The pages' wiring with libtorch alone: a Python environment's grid (about 90 s on the 2-core machine) is
        // tst_python_probes' job, so the Probes page does not look for Python environments here.
        qputenv("STACKSCOPE_PYTHON_ENVS", "off");
        MainWindow window;
        window.resize(1280, 820);
        QSignalSpy inspected(window.snapshots(), &SnapshotController::snapshotChanged);
        window.show();
        window.snapshots()->refresh();
        QVERIFY(inspected.wait(60000));
        save(window, QStringLiteral("main-system"));

        QVERIFY(window.showPage(QStringLiteral("probes")));
        auto* probes = window.findChild<ProbesPage*>();
        QVERIFY(probes);
        QSignalSpy probed(probes, &ProbesPage::runFinished);
        probes->runAll();
        QVERIFY(probed.wait(120000));
        QVERIFY(probes->gridModel()->rowCount() > 10);
        save(window, QStringLiteral("main-probes"));

        QVERIFY(window.showPage(QStringLiteral("VPOC")));
        VpocPage* vpoc = window.vpocPage();
        QVERIFY(!vpoc->useSampleData().isEmpty());
        QSignalSpy computed(vpoc, &VpocPage::finished);
        vpoc->run();
        QVERIFY(computed.wait(60000));
        QCOMPARE(computed.at(0).at(0).toBool(), true);
        QVERIFY(vpoc->sessionModel()->rowCount() >= 20);
        save(window, QStringLiteral("main-vpoc"));

        QVERIFY(!window.showPage(QStringLiteral("no such page")));
    }
};

QTEST_MAIN(TestMainPages)
#include "tst_main_pages.moc"
