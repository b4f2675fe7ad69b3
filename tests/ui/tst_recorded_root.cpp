// `stackscope --root DIR` and SnapshotController::inspectRoot: the GUI shows the recorded machine that
// `stackscope-cli inspect --root DIR` reads, with the same snapshot, stack rows and findings (issue 35).
#include "core/diagnosis/machine_diagnosis.h"
#include "core/snapshot/snapshot_json.h"
#include "core/snapshot/stack_rows.h"
#include "tests/common/cli_process.h"
#include "ui/main_window.h"
#include "ui/models/findings_model.h"
#include "ui/models/stack_model.h"
#include "ui/probes/probes_page.h"
#include "ui/system/snapshot_banner.h"
#include "ui/system/system_page.h"

#include <QFile>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QHeaderView>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

const QString kRoot = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/ubuntu2404-secureboot-dkms");

// The snapshot without what differs between two inspections of the same folder (the time it was taken).
nlohmann::json comparable(nlohmann::json doc)
{
    doc.erase("captured_at");
    // What each link should carry: `inspect --json` derives it from the snapshot (core/perf); the page shows it in
    // the links view rather than in its snapshot.
    doc.erase("link_expectations");
    return doc;
}

// Shows the window and the recorded root tests/fixtures/roots/<name> in it, once the snapshot has come in.
bool showRecordedRoot(MainWindow& window, const QString& name)
{
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    QSignalSpy changed(window.snapshots(), &SnapshotController::snapshotChanged);
    return window.snapshots()->inspectRoot(QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/") + name) && changed.wait(60000);
}

QStringList findingIds(const FindingsModel* model)
{
    QStringList ids;
    for (int r = 0; r < model->rowCount(); ++r)
        ids << model->index(r, 0).data(FindingsModel::IdRole).toString();
    ids.sort();
    return ids;
}

} // namespace

