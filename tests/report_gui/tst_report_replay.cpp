// Opening a report: replay under the banner with "Run these probes here", the File menu, copy summary, bad reports
// refused with a message, and the Compare dialog.
#include "tests/report_gui/report_gui_fixtures.h"
#include "core/report/snapshot_diff.h"
#include "ui/report/redaction_list.h"
#include "ui/training/epoch_table_model.h"
#include "ui/training/training_page.h"
#include "ui/vpoc/session_model.h"

#include <QScrollBar>

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
        QVERIFY(stackscope::test::openReportAndWait(window.replay(), written.zip));
        QCOMPARE(opened.count(), 1);
        auto* banner = window.findChild<ReplayBanner*>();
        QVERIFY(banner && banner->isVisible());
        QVERIFY(banner->text().contains(QStringLiteral("Viewing a report from &lt;host&gt;")));
        QVERIFY(banner->text().contains(QStringLiteral("2026-11-21T19:00:00Z")));
        QVERIFY(banner->runHereButton()->isEnabled());
        // One line of bar by default (walkthrough-third problem 8); the path and the other pages under Details.
        auto* details = banner->findChild<QLabel*>(QStringLiteral("replayBannerDetails"));
        QVERIFY(details && !details->isVisible());
        QVERIFY2(banner->text().contains(QStringLiteral("Report ") + QFileInfo(written.zip).fileName().toHtmlEscaped())
                     || banner->text().contains(QStringLiteral("Report ") + written.zip.toHtmlEscaped()),
                 qPrintable(banner->text()));
        QVERIFY2(!banner->text().contains(QStringLiteral("Report Report")), qPrintable(banner->text()));
        QVERIFY2(banner->height() <= 3 * banner->fontMetrics().lineSpacing() + 16, qPrintable(QString::number(banner->height())));
        banner->detailsButton()->click();
        QVERIFY(details->isVisible());
        QCOMPARE(banner->detailsButton()->text(), QStringLiteral("Hide details"));
        banner->detailsButton()->click();
        QVERIFY(!details->isVisible());
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
        QVERIFY(drop.isAccepted());
        QVERIFY(window.replay()->isLoading());
        QTRY_VERIFY_WITH_TIMEOUT(window.replay()->isOpen() && !window.replay()->isLoading(), 60000);
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

    // A report with a VPOC and a training run fills those pages too (issue 35 item 7): the sessions with their levels,
    // the epochs in the table and charts, each page saying where they come from; the banner lists what was filled; the
    // System page's "Not this machine" line does not stack under the banner; every page is back at its top; closing
    // the report takes the runs off.
    void replayFillsRunPages_data()
    {
        QTest::addColumn<bool>("asFolder");
        QTest::newRow("zip") << false;
        QTest::newRow("folder") << true;
    }
    void replayFillsRunPages()
    {
        QFETCH(bool, asFolder);
        QTemporaryDir dir;
        const QString bars = dir.filePath(QStringLiteral("bars.csv")), vpoc = dir.filePath(QStringLiteral("vpoc.json"));
        const QString snapshot = dir.filePath(QStringLiteral("snapshot.json")), training = dir.filePath(QStringLiteral("model_metadata.json"));
        QCOMPARE(runCliToFile({QStringLiteral("sample-data"), QStringLiteral("--out"), bars}, dir.filePath(QStringLiteral("sample.log"))), QString());
        QCOMPARE(runCliToFile({QStringLiteral("vpoc"), QStringLiteral("--input"), bars, QStringLiteral("--json")}, vpoc), QString());
        {
            QFile f(snapshot);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(toJson(plantedSnapshot()).dump()));
        }
        {
            nlohmann::json m = {{"schema", "stackscope.training/1"}, {"status", "finished"}, {"best_epoch", 2},
                                {"best_val_loss", 1.1449}, {"devices", {"CPU"}}};
            m["epochs"] = nlohmann::json::array();
            for (int e = 1; e <= 3; ++e)
                m["epochs"].push_back({{"epoch", e}, {"train_loss", 1.0 - 0.01 * e}, {"val_loss", 1.15 - 0.002 * e},
                                       {"samples_per_s", 750000.0 + e}, {"seconds", 0.03}});
            QFile f(training);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(m.dump()));
        }
        const auto r = stackscope::test::runCli({QStringLiteral("report"), QStringLiteral("--out"), dir.filePath(QStringLiteral("out")),
                                                 QStringLiteral("--snapshot"), snapshot, QStringLiteral("--vpoc"), vpoc,
                                                 QStringLiteral("--training"), training, QStringLiteral("--no-archscan"),
                                                 QStringLiteral("--no-telemetry")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QString folder, zip;
        for (const QString& line : QString::fromUtf8(r.out).split(QLatin1Char('\n'))) {
            if (line.startsWith(QStringLiteral("folder: ")))
                folder = line.mid(8).trimmed();
            if (line.startsWith(QStringLiteral("zip: ")))
                zip = line.mid(5).trimmed();
        }
        QVERIFY2(!folder.isEmpty() && !zip.isEmpty(), r.out.constData());

        MainWindow window;
        window.resize(1024, 640);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.snapshots()->setSnapshot(std::make_shared<const Snapshot>(plantedSnapshot()), QStringLiteral("before.json"));
        auto* systemScroll = window.findChild<QScrollArea*>(QStringLiteral("SystemScroll"));
        QVERIFY(systemScroll);
        QTest::qWait(100);
        systemScroll->verticalScrollBar()->setValue(systemScroll->verticalScrollBar()->maximum());
        QVERIFY(stackscope::test::openReportAndWait(window.replay(), asFolder ? folder : zip));

        QVERIFY(window.vpocPage()->showsRecordedRun());
        QVERIFY(window.vpocPage()->sessionModel()->rowCount() >= 5);
        QVERIFY(window.vpocPage()->statusText().contains(QStringLiteral("from report")));
        QVERIFY(window.trainingPage()->showsRecordedRun());
        QCOMPARE(window.trainingPage()->epochModel()->rowCount(), 3);
        QVERIFY(window.trainingPage()->statusText().contains(QStringLiteral("best epoch 2")));
        auto* banner = window.findChild<ReplayBanner*>();
        QVERIFY(banner->text().contains(QStringLiteral("Training (3 epochs)")));
        QVERIFY2(banner->text().contains(QStringLiteral("VPOC (")), qPrintable(banner->text()));
        auto* notThisMachine = window.systemPage()->findChild<QWidget*>(QStringLiteral("snapshotBanner"));
        QVERIFY(notThisMachine && !notThisMachine->isVisible()); // one banner area
        QCOMPARE(systemScroll->verticalScrollBar()->value(), 0); // the verdict in view
        for (const QString& page : {QStringLiteral("VPOC"), QStringLiteral("Training")}) {
            QVERIFY(window.showPage(page));
            QTest::qWait(150);
            save(window, QStringLiteral("replay-%1-%2").arg(page.toLower(), asFolder ? QStringLiteral("folder") : QStringLiteral("zip")));
        }

        // Compare opens with A = the report and B = this machine.
        auto* compareAction = window.findChild<QAction*>(QStringLiteral("compareAction"));
        QVERIFY(compareAction);
        compareAction->trigger();
        auto* dialog = window.findChild<CompareDialog*>();
        QVERIFY(dialog);
        auto edits = dialog->findChildren<QLineEdit*>();
        QStringList texts;
        for (auto* e : edits)
            texts << e->text();
        QVERIFY2(texts.contains(asFolder ? QDir::cleanPath(folder) + QLatin1Char('/') : zip) || texts.contains(asFolder ? folder : zip),
                 qPrintable(texts.join(QStringLiteral(" | "))));
        QVERIFY(texts.contains(CompareDialog::thisMachineText()));
        dialog->close();

        // The Report page says why its Redacted box has nothing to replace: the report was redacted when written.
        window.reportPage()->refreshPreview();
        auto* redactions = window.reportPage()->redactionList();
        QVERIFY2(redactions->nothingNote().startsWith(QStringLiteral("Nothing more to redact: the report open here was "
                                                                     "redacted when it was written")),
                 qPrintable(redactions->nothingNote()));
        QVERIFY2(redactions->nothingNote().contains(QStringLiteral("host as <host>")), qPrintable(redactions->nothingNote()));

        window.replay()->close();
        QVERIFY(!redactions->nothingNote().contains(QStringLiteral("open here")));
        QVERIFY(!window.vpocPage()->showsRecordedRun());
        QVERIFY(!window.trainingPage()->showsRecordedRun());
        QCOMPARE(window.trainingPage()->epochModel()->rowCount(), 0);
        QCOMPARE(window.vpocPage()->sessionModel()->rowCount(), 0);
    }

    // A new export does not leave the previous one's folder under "Written to" while it runs.
    void writtenToClearsDuringExport()
    {
        QTemporaryDir dir;
        SnapshotController snapshots;
        snapshots.setSnapshot(std::make_shared<const Snapshot>(plantedSnapshot()), QStringLiteral("planted"));
        ProbesPage probes(&snapshots);
        ReportPage page(&snapshots, &probes);
        QVERIFY2(exportAndWait(page, dir.path()), qPrintable(page.statusText()));
        const QString first = page.writtenToText();
        QVERIFY(first.contains(page.lastResult().folder));
        QVERIFY(page.exportTo(dir.path()));
        QVERIFY2(page.writtenToText().startsWith(QStringLiteral("Writing a new report")), qPrintable(page.writtenToText()));
        QVERIFY(!page.writtenToText().contains(page.lastResult().folder));
        QSignalSpy done(&page, &ReportPage::exported);
        QVERIFY(done.wait(180000));
        QVERIFY(page.writtenToText().contains(page.lastResult().folder));
    }

    // Compare with a recorded machine: what it never loaded reads "not queried", not "(none)"; Tab goes A -> B.
    void compareNotQueriedAndTabOrder()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("h100.json"));
        QCOMPARE(runCliToFile({QStringLiteral("inspect"), QStringLiteral("--json"), QStringLiteral("--root"),
                               QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/ubuntu2404-h100"), QStringLiteral("--no-archscan")},
                              a),
                 QString());
        Snapshot here = plantedSnapshot(); // a machine inspected here: libraries loaded or not
        here.root.reset();
        CompareDialog dialog;
        QSignalSpy done(&dialog, &CompareDialog::compared); // both sides load in the background
        dialog.setFiles(a);
        dialog.setThisMachineAsB(std::make_shared<const Snapshot>(here));
        QVERIFY(done.wait(30000));
        QVERIFY2(dialog.model()->rowCount() > 0, qPrintable(dialog.statusText()));
        bool notQueried = false;
        for (const auto& r : dialog.model()->rows()) {
            if (r.area == "libraries") {
                QVERIFY2(r.a != stackscope::report::kNone, r.item.c_str());
                notQueried = notQueried || r.a == stackscope::report::kNotQueried;
            }
        }
        QVERIFY(notQueried);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto edits = dialog.findChildren<QLineEdit*>();
        QLineEdit* fieldA = nullptr;
        for (auto* e : edits)
            if (e->text() == a)
                fieldA = e;
        QVERIFY(fieldA);
        fieldA->setFocus();
        QTest::keyClick(fieldA, Qt::Key_Tab);
        auto* focused = qobject_cast<QLineEdit*>(QApplication::focusWidget());
        QVERIFY(focused);
        QCOMPARE(focused->text(), CompareDialog::thisMachineText());
        save(dialog, QStringLiteral("compare-not-queried"));
    }

    void fileMenu()
    {
        MainWindow window;
        QStringList texts;
        for (auto* a : window.findChildren<QAction*>())
            texts << a->text();
        for (const char* t : {"Open &report…", "Open report &folder…", "&Export support report…", "&Compare…",
                              "&Documentation", "Re&sume training"})
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
        QVERIFY(!stackscope::test::openReportAndWait(&replay, f.fileName()));
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
        QSignalSpy done(&dialog, &CompareDialog::compared); // both sides load in the background
        dialog.setFiles(a, b);
        QVERIFY(done.wait(30000));
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
        QVERIFY(done.wait(30000));
        QCOMPARE(dialog.model()->rowCount(), 0);
        QVERIFY(dialog.statusText().contains(QStringLiteral("Same")));

        dialog.setFiles(a, dir.filePath(QStringLiteral("missing.json")));
        QVERIFY(done.wait(30000));
        QCOMPARE(dialog.model()->rowCount(), 0);
        QVERIFY(dialog.statusText().contains(QStringLiteral("missing.json")));
        QCOMPARE(dialog.statusText().count(QStringLiteral("missing.json")), 1); // the path once, not twice
    }
};

QTEST_MAIN(TestReportReplay)
#include "tst_report_replay.moc"
