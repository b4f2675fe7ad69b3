// The support report's export: redaction on planted data through every file, the zip and the grabbed pages' texts,
// the export off the GUI thread, the summary card, `stackscope --report`, the VPOC and training runs in the report.
#include "core/inspect/inspector.h"
#include "tests/report_gui/report_gui_fixtures.h"

class TestReportGui : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void probeDocumentRoundTrip()
    {
        const auto records = plantedRecords();
        const auto doc = probeDocument(records);
        QCOMPARE(doc["results"].size(), records.size());
        QCOMPARE(doc["failures"].get<int>(), 2);
        const auto back = probeRecordsFromDocument(doc);
        QCOMPARE(back.size(), records.size());
        QCOMPARE(back[2].outcome.message, records[2].outcome.message);
        QCOMPARE(back[3].outcome.outcome, ProbeResult::Crash);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, probeRecordsFromDocument(nlohmann::json {{"results", 3}}));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 probeRecordsFromDocument(nlohmann::json::parse(R"({"results":[{"probe":"x"}]})")));
    }

    // Placeholders inserted into a rich-text label must be drawn, not parsed as tags; tags stay untouched.
    void richTextScrub_data()
    {
        QTest::addColumn<QString>("html");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain run") << QStringLiteral("User zorg in groups") << QStringLiteral("User &lt;user&gt; in groups");
        QTest::newRow("inside tags") << QStringLiteral("<b>zorg</b>: <i>absent</i>")
                                     << QStringLiteral("<b>&lt;user&gt;</b>: <i>absent</i>");
        QTest::newRow("already escaped placeholder kept") << QStringLiteral("<code>HOME=/home/&lt;user&gt;</code>")
                                                          << QStringLiteral("<code>HOME=/home/&lt;user&gt;</code>");
        QTest::newRow("entity around name") << QStringLiteral("a &amp; zorg") << QStringLiteral("a &amp; &lt;user&gt;");
        QTest::newRow("tag attribute left alone") << QStringLiteral("<span style='color:#c62828'>ok</span>")
                                                  << QStringLiteral("<span style='color:#c62828'>ok</span>");
    }
    void richTextScrub()
    {
        QFETCH(QString, html);
        QFETCH(QString, expected);
        const auto redact = [](const QString& t) { return QString(t).replace(QStringLiteral("zorg"), QStringLiteral("<user>")); };
        QCOMPARE(redactRichText(html, redact), expected);
    }

    void summaryCardData_data()
    {
        QTest::addColumn<bool>("withProbes");
        QTest::addColumn<bool>("redact");
        QTest::newRow("probes, redacted") << true << true;
        QTest::newRow("no probes, redacted") << false << true;
        QTest::newRow("probes, not redacted") << true << false;
    }
    void summaryCardData()
    {
        QFETCH(bool, withProbes);
        QFETCH(bool, redact);
        ReportRequest r;
        r.snapshot = std::make_shared<const Snapshot>(plantedSnapshot());
        if (withProbes)
            r.probes = plantedRecords();
        r.redact = redact;
        const auto doc = ReportExporter::buildDocument(r);
        const auto d = ui::summaryCardData(report::reportSummary(doc));
        QCOMPARE(d.gpus.size(), std::size_t(1));
        QCOMPARE(d.gpus[0].arch, QStringLiteral("sm_90"));
        QCOMPARE(d.probesRun, withProbes);
        if (withProbes) {
            QCOMPARE(d.probeCounts[0], 3); // ok
            QCOMPARE(d.probeCounts[1], 1); // error
            QCOMPARE(d.probeCounts[2], 1); // crash
        } else {
            QVERIFY(!d.probesNote.isEmpty());
        }
        QVERIFY(!d.findings.empty());
        QCOMPARE(d.redacted, redact);
        QCOMPARE(d.host.startsWith(QStringLiteral("<host>")), redact);
        SummaryCard card;
        card.setData(d);
        const QString texts = widgetTexts(&card).join(QLatin1Char('\n'));
        QCOMPARE(plantedIn(texts).isEmpty(), redact);
        QVERIFY(texts.contains(QStringLiteral("NVIDIA H100 80GB HBM3")));
        QVERIFY(texts.contains(QStringLiteral("2.11.0+cu130")));
        const QImage image = card.render();
        QCOMPARE(image.width(), SummaryCard::kWidth * image.devicePixelRatio());
        QVERIFY(image.height() > 250);
        const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('_')).remove(QLatin1Char(','));
        QVERIFY(image.save(screenshotDir() + QStringLiteral("/summary-card-") + tag + QStringLiteral(".png")));
    }

    // The card's findings: the report's and its snapshot's, one Finding type, the most severe first; a diagnosis
    // finding written before issue 19 ("rule") reads the same; one with no title shows its id.
    void summaryCardFindings_data()
    {
        QTest::addColumn<QByteArray>("findings");
        QTest::addColumn<QString>("first");
        QTest::newRow("today's keys") << QByteArray(R"([{"id": "GPU_HANG", "severity": "error", "title": "The GPU hung"}])")
                                      << "The GPU hung";
        QTest::newRow("before issue 19") << QByteArray(R"([{"rule": "GPU_HANG", "severity": "error", "title": "The GPU hung", "cause": "c"}])")
                                         << "The GPU hung";
        QTest::newRow("no title") << QByteArray(R"([{"id": "GPU_HANG", "severity": "error"}])") << "GPU_HANG";
    }
    void summaryCardFindings()
    {
        QFETCH(QByteArray, findings);
        QFETCH(QString, first);
        ReportRequest r;
        r.snapshot = std::make_shared<const Snapshot>(plantedSnapshot());
        r.redact = false;
        auto doc = ReportExporter::buildDocument(r);
        doc["findings"] = nlohmann::json::parse(findings.toStdString());
        const auto d = ui::summaryCardData(report::reportSummary(doc));
        QVERIFY(!d.findings.empty());
        QCOMPARE(d.findings[0].text, first);
        QCOMPARE(d.findings[0].severity, Severity::Error);
        const std::size_t all = 1 + doc["snapshot"]["findings"].size();
        QCOMPARE(d.findings.size() + std::size_t(d.moreFindings), all);
    }

    // The card's three states (issue 35): what could not be checked reads UNKNOWN with why, never "No rule matched";
    // the checks the report's findings already hold are not counted twice.
    void summaryCardNotChecked()
    {
        InspectOptions o;
        o.root = STACKSCOPE_TEST_FIXTURES "/roots/kfd-only-2x7900xt";
        ReportRequest r;
        r.snapshot = std::make_shared<const Snapshot>(inspectMachine(o));
        r.redact = false;
        const auto doc = ReportExporter::buildDocument(r);
        QCOMPARE(doc["verdict"].get<std::string>(), std::string("unknown"));
        const auto d = ui::summaryCardData(report::reportSummary(doc));
        QCOMPARE(int(d.notChecked.size()), int(doc["not_checked"].size()));
        QVERIFY(!d.notChecked.empty());
        QVERIFY2(d.notChecked[0].contains(QStringLiteral("whether this user can open /dev/kfd")), qPrintable(d.notChecked[0]));
        QCOMPARE(d.findings.size() + std::size_t(d.moreFindings), doc["findings"].size());
        ui::SummaryCard card;
        card.setData(d);
        QStringList texts;
        for (auto* label : card.findChildren<QLabel*>())
            texts << label->text();
        QVERIFY2(texts.contains(QStringLiteral("UNKNOWN")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(!texts.join(QLatin1Char('|')).contains(QStringLiteral("No rule matched")));
        // A recorded machine's torch was not queried: unknown, not "not loaded" (walkthrough 2026-11-27).
        QString torch;
        for (const auto& [label, value] : d.stack)
            if (label == QStringLiteral("PyTorch"))
                torch = value;
        QCOMPARE(torch, QStringLiteral("not queried (recorded machine)"));
    }

    // What redaction cannot be sure of (a 3-letter host name, a user named like a common word) is shown on
    // the page before the export, and the exported report.json and report.html carry it (issue 21).
    void redactionUncertain()
    {
        Snapshot s = plantedSnapshot();
        s.host.hostname = "ws7";
        s.access.user = "gpu";
        SnapshotController snapshots;
        snapshots.setSnapshot(std::make_shared<const Snapshot>(s), QStringLiteral("planted"));
        ProbesPage probes(&snapshots);
        ReportPage page(&snapshots, &probes);
        page.setRedactionEnabled(true);
        page.refreshPreview();
        const auto* note = page.findChild<QLabel*>(QStringLiteral("redactionUncertain"));
        QVERIFY2(note, "the Report page has no place for what redaction is not sure of");
        QVERIFY(note->isVisibleTo(&page));
        QVERIFY2(note->text().contains(QStringLiteral("host name of only 3 characters")), qPrintable(note->text()));
        QVERIFY2(note->text().contains(QStringLiteral("user name that is a common word")), qPrintable(note->text()));

        QTemporaryDir dir;
        QVERIFY2(exportAndWait(page, dir.path()), qPrintable(page.statusText()));
        const auto& result = page.lastResult();
        QFile json(result.folder + QStringLiteral("/report.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const auto doc = nlohmann::json::parse(json.readAll().toStdString());
        QStringList written;
        for (const auto& u : doc.at("redaction").at("uncertain"))
            written << QString::fromStdString(u.get<std::string>());
        QVERIFY2(written.join(QLatin1Char('|')).contains(QStringLiteral("host name of only 3 characters")),
                 qPrintable(written.join(QLatin1Char('|'))));
        QCOMPARE(int(result.uncertain.size()), written.size());
        QFile html(result.folder + QStringLiteral("/report.html"));
        QVERIFY(html.open(QIODevice::ReadOnly));
        QVERIFY(html.readAll().contains("not certain: a host name of only 3 characters"));
        QVERIFY(note->isVisibleTo(&page)); // still shown after the export

        page.setRedactionEnabled(false); // nothing is redacted, so nothing is uncertain
        QVERIFY(!note->isVisibleTo(&page));
    }

    // The export with redaction on or off: every file of the folder, every entry of the zip, and the
    // text of every widget at the moment it was grabbed (there is no OCR here: the grabbed widgets'
    // QLabel/QLineEdit/QTextEdit/button texts and item models' data are what the pixels show).
    void exportRedaction_data()
    {
        QTest::addColumn<bool>("redact");
        QTest::newRow("redacted") << true;
        QTest::newRow("not redacted") << false;
    }
    void exportRedaction()
    {
        QFETCH(bool, redact);
        SnapshotController snapshots;
        snapshots.setSnapshot(std::make_shared<const Snapshot>(plantedSnapshot()), QStringLiteral("planted"));
        ProbesPage probes(&snapshots);
        probes.showRecords(plantedRecords(), QStringLiteral("planted"));
        // A live page whose field and label hold a home path, as the VPOC page's input file does.
        QWidget live;
        auto* field = new QLineEdit(QStringLiteral("/home/zorgblatt/data/es-1m.csv"), &live);
        field->resize(400, 30);
        auto* label = new QLabel(QStringLiteral("Results for /home/zorgblatt/data/es-1m.csv"), &live);
        label->setGeometry(0, 40, 400, 30);
        QSignalSpy fieldChanged(field, &QLineEdit::textChanged);
        ReportPage page(&snapshots, &probes);
        page.addLivePage(QStringLiteral("VPOC"), &live);
        page.setRedactionEnabled(redact);
        // The page keeps the app's recent messages for logs/recent.log (redacted like the rest).
        qWarning("planted log line: cache at /home/zorgblatt/.cache, peer 10.23.45.67");

        QStringList grabbed;
        QStringList grabbedLeaks;
        QString liveDrawn;
        page.exporter().setGrabObserver([&](const QString& name, const QStringList& drawnTexts) {
            grabbed << name;
            const auto leaks = plantedIn(drawnTexts.join(QLatin1Char('\n')));
            if (!leaks.isEmpty())
                grabbedLeaks << name + QStringLiteral(": ") + leaks.join(QStringLiteral(", "));
            if (name == QStringLiteral("vpoc"))
                liveDrawn = drawnTexts.join(QLatin1Char('\n'));
        });
        QTemporaryDir dir;
        QSignalSpy exported(&page, &ReportPage::exported);
        QVERIFY(page.exportTo(dir.path()));
        QVERIFY(page.isExporting()); // in the background: exportTo returned before the report was written
        QVERIFY(exported.wait(180000));
        QCOMPARE(exported.count(), 1);
        const auto& result = page.lastResult();
        QVERIFY(QFileInfo(result.folder).isDir());
        QVERIFY(QFileInfo(result.zip).isFile());
        QVERIFY(QFileInfo(result.folder).fileName().startsWith(QStringLiteral("stackscope-report-")));
        QCOMPARE(grabbed, (QStringList {QStringLiteral("system"), QStringLiteral("probes"), QStringLiteral("vpoc"),
                                        QStringLiteral("summary-card")}));
        // The live page's widgets were never written to (their redacted texts are drawn by stand-ins).
        QCOMPARE(field->text(), QStringLiteral("/home/zorgblatt/data/es-1m.csv"));
        QCOMPARE(label->text(), QStringLiteral("Results for /home/zorgblatt/data/es-1m.csv"));
        QCOMPARE(fieldChanged.count(), 0);
        // ...and the screenshot shows the field and label, redacted or not.
        QCOMPARE(liveDrawn.count(QStringLiteral("es-1m.csv")), 2);
        for (const char* shot : {"system.png", "probes.png", "vpoc.png", "summary-card.png"}) {
            const QImage image(result.folder + QStringLiteral("/screenshots/") + QLatin1String(shot));
            QVERIFY2(image.width() >= 100 && image.height() >= 100, shot);
        }
        {
            // report.json on disk is the report the page got back.
            QFile json(result.folder + QStringLiteral("/report.json"));
            QVERIFY(json.open(QIODevice::ReadOnly));
            QCOMPARE(nlohmann::json::parse(json.readAll().toStdString()), result.report);
        }

        QStringList fileLeaks;
        int files = 0;
        QDirIterator it(result.folder, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            ++files;
            const auto leaks = plantedIn(QString::fromUtf8(f.readAll()));
            if (!leaks.isEmpty())
                fileLeaks << QFileInfo(path).fileName() + QStringLiteral(": ") + leaks.join(QStringLiteral(", "));
        }
        QVERIFY(files >= 7);
        {
            QFile log(result.folder + QStringLiteral("/logs/recent.log"));
            QVERIFY(log.open(QIODevice::ReadOnly));
            QVERIFY(log.readAll().contains("planted log line: cache at"));
        }
        const auto entries = zipEntries(result.zip);
        QCOMPARE(int(entries.size()), files);
        const QString folderName = QFileInfo(result.folder).fileName();
        for (const char* name : {"report.json", "report.md", "report.html", "screenshots/vpoc.png", "logs/recent.log"})
            QVERIFY2(entries.count(folderName + QLatin1Char('/') + QLatin1String(name)), name);
        QStringList zipLeaks;
        for (const auto& [name, bytes] : entries) {
            const auto leaks = plantedIn(QString::fromUtf8(bytes));
            if (!leaks.isEmpty())
                zipLeaks << name + QStringLiteral(": ") + leaks.join(QStringLiteral(", "));
        }

        if (redact) {
            QVERIFY2(grabbedLeaks.isEmpty(), qPrintable(grabbedLeaks.join(QStringLiteral("; "))));
            QVERIFY2(fileLeaks.isEmpty(), qPrintable(fileLeaks.join(QStringLiteral("; "))));
            QVERIFY2(zipLeaks.isEmpty(), qPrintable(zipLeaks.join(QStringLiteral("; "))));
            // The report lists what it replaced, and the page shows the list.
            QVERIFY(!result.redacted.empty());
            std::set<std::string> kinds;
            for (const auto& e : result.redacted)
                kinds.insert(e.kind);
            // (/home/NAME of another user becomes /home/<user>: "home" is only this process's own $HOME.)
            for (const char* kind : {"user", "host", "ip", "mac", "gpu-uuid"})
                QVERIFY2(kinds.count(kind), kind);
            const auto* table = page.findChild<QTableWidget*>(QStringLiteral("redactions"));
            QVERIFY(table);
            QCOMPARE(table->rowCount(), int(result.redacted.size()));
            QVERIFY(result.report["redaction"]["enabled"].get<bool>());
        } else {
            // Redaction off keeps what the user chose to share.
            QVERIFY(!fileLeaks.isEmpty());
            QVERIFY(!zipLeaks.isEmpty());
            QVERIFY(!result.report["redaction"]["enabled"].get<bool>());
        }
        // The written report loads back (folder and zip) with the same snapshot facts.
        const auto fromZip = report::loadReport(result.zip.toStdString());
        const auto fromFolder = report::loadReport(result.folder.toStdString());
        QCOMPARE(fromZip.snapshot.gpus.size(), std::size_t(1));
        QCOMPARE(fromFolder.snapshot.torch.version, fromZip.snapshot.torch.version);
        QCOMPARE(QString::fromStdString(fromZip.snapshot.host.hostname.value_or("")),
                 redact ? QStringLiteral("<host>") : QStringLiteral("quuxhost-7731"));

        if (redact) {
            page.resize(1130, 780);
            page.show();
            save(page, QStringLiteral("report-page"));
            page.hide();
            // The card exactly as written into the report.
            QFile::remove(screenshotDir() + QStringLiteral("/summary-card.png"));
            QVERIFY(QFile::copy(result.folder + QStringLiteral("/screenshots/summary-card.png"),
                                screenshotDir() + QStringLiteral("/summary-card.png")));
            for (const char* shot : {"system.png", "probes.png"}) {
                QFile::remove(screenshotDir() + QStringLiteral("/export-") + QLatin1String(shot));
                QVERIFY(QFile::copy(result.folder + QStringLiteral("/screenshots/") + QLatin1String(shot),
                                    screenshotDir() + QStringLiteral("/export-") + QLatin1String(shot)));
            }
        }
    }

    void exportWithoutSnapshotSaysWhatToDo()
    {
        SnapshotController snapshots;
        ReportPage page(&snapshots, nullptr);
        QSignalSpy errors(&page, &ReportPage::errorOccurred);
        QTemporaryDir dir;
        QVERIFY(!exportAndWait(page, dir.path()));
        QCOMPARE(errors.count(), 1);
        QVERIFY(page.statusText().contains(QStringLiteral("wait for the System page")));
        QVERIFY(QDir(dir.path()).isEmpty());
    }

    // While an export runs (in the background) the Export button and the window's action are off; after it,
    // written or not, they are on again; a folder that cannot be made says which path failed.
    void exportActionOffWhileRunning_data()
    {
        QTest::addColumn<bool>("writable");
        QTest::newRow("written") << true;
        QTest::newRow("folder under a file") << false;
    }
    void exportActionOffWhileRunning()
    {
        QFETCH(bool, writable);
        MainWindow window; // not shown: an error goes to the status bar, not to a modal box
        window.snapshots()->setSnapshot(std::make_shared<const Snapshot>(plantedSnapshot()), QStringLiteral("planted"));
        auto* page = window.reportPage();
        auto* action = window.findChild<QAction*>(QStringLiteral("exportAction"));
        auto* button = page->findChild<QPushButton*>(QStringLiteral("exportButton"));
        QVERIFY(action && button);
        QVERIFY(action->isEnabled() && button->isEnabled());
        QTemporaryDir dir;
        QFile blocker(dir.filePath(QStringLiteral("not-a-folder")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const QString target = writable ? dir.path() : blocker.fileName() + QStringLiteral("/reports");
        QSignalSpy exported(page, &ReportPage::exported);
        QSignalSpy failed(page, &ReportPage::errorOccurred);
        QVERIFY(page->exportTo(target));
        QVERIFY(!action->isEnabled());
        QVERIFY(!button->isEnabled());
        QVERIFY(!page->exportTo(target)); // one at a time
        QTRY_VERIFY_WITH_TIMEOUT(!exported.isEmpty() || !failed.isEmpty(), 180000);
        QVERIFY(action->isEnabled());
        QVERIFY(button->isEnabled());
        QCOMPARE(exported.count(), writable ? 1 : 0);
        QCOMPARE(failed.count(), writable ? 0 : 1);
        if (!writable) {
            QVERIFY2(page->statusText().contains(target), qPrintable(page->statusText()));
            QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("not-a-folder")), qPrintable(page->statusText()));
            QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList {QStringLiteral("not-a-folder")});
        }
    }

    // renderRedacted draws what QWidget::grab draws when nothing is private, and draws redacted stand-ins where
    // something is, without writing to the widgets.
    void renderRedactedLikeGrab_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("labels and fields") << QStringLiteral("labels and fields");
        QTest::newRow("group box") << QStringLiteral("group box");
        QTest::newRow("scroll area") << QStringLiteral("scroll area");
    }
    void renderRedactedLikeGrab()
    {
        QFETCH(QString, kind);
        const auto page = testPage(kind);
        page->setAttribute(Qt::WA_DontShowOnScreen);
        page->show();
        QTest::qWait(50);
        const QStringList before = widgetTexts(page.get());
        const QImage grabbed = page->grab().toImage().convertToFormat(QImage::Format_ARGB32_Premultiplied);
        const auto same = renderRedacted(page.get(), [](const QString& t) { return t; });
        QCOMPARE(same.image.convertToFormat(QImage::Format_ARGB32_Premultiplied), grabbed);

        const auto redact = [](const QString& t) {
            QString out = t;
            for (const auto& p : kPlanted)
                out.replace(p, QStringLiteral("<gone>"));
            return out;
        };
        const auto redacted = renderRedacted(page.get(), redact);
        const QString drawn = redacted.drawnTexts.join(QLatin1Char('\n'));
        QVERIFY2(plantedIn(drawn).isEmpty(), qPrintable(drawn));
        QVERIFY2(drawn.contains(QStringLiteral("<gone>")), qPrintable(drawn));
        QVERIFY(redacted.image != grabbed);
        QCOMPARE(redacted.image.size(), grabbed.size());
        QCOMPARE(widgetTexts(page.get()), before);
        QVERIFY(redacted.image.save(screenshotDir() + QStringLiteral("/render-redacted-") + kind.replace(QLatin1Char(' '), QLatin1Char('-')) + QStringLiteral(".png")));
    }

    // `stackscope --snapshot planted.json --report DIR`, offscreen: folder and zip printed, exit 0.
    void guiReportOption()
    {
        const QString program = qEnvironmentVariable("STACKSCOPE_GUI_PROGRAM");
        if (program.isEmpty())
            QSKIP("STACKSCOPE_GUI_PROGRAM is not set (run through CTest)");
        QTemporaryDir dir;
        const QString snap = dir.filePath(QStringLiteral("planted.json"));
        saveSnapshotFile(plantedSnapshot(), snap.toStdString());
        const QString out = dir.filePath(QStringLiteral("out"));
        QDir().mkpath(out);
        QProcess p;
        p.start(program, {QStringLiteral("--snapshot"), snap, QStringLiteral("--report"), out});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QStringList lines = QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY(QFileInfo(lines[0]).isDir());
        QVERIFY(lines[1].endsWith(QStringLiteral(".zip")) && QFileInfo(lines[1]).isFile());
        for (const char* shot : {"system.png", "probes.png", "vpoc.png", "summary-card.png"})
            QVERIFY2(QFileInfo::exists(lines[0] + QStringLiteral("/screenshots/") + QLatin1String(shot)), shot);
        QDirIterator it(lines[0], QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            const auto leaks = plantedIn(QString::fromUtf8(f.readAll()));
            QVERIFY2(leaks.isEmpty(), qPrintable(f.fileName() + QStringLiteral(": ") + leaks.join(QStringLiteral(", "))));
        }

        // A folder that cannot be written: exit 2 with the reason.
        QProcess bad;
        bad.start(program, {QStringLiteral("--snapshot"), snap, QStringLiteral("--report"), QStringLiteral("/proc/no-such-dir")});
        QVERIFY(bad.waitForFinished(120000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(!bad.readAllStandardError().isEmpty());
    }

    // The VPOC page's last run goes into the report, and the page is grabbed from behind the window's stack.
    void vpocRunInReport()
    {
        MainWindow window;
        window.resize(1280, 820);
        window.show();
        window.snapshots()->setSnapshot(std::make_shared<const Snapshot>(plantedSnapshot()), QStringLiteral("planted"));
        VpocPage* vpoc = window.vpocPage();
        QVERIFY(!vpoc->useSampleData().isEmpty());
        QSignalSpy computed(vpoc, &VpocPage::finished);
        vpoc->run();
        QVERIFY(computed.wait(60000));
        QVERIFY(window.showPage(QStringLiteral("Report")));
        const auto request = window.reportPage()->request();
        QVERIFY(request.vpocRun.is_object());
        QTemporaryDir dir;
        QVERIFY2(exportAndWait(*window.reportPage(), dir.path()), qPrintable(window.reportPage()->statusText()));
        const auto& doc = window.reportPage()->lastResult().report;
        QVERIFY2(doc["vpoc"].is_object() && doc["vpoc"].value("session_count", 0) >= 20, doc["vpoc"].dump().substr(0, 300).c_str());
        QVERIFY(QFileInfo::exists(window.reportPage()->lastResult().folder + QStringLiteral("/screenshots/training.png")));
        const QImage shot(window.reportPage()->lastResult().folder + QStringLiteral("/screenshots/vpoc.png"));
        // The page is grabbed at the size it has in the window (1280x820 less the page list, margins and the
        // status bar: 827x588 since pages scroll); smaller would mean the grab lost the page's layout.
        QVERIFY2(shot.width() >= 800 && shot.height() >= 550, qPrintable(QStringLiteral("%1x%2").arg(shot.width()).arg(shot.height())));
        // The Training page was never opened in this window: it is drawn at the size of the page in view, not at its
        // scroll area's first size (it drew 814x538 with a sideways scroll bar in a 1280x720 window before).
        const QImage training(window.reportPage()->lastResult().folder + QStringLiteral("/screenshots/training.png"));
        QCOMPARE(training.size(), shot.size());
        QFile::remove(screenshotDir() + QStringLiteral("/export-vpoc.png"));
        QVERIFY(shot.save(screenshotDir() + QStringLiteral("/export-vpoc.png")));
        // The preview card was rebuilt while shown: its new labels must be visible, not a collapsed strip.
        auto* card = window.reportPage()->summaryCard();
        QVERIFY(card->height() > 250);
        for (auto* l : card->findChildren<QLabel*>())
            QVERIFY(l->isVisible());
        save(window, QStringLiteral("main-report"));
    }

    // The last training run's model_metadata.json goes into the report, redacted; a broken one is said in the logs.
    void trainingRunInReport()
    {
        QTemporaryDir run;
        QFile meta(run.filePath(QStringLiteral("model_metadata.json")));
        QVERIFY(meta.open(QIODevice::WriteOnly));
        meta.write(R"({"schema":"stackscope.training/1","status":"finished","config":{"epochs":2},
                       "data":{"file":"/home/zorgblatt/es.csv","rows":100},"epochs":[{"epoch":1,"train_loss":0.5,"val_loss":0.6}],
                       "best_epoch":1,"best_val_loss":0.6})");
        meta.close();
        SnapshotController snapshots;
        snapshots.setSnapshot(std::make_shared<const Snapshot>(plantedSnapshot()), QStringLiteral("planted"));
        ReportPage page(&snapshots, nullptr);
        page.setTrainingRunSource([&run] { return run.path(); });
        auto request = page.request();
        QCOMPARE(QString::fromStdString(request.trainingRun.value("status", std::string())), QStringLiteral("finished"));
        request.sampleTelemetry = false;
        const auto doc = ReportExporter::buildDocument(request);
        QVERIFY2(doc["training"].is_object(), doc["training"].dump().c_str());
        QVERIFY(plantedIn(QString::fromStdString(doc.dump())).isEmpty());

        QVERIFY(meta.open(QIODevice::WriteOnly | QIODevice::Truncate));
        meta.write("{\"schema\":");
        meta.close();
        request = page.request();
        QVERIFY(request.trainingRun.is_null());
        bool said = false;
        for (const auto& l : request.logLines)
            said = said || l.find("not valid JSON") != std::string::npos;
        QVERIFY(said);
    }
};

QTEST_MAIN(TestReportGui)
#include "tst_report_gui.moc"