class TestRecordedRoot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The System page shows the recorded machine: the CLI's snapshot, its stack rows and machineFindings.
    void systemPageShowsRoot()
    {
        MainWindow window;
        window.resize(1280, 820);
        window.show();
        QSignalSpy changed(window.snapshots(), &SnapshotController::snapshotChanged);
        QVERIFY(window.snapshots()->inspectRoot(kRoot));
        QVERIFY(window.statusText().contains(QStringLiteral("recorded root")));
        QVERIFY(changed.wait(60000));
        const SnapshotPtr s = window.snapshots()->snapshot();
        QVERIFY(s && s->root);
        QCOMPARE(QString::fromStdString(*s->root), kRoot);
        QVERIFY(!window.snapshots()->isThisMachine());

        const auto cli
            = test::runCli({ QStringLiteral("inspect"), QStringLiteral("--root"), kRoot, QStringLiteral("--json") });
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        const auto cliDoc = nlohmann::json::parse(cli.out.toStdString());
        const auto guiDoc = toJson(*s);
        QVERIFY2(comparable(guiDoc) == comparable(cliDoc),
            (comparable(guiDoc).dump(1) + "\n---\n" + comparable(cliDoc).dump(1)).c_str());

        SystemPage* page = window.systemPage();
        const Snapshot fromCli = parseSnapshot(cli.out.toStdString(), "stackscope-cli inspect --json");
        QCOMPARE(page->stackModel()->rowCount(), int(stackRows(fromCli).size()));
        QStringList expected;
        for (const auto& f : machineFindings(fromCli))
            expected << QString::fromStdString(f.id);
        expected.sort();
        QCOMPARE(findingIds(page->findingsModel()), expected);
        QVERIFY(expected.contains(QStringLiteral("SECURE_BOOT_DKMS")));
        auto* banner = page->findChild<QLabel*>(QStringLiteral("snapshotBanner"));
        QVERIFY(banner && banner->isVisible());
        QVERIFY2(banner->text().contains(QStringLiteral("ubuntu2404-secureboot-dkms")), qPrintable(banner->text()));
        // The root does not say when it was recorded: the time shown is the reading, and says so.
        QVERIFY2(banner->text().contains(QStringLiteral("when recorded: unknown")), qPrintable(banner->text()));
        QVERIFY2(!banner->text().contains(QStringLiteral("captured")), qPrintable(banner->text()));
        QVERIFY2(window.statusText().startsWith(QStringLiteral("recorded root ")), qPrintable(window.statusText()));
    }

    // When the shown machine was captured (walkthrough 2026-11-27 problem 17): a snapshot file states it; inspecting
    // a root reads its files now, so only the root's .stackscope/recorded-at can say when they were recorded.
    void bannerSaysWhenRecorded_data()
    {
        QTest::addColumn<QString>("kind"); // root, root-with-time, file
        QTest::addColumn<QStringList>("has");
        QTest::addColumn<QStringList>("hasNot");
        QTest::newRow("root without a recorded time")
            << "root" << QStringList {QStringLiteral("read 2026-11-27T10:00:00Z"), QStringLiteral("when recorded: unknown")}
            << QStringList {QStringLiteral("captured")};
        QTest::newRow("root that states it")
            << "root-with-time"
            << QStringList {QStringLiteral("recorded 2025-03-04T05:06:07Z"), QStringLiteral("(read 2026-11-27T10:00:00Z)")}
            << QStringList {QStringLiteral("captured"), QStringLiteral("unknown")};
        QTest::newRow("snapshot file") << "file" << QStringList {QStringLiteral("captured 2026-11-27T10:00:00Z")}
                                       << QStringList {QStringLiteral("unknown")};
    }
    void bannerSaysWhenRecorded()
    {
        QFETCH(QString, kind);
        QFETCH(QStringList, has);
        QFETCH(QStringList, hasNot);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Snapshot s;
        s.capturedAt = "2026-11-27T10:00:00Z";
        if (kind != QStringLiteral("file"))
            s.root = dir.path().toStdString();
        if (kind == QStringLiteral("root-with-time")) {
            QVERIFY(QDir(dir.path()).mkpath(QStringLiteral(".stackscope")));
            QFile f(dir.path() + QLatin1String(kRootRecordedAtFile));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("2025-03-04T05:06:07Z\n");
        }
        const QString text = notThisMachineText(s, kind == QStringLiteral("file") ? QStringLiteral("/tmp/s.json") : QString());
        for (const QString& part : has)
            QVERIFY2(text.contains(part), qPrintable(text));
        for (const QString& part : hasNot)
            QVERIFY2(!text.contains(part), qPrintable(text));
    }

    // The status line at 1024x640 (walkthrough 2026-11-27: "2 errors, 2 warning" cut at the window's edge): cut in
    // the middle to the window, the counts at its end still shown, the whole line in the tooltip.
    void statusLineFits_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("cut");
        QTest::newRow("1024x640") << QSize(1024, 640) << true;
        QTest::newRow("1920x1080") << QSize(1920, 1080) << false;
    }
    void statusLineFits()
    {
        QFETCH(QSize, size);
        QFETCH(bool, cut);
        MainWindow window;
        window.resize(size);
        QVERIFY(showRecordedRoot(window, QStringLiteral("ubuntu2204-2x7900xt")));
        QTest::qWait(100);
        const QString full = window.statusText();
        QVERIFY2(full.endsWith(QStringLiteral("2 errors, 2 warnings")), qPrintable(full));
        QLabel* line = nullptr;
        for (auto* label : window.findChildren<QLabel*>())
            if (label->isVisible() && (label->text() == full || label->toolTip() == full))
                line = label;
        QVERIFY2(line, qPrintable(full));
        QVERIFY2(line->fontMetrics().horizontalAdvance(line->text()) <= line->contentsRect().width(),
            qPrintable(QStringLiteral("%1 px of text in %2 px").arg(line->fontMetrics().horizontalAdvance(line->text()))
                           .arg(line->contentsRect().width())));
        QVERIFY(line->mapTo(&window, QPoint(line->width(), 0)).x() <= window.width());
        QCOMPARE(line->text() != full, cut);
        QVERIFY2(line->text().endsWith(QStringLiteral("2 errors, 2 warnings")), qPrintable(line->text()));
        QCOMPARE(line->toolTip(), cut ? full : QString());
    }

    // The GPU cards at 1024x640 (walkthrough 2026-11-27 problem 6: with 3 GPUs the strip scrolled sideways and the
    // third card was cut): the cards of ubuntu2204-2x7900xt (3 GPUs) fit the page's width at both sizes.
    void gpuCardsFit_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x640") << QSize(1024, 640);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void gpuCardsFit()
    {
        QFETCH(QSize, size);
        MainWindow window;
        window.resize(size);
        QVERIFY(showRecordedRoot(window, QStringLiteral("ubuntu2204-2x7900xt")));
        QTest::qWait(100);
        QCOMPARE(window.systemPage()->gpuCardCount(), 3);
        auto* cards = window.systemPage()->findChild<QScrollArea*>(QStringLiteral("gpuCards"));
        QVERIFY(cards);
        QVERIFY2(!cards->horizontalScrollBar()->isVisible(),
            qPrintable(QStringLiteral("cards %1 px wide in %2 px").arg(cards->widget()->minimumSizeHint().width())
                           .arg(cards->viewport()->width())));
    }

    // The System page's findings without scrolling (walkthrough 2026-11-27 problem 21: at the 1280x840 the window
    // opened with on 1920x1080 they were below the stack table, off the window): the window as it opens on the screen,
    // the findings' header and first rows inside it.
    void findingsAboveTheFold_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::newRow("1920x1080 screen") << QSize(1920, 1080);
        QTest::newRow("2560x1440 screen") << QSize(2560, 1440);
    }
    void findingsAboveTheFold()
    {
        QFETCH(QSize, screen);
        MainWindow window;
        window.fitInto(QRect(QPoint(0, 0), screen));
        QVERIFY(showRecordedRoot(window, QStringLiteral("ubuntu2204-2x7900xt")));
        QTest::qWait(100);
        auto* box = window.systemPage()->findChild<QWidget*>(QStringLiteral("findingsBox"));
        QVERIFY(box);
        QTableView* view = box->findChild<QTableView*>();
        QVERIFY(view && view->model()->rowCount() >= 2);
        // The second row's bottom edge inside the window, above the status bar.
        const int rowBottom = view->viewport()->mapTo(&window, QPoint(0, view->rowViewportPosition(1) + view->rowHeight(1))).y();
        QVERIFY2(rowBottom < window.statusBar()->mapTo(&window, QPoint(0, 0)).y(),
            qPrintable(QStringLiteral("row 2 ends at y %1 in a %2x%3 window").arg(rowBottom).arg(window.width()).arg(window.height())));
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        QVERIFY(window.grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/system-findings-") +
                                   QStringLiteral("%1x%2.png").arg(screen.width()).arg(screen.height())));
    }

    // The Probes page's findings at 1024x640 (walkthrough 2026-11-27: the rule's id took the room and the title
    // read "A GPU's / PCIe link ..." in about 80 px): the title gets most of the table on one line, the id heads the
    // finding's text below.
    void probesFindingsFit()
    {
        MainWindow window;
        window.resize(1024, 640);
        QVERIFY(showRecordedRoot(window, QStringLiteral("ubuntu2404-rocm7")));
        QVERIFY(window.showPage(QStringLiteral("Probes")));
        ProbesPage* probes = window.probesPage();
        probes->showRecords({}, QStringLiteral("no probe results"));
        QTRY_VERIFY(probes->findingsModel()->rowCount() > 0);
        QTest::qWait(200);
        QTableView* view = nullptr;
        for (auto* t : probes->findChildren<QTableView*>())
            if (t->model() == probes->findingsModel())
                view = t;
        QVERIFY(view);
        QVERIFY(view->isColumnHidden(FindingsModel::IdColumn));
        const int title = view->columnWidth(FindingsModel::TitleColumn);
        QVERIFY2(title >= view->viewport()->width() / 2,
            qPrintable(QStringLiteral("the title has %1 of %2 px").arg(title).arg(view->viewport()->width())));
        QCOMPARE(view->rowHeight(0), view->verticalHeader()->defaultSectionSize());
        view->selectRow(0);
        const QString id = QString::fromStdString(probes->findingsModel()->findingAt(0)->id);
        bool headed = false;
        for (auto* label : probes->findChildren<QLabel*>())
            headed = headed || label->text().startsWith(id + QStringLiteral(" \u00b7 "));
        QVERIFY2(headed, qPrintable(id));
        // The Fix column's words are explained under the list (walkthrough 2026-11-27 problem 9).
        auto* legend = probes->findChild<QLabel*>(QStringLiteral("fixLegend"));
        QVERIFY(legend && legend->isVisible());
        QVERIFY2(legend->text().contains(QStringLiteral("not tried")), qPrintable(legend->text()));
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        QVERIFY(window.grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/probes-findings-1024x640.png")));
    }

    void notAFolderSaysWhatToGive()
    {
        SnapshotController controller;
        QSignalSpy error(&controller, &SnapshotController::errorOccurred);
        QSignalSpy busy(&controller, &SnapshotController::busyChanged);
        QVERIFY(!controller.inspectRoot(QStringLiteral("/no/such/recorded-root")));
        QCOMPARE(error.size(), 1);
        const QString message = error.at(0).at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("/no/such/recorded-root"))
                && message.contains(QStringLiteral("record-root.sh")),
            qPrintable(message));
        QCOMPARE(busy.size(), 0); // nothing started
        QVERIFY(!controller.snapshot());
    }

    // The program: `stackscope --root DIR --report OUT` reports the recorded machine; a bad DIR or --root with
    // --snapshot is exit 2 with what to give.
    void guiProgramOption()
    {
        const QString program = qEnvironmentVariable("STACKSCOPE_GUI_PROGRAM");
        if (program.isEmpty())
            QSKIP("STACKSCOPE_GUI_PROGRAM is not set (run through CTest)");
        QTemporaryDir dir;
        QProcess p;
        p.start(program, { QStringLiteral("--root"), kRoot, QStringLiteral("--report"), dir.path() });
        QVERIFY(p.waitForFinished(240000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, err.constData());
        const QStringList lines
            = QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QFile report(lines[0] + QStringLiteral("/report.json"));
        QVERIFY(report.open(QIODevice::ReadOnly));
        const auto doc = nlohmann::json::parse(report.readAll().toStdString());
        QVERIFY2(doc["snapshot"].value("root", std::string()).find("ubuntu2404-secureboot-dkms") != std::string::npos,
            doc["snapshot"].value("root", nlohmann::json()).dump().c_str());
        bool secureBoot = false;
        for (const auto& f : doc["findings"])
            secureBoot = secureBoot || f.value("id", std::string()) == "SECURE_BOOT_DKMS";
        QVERIFY(secureBoot);

        QProcess bad;
        bad.start(program,
            { QStringLiteral("--root"), QStringLiteral("/no/such/recorded-root"), QStringLiteral("--report"),
                dir.path() });
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(QString::fromUtf8(bad.readAllStandardError()).contains(QStringLiteral("record-root.sh")));

        QProcess both;
        both.start(program,
            { QStringLiteral("--root"), kRoot, QStringLiteral("--snapshot"), dir.filePath(QStringLiteral("s.json")) });
        QVERIFY(both.waitForFinished(60000));
        QCOMPARE(both.exitCode(), 2);
        QVERIFY(QString::fromUtf8(both.readAllStandardError()).contains(QStringLiteral("give one of them")));
    }
};

QTEST_MAIN(TestRecordedRoot)
#include "tst_recorded_root.moc"
