// Opening a report: replay under the banner with "Run these probes here", the File menu, copy summary, bad reports
// refused with a message, and the Compare dialog.
#include "tests/report_gui/report_gui_fixtures.h"

class TestReportReplay : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Open a report: the banner, the report's machine on the System page, its probe grid with findings
    // recomputed; "Run these probes here" runs the same probes on this machine beside the report's.
    void replay()
    {
        QTemporaryDir dir;
        ReportResult written;
        {
            SnapshotController snapshots;
            snapshots.setSnapshot(std::make_shared<const Snapshot>(plantedSnapshot()), QStringLiteral("planted"));
            ProbesPage probes(&snapshots);
            probes.showRecords(plantedRecords(), QStringLiteral("planted"));
            ReportPage page(&snapshots, &probes);
            QVERIFY2(exportAndWait(page, dir.path()), qPrintable(page.statusText()));
            written = page.lastResult();
        }
        MainWindow window;
        window.resize(1280, 820);
        window.show();
        QSignalSpy opened(window.replay(), &ReportReplay::opened);
        QVERIFY(window.replay()->open(written.zip));
        QCOMPARE(opened.count(), 1);
        auto* banner = window.findChild<ReplayBanner*>();
        QVERIFY(banner && banner->isVisible());
        QVERIFY(banner->text().contains(QStringLiteral("Viewing a report from &lt;host&gt;")));
        QVERIFY(banner->text().contains(QStringLiteral("2026-11-21T19:00:00Z")));
        QVERIFY(banner->runHereButton()->isEnabled());
        QCOMPARE(window.snapshots()->snapshot()->gpus.size(), std::size_t(1));
        QVERIFY(window.probesPage()->gridModel()->records().size() == plantedRecords().size());
        // Findings recomputed here: the snapshot's own finding from the old version is gone,
        // this version's system checks ran on the report's facts.
        for (const auto& f : window.snapshots()->snapshot()->findings)
            QVERIFY(f.title.find("did not load from") == std::string::npos);
        QVERIFY(window.statusText().contains(QStringLiteral("report")));
        save(window, QStringLiteral("replay-system"));
        QVERIFY(window.showPage(QStringLiteral("Probes")));
        save(window, QStringLiteral("replay-probes"));

        // Run the report's CPU probes here (the GPU cells have no device here; they stay the report's).
        auto options = window.replay()->runHereOptions();
        QCOMPARE(options.probeIds.size(), std::size_t(4));
        QCOMPARE(options.variants.size(), std::size_t(1));
        QSignalSpy ran(window.replay(), &ReportReplay::runHereFinished);
        window.replay()->runHere();
        QVERIFY(ran.wait(240000));
        auto* side = window.replay()->sideBySide();
        QVERIFY(side && side->isVisible());
        QVERIFY(side->hereModel()->records().size() >= 4);
        QCOMPARE(side->reportModel()->records().size(), plantedRecords().size());
        QAbstractItemModelTester tester(side->hereModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        save(*side, QStringLiteral("replay-side-by-side"));

        // Close: back to this machine.
        QSignalSpy closed(window.replay(), &ReportReplay::closed);
        window.replay()->close();
        QCOMPARE(closed.count(), 1);
        QVERIFY(!banner->isVisible());
        QVERIFY(!window.replay()->isOpen());

        // Drag and drop of the report folder onto the window opens it again.
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(written.folder)});
        QDragEnterEvent enter(QPoint(400, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(400, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY(window.replay()->isOpen());
        QVERIFY(banner->isVisible());
        QCOMPARE(opened.count(), 2);
        // Showing another snapshot (Refresh, Open snapshot) ends the replay and its banner.
        window.snapshots()->setSnapshot(std::make_shared<const Snapshot>(plantedSnapshot()), QStringLiteral("elsewhere.json"));
        QVERIFY(!window.replay()->isOpen());
        QVERIFY(!banner->isVisible());
        QCOMPARE(closed.count(), 2);
        // A folder that is not a report is not accepted (a single regular file is: it opens as a pasted log).
        QTemporaryDir notAReport;
        QVERIFY(notAReport.isValid());
        QMimeData other;
        other.setUrls({QUrl::fromLocalFile(notAReport.path())});
        QDragEnterEvent refuse(QPoint(400, 300), Qt::CopyAction, &other, Qt::LeftButton, Qt::NoModifier);
        refuse.setAccepted(false);
        QApplication::sendEvent(&window, &refuse);
        QVERIFY(!refuse.isAccepted());
    }


    void fileMenu()
    {
        MainWindow window;
        QStringList texts;
        for (auto* a : window.findChildren<QAction*>())
            texts << a->text();
        for (const char* t : {"Open &report…", "&Export support report…", "&Compare…"})
            QVERIFY2(texts.contains(QString::fromUtf8(t)), t);
        QVERIFY(window.showPage(QStringLiteral("Report")));
    }

    void copySummary()
    {
        SnapshotController snapshots;
        snapshots.setSnapshot(std::make_shared<const Snapshot>(plantedSnapshot()), QStringLiteral("planted"));
        ProbesPage probes(&snapshots);
        probes.showRecords(plantedRecords(), QStringLiteral("planted"));
        ReportPage page(&snapshots, &probes);
        page.copySummary();
        const QString md = QGuiApplication::clipboard()->text();
        QVERIFY2(md.contains(QStringLiteral("StackScope support report")), qPrintable(md.left(200)));
        QVERIFY(md.contains(QStringLiteral("matmul_fp32")));
        QVERIFY2(plantedIn(md).isEmpty(), qPrintable(plantedIn(md).join(QStringLiteral(", "))));
        page.setRedactionEnabled(false);
        page.copySummary();
        QVERIFY(!plantedIn(QGuiApplication::clipboard()->text()).isEmpty());
    }

    void openBadReport_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("name");
        QTest::newRow("truncated") << QByteArray(R"({"schema":"stackscope.report/1","snapshot":{)") << QStringLiteral("report.json");
        QTest::newRow("deep") << QByteArray(5000, '[') << QStringLiteral("report.json");
        QTest::newRow("not a zip") << QByteArray("PK\x03\x04garbage") << QStringLiteral("bad.zip");
        QTest::newRow("wrong type") << QByteArray(R"({"schema":"stackscope.report/1","snapshot":{"gpus":"many"}})")
                                    << QStringLiteral("report.json");
    }
    void openBadReport()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, name);
        QTemporaryDir dir;
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        SnapshotController snapshots;
        ProbesPage probes(&snapshots);
        ReplayBanner banner;
        ReportReplay replay(&snapshots, &probes, &banner);
        QSignalSpy errors(&replay, &ReportReplay::errorOccurred);
        QVERIFY(!replay.open(f.fileName()));
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.at(0).at(0).toString().contains(f.fileName()));
        QVERIFY(!replay.isOpen());
        QVERIFY(banner.isHidden());
        QVERIFY(!snapshots.snapshot());
    }

    // The two recorded roots differ in what matters; a file compared with itself does not.
    void compare()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("h100.json")), b = dir.filePath(QStringLiteral("nogpu.json"));
        const QString roots = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/");
        QCOMPARE(runCliToFile({QStringLiteral("inspect"), QStringLiteral("--json"), QStringLiteral("--root"),
                               roots + QStringLiteral("ubuntu2404-h100"), QStringLiteral("--no-archscan")},
                              a),
                 QString());
        QCOMPARE(runCliToFile({QStringLiteral("inspect"), QStringLiteral("--json"), QStringLiteral("--root"),
                               roots + QStringLiteral("debian12-nogpu"), QStringLiteral("--no-archscan")},
                              b),
                 QString());
        CompareDialog dialog;
        QAbstractItemModelTester tester(dialog.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        dialog.setFiles(a, b);
        const int all = dialog.model()->rowCount();
        QVERIFY2(all > 3, qPrintable(dialog.statusText()));
        QCOMPARE(dialog.proxy()->rowCount(), all);
        bool gpuRow = false;
        for (const auto& r : dialog.model()->rows())
            gpuRow = gpuRow || r.area == "gpus";
        QVERIFY(gpuRow);
        dialog.setArea(QStringLiteral("gpus"));
        QVERIFY(dialog.proxy()->rowCount() > 0 && dialog.proxy()->rowCount() < all);
        dialog.setArea(QString());
        dialog.setFilterText(QStringLiteral("H100"));
        QVERIFY(dialog.proxy()->rowCount() >= 1 && dialog.proxy()->rowCount() < all);
        dialog.setFilterText(QString());
        dialog.show();
        save(dialog, QStringLiteral("compare"));

        dialog.setFiles(a, a);
        QCOMPARE(dialog.model()->rowCount(), 0);
        QVERIFY(dialog.statusText().contains(QStringLiteral("Same")));

        dialog.setFiles(a, dir.filePath(QStringLiteral("missing.json")));
        QCOMPARE(dialog.model()->rowCount(), 0);
        QVERIFY(dialog.statusText().contains(QStringLiteral("missing.json")));
        QCOMPARE(dialog.statusText().count(QStringLiteral("missing.json")), 1); // the path once, not twice
    }
};

QTEST_MAIN(TestReportReplay)
#include "tst_report_replay.moc"
