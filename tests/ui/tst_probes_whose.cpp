// The Probes page on a recorded root (`stackscope --root DIR`), at 1024x640 and 1920x1080, before and after a probe
// run on this machine: the System page's "Not this machine" line is there, the findings stay the recorded machine's
// (the System page's, the status bar's counts), the results are named as this machine's, "Try this fix" is off, a
// fix no probe could try says so (walkthrough 2026-11-27 third, problems 4 and 10). Screenshots in
// screenshots/probes-root-*.png.
#include "ui/main_window.h"
#include "ui/models/findings_model.h"
#include "ui/probes/probe_grid_model.h"
#include "ui/probes/probes_page.h"
#include "ui/system/system_page.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

QStringList ids(const FindingsModel* model)
{
    QStringList out;
    for (int r = 0; r < model->rowCount(); ++r)
        out << QString::fromStdString(model->findingAt(r)->id);
    out.sort();
    return out;
}

void save(QWidget& window, const QString& name)
{
    QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
    window.grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/probes-root-%1.png").arg(name));
}

} // namespace

class TestProbesWhose : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        qputenv("STACKSCOPE_PYTHON_ENVS", "off"); // libtorch only: a short run
    }

    void recordedRootBeforeAndAfterARun_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("untriable"); // a finding whose fixes no probe can try; empty: none to check
        QTest::newRow("rocm7 1024x640") << QStringLiteral("ubuntu2404-rocm7") << QSize(1024, 640) << QStringLiteral("PCIE_LINK_NARROW");
        QTest::newRow("rocm7 1920x1080") << QStringLiteral("ubuntu2404-rocm7") << QSize(1920, 1080) << QStringLiteral("PCIE_LINK_NARROW");
        QTest::newRow("2x7900xt 1920x1080") << QStringLiteral("ubuntu2204-2x7900xt") << QSize(1920, 1080) << QString();
    }
    void recordedRootBeforeAndAfterARun()
    {
        if (qEnvironmentVariableIsEmpty("STACKSCOPE_CLI"))
            QSKIP("STACKSCOPE_CLI is not set; run through ctest");
        QFETCH(QString, root);
        QFETCH(QSize, size);
        QFETCH(QString, untriable);
        MainWindow window;
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy changed(window.snapshots(), &SnapshotController::snapshotChanged);
        QVERIFY(window.snapshots()->inspectRoot(QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/") + root));
        QVERIFY(changed.wait(60000));
        QVERIFY(window.showPage(QStringLiteral("Probes")));
        ProbesPage* page = window.probesPage();
        QTest::qWait(200);
        const QString tag = QStringLiteral("%1-%2x%3").arg(root).arg(size.width()).arg(size.height());
        save(window, tag + QStringLiteral("-before"));

        const QStringList system = ids(window.systemPage()->findingsModel());
        const QString bar = window.statusText();
        QVERIFY(!system.isEmpty());
        auto* line = page->findChild<QLabel*>(QStringLiteral("probesMachine"));
        QVERIFY(line);
        auto whose = [&](const QString& when) -> QString {
            if (!line->isVisible())
                return when + QStringLiteral(": no \"Not this machine\" line");
            if (!line->text().startsWith(QStringLiteral("<b>Not this machine:</b> showing the recorded machine in"))
                || !line->text().contains(root) || !line->text().contains(QStringLiteral("The findings are that machine's")))
                return when + QStringLiteral(": ") + line->text();
            if (ids(page->findingsModel()) != system)
                return when + QStringLiteral(": findings %1, System page %2")
                                  .arg(ids(page->findingsModel()).join(QLatin1Char(',')), system.join(QLatin1Char(',')));
            auto* heading = page->findChild<QLabel*>(QStringLiteral("probesFindingsHeading"));
            if (!heading || !heading->isVisible() || !heading->text().contains(QStringLiteral("not this machine")))
                return when + QStringLiteral(": findings heading %1").arg(heading ? heading->text() : QString());
            if (window.statusText() != bar)
                return when + QStringLiteral(": status bar %1, was %2").arg(window.statusText(), bar);
            return {};
        };
        QString wrong = whose(QStringLiteral("before a run"));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        if (!untriable.isEmpty()) {
            const auto* model = page->findingsModel();
            int row = -1;
            for (int r = 0; r < model->rowCount(); ++r)
                row = model->findingAt(r)->id == untriable.toStdString() ? r : row;
            QVERIFY2(row >= 0, qPrintable(ids(model).join(QLatin1Char(','))));
            QCOMPARE(model->index(row, FindingsModel::VerifiedColumn).data().toString(), QStringLiteral("no probe can try this"));
        }

        // A run here (cut short: some results are enough to be this machine's), then the same page again.
        QSignalSpy finished(page, &ProbesPage::runFinished);
        page->runAll();
        QTRY_VERIFY_WITH_TIMEOUT(page->gridModel()->records().size() >= 3, 60000);
        page->cancel();
        QVERIFY(finished.wait(30000) || finished.size() == 1);
        QTest::qWait(200);
        save(window, tag + QStringLiteral("-after-run"));
        wrong = whose(QStringLiteral("after a run here"));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        QVERIFY2(line->text().contains(QStringLiteral("<b>The probe results are from this machine</b>")), qPrintable(line->text()));
        auto* tryFix = page->findChild<QPushButton*>(QStringLiteral("probeTryFix"));
        QVERIFY(tryFix && !tryFix->isEnabled());
        QVERIFY2(tryFix->toolTip().contains(QStringLiteral("another machine")), qPrintable(tryFix->toolTip()));
    }
};

QTEST_MAIN(TestProbesWhose)
#include "tst_probes_whose.moc"
