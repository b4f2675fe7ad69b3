// Pasted and dropped logs are part of the session (issue 35): kept, listed on the Report page, exported into
// report.json's logs and logs/recent.log through the redaction; one left out is not exported.
#include "tests/report_gui/report_gui_fixtures.h"
#include "ui/probes/log_diagnosis_dialog.h"
#include "ui/report/session_logs.h"

#include <QListView>
#include <QPlainTextEdit>

namespace {

// A traceback with private facts of the planted snapshot (user, host, home path) that redaction must replace.
const char* kLog = "Traceback (most recent call last):\n"
                   "  File \"/home/zorgblatt/proj/train.py\", line 12, in <module>\n"
                   "    y = model(x)\n"
                   "RuntimeError: HIP error: invalid device function (on quuxhost-7731)\n"
                   "HIP kernel errors might be asynchronously reported at some other API call\n";
const QString kMarker = QStringLiteral("RuntimeError: HIP error: invalid device function");

QString readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestSessionLogs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelKeepsLogs()
    {
        SessionLogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.add(QStringLiteral("pasted text"), QStringLiteral("a\r\nb\x1b[2J\n"));
        model.add(QStringLiteral("train.log"), QStringLiteral("a\r\nb\x1b[2J\n")); // the same text again: kept once
        model.add(QStringLiteral("pasted text"), QStringLiteral("  \n")); // nothing to keep
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0).data(SessionLogModel::OriginRole).toString(), QStringLiteral("train.log"));
        QCOMPARE(model.index(0).data(SessionLogModel::LineCountRole).toInt(), 2);
        QVERIFY(model.index(0).data().toString().startsWith(QStringLiteral("train.log — 2 lines")));
        const auto lines = model.reportLines();
        QCOMPARE(lines.size(), std::size_t(3));
        QVERIFY2(lines[0].rfind("==> train.log, kept ", 0) == 0 && lines[0].find(" <==") != std::string::npos,
            lines[0].c_str());
        QCOMPARE(QString::fromStdString(lines[1]), QStringLiteral("a"));
        QCOMPARE(QString::fromStdString(lines[2]),
            QStringLiteral("b\\x1b[2J")); // no ESC sequence reaches a terminal or the HTML

        // A long log keeps its end, and its header says so.
        QString big;
        for (int i = 0; i < SessionLogModel::kMaxReportLines + 500; ++i)
            big += QStringLiteral("line %1\n").arg(i);
        model.add(QStringLiteral("big.log"), big);
        const auto all = model.reportLines();
        QCOMPARE(all.size(), std::size_t(3 + 1 + SessionLogModel::kMaxReportLines));
        QVERIFY2(all[3].find("its last 1000 of 1500 lines") != std::string::npos, all[3].c_str());
        QCOMPARE(QString::fromStdString(all.back()), QStringLiteral("line 1499"));
        model.remove(0);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0).data(SessionLogModel::OriginRole).toString(), QStringLiteral("big.log"));
    }

    // Pasted through either page's button or dropped on the window: listed on the Report page, then exported
    // (redacted) into report.json's logs, logs/recent.log and the zip's copy.
    void pastedLogReachesReport_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("System page button") << "System";
        QTest::newRow("Report page button") << "Report";
        QTest::newRow("dropped file") << "drop";
    }
    void pastedLogReachesReport()
    {
        QFETCH(QString, how);
        QTemporaryDir dir;
        MainWindow window;
        window.resize(1280, 820);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.snapshots()->setSnapshot(std::make_shared<const Snapshot>(plantedSnapshot()), QStringLiteral("planted"));
        QString origin = QStringLiteral("pasted text");
        if (how == QStringLiteral("drop")) {
            origin = QStringLiteral("train.log");
            QFile f(dir.filePath(origin));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(kLog);
            f.close();
            QMimeData mime;
            mime.setUrls({ QUrl::fromLocalFile(f.fileName()) });
            QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(&window, &enter);
            QVERIFY(enter.isAccepted());
            QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(&window, &drop);
        } else {
            QVERIFY(window.showPage(how));
            QWidget* page
                = how == QStringLiteral("System") ? static_cast<QWidget*>(window.systemPage()) : window.reportPage();
            auto* button = page->findChild<QPushButton*>(QStringLiteral("pasteLogButton"));
            QVERIFY(button);
            button->click();
            auto* dialog = window.findChild<LogDiagnosisDialog*>();
            QVERIFY(dialog);
            auto* text = dialog->findChild<QPlainTextEdit*>(QStringLiteral("logText"));
            QVERIFY(text);
            text->setPlainText(QString::fromLatin1(kLog));
            dialog->findChild<QPushButton*>(QStringLiteral("diagnoseButton"))->click();
        }
        auto* dialog = window.findChild<LogDiagnosisDialog*>();
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(
            !dialog->isRunning() && !dialog->summary().startsWith(QStringLiteral("Diagnosing")), 20000);
        QVERIFY2(
            dialog->summary().contains(QStringLiteral("kept for the support report")), qPrintable(dialog->summary()));
        dialog->close();

        // Listed on the Report page.
        ReportPage* report = window.reportPage();
        QVERIFY(window.showPage(QStringLiteral("Report")));
        auto* list = report->findChild<QListView*>(QStringLiteral("sessionLogs"));
        QVERIFY(list && list->isVisible());
        QCOMPARE(list->model()->rowCount(), 1);
        QVERIFY2(list->model()->index(0, 0).data().toString().startsWith(origin),
            qPrintable(list->model()->index(0, 0).data().toString()));
        QVERIFY(report->findChild<QLabel*>(QStringLiteral("sessionLogsNote"))
                    ->text()
                    .startsWith(QStringLiteral("1 log goes into the report")));

        QVERIFY(report->redactionEnabled());
        QVERIFY2(exportAndWait(*report, dir.path()), qPrintable(report->statusText()));
        const auto& result = report->lastResult();
        const auto& logs = result.report["logs"];
        QVERIFY(logs.is_array());
        QString joined;
        for (const auto& l : logs)
            joined += QString::fromStdString(l.get<std::string>()) + QLatin1Char('\n');
        QVERIFY2(joined.contains(QStringLiteral("==> ") + origin), qPrintable(joined.right(2000)));
        QVERIFY2(joined.contains(kMarker), qPrintable(joined.right(2000)));
        QVERIFY2(joined.contains(QStringLiteral("/home/<user>/proj/train.py")), qPrintable(joined.right(2000)));
        const QString recent = readFile(result.folder + QStringLiteral("/logs/recent.log"));
        QVERIFY2(recent.contains(kMarker), qPrintable(recent.right(2000)));
        const QString json = readFile(result.folder + QStringLiteral("/report.json"));
        const auto zip = zipEntries(result.zip);
        const QString top = QFileInfo(result.folder).fileName();
        QVERIFY(zip.count(top + QStringLiteral("/logs/recent.log")));
        const QString zipped = QString::fromUtf8(zip.at(top + QStringLiteral("/logs/recent.log")));
        QVERIFY(zipped.contains(kMarker));
        for (const QString& text : { joined, recent, json, zipped })
            QVERIFY2(plantedIn(text).isEmpty(), qPrintable(plantedIn(text).join(QStringLiteral(", "))));
    }

    // A log the user leaves out is not exported; the page says none is kept.
    void leftOutLogIsNotExported()
    {
        QTemporaryDir dir;
        MainWindow window;
        window.resize(1280, 820);
        window.show();
        window.snapshots()->setSnapshot(std::make_shared<const Snapshot>(plantedSnapshot()), QStringLiteral("planted"));
        ReportPage* report = window.reportPage();
        report->sessionLogs()->add(QStringLiteral("pasted text"), QString::fromLatin1(kLog));
        QVERIFY(window.showPage(QStringLiteral("Report")));
        auto* list = report->findChild<QListView*>(QStringLiteral("sessionLogs"));
        auto* leaveOut = report->findChild<QPushButton*>(QStringLiteral("removeLogButton"));
        QVERIFY(list && leaveOut);
        QVERIFY(!leaveOut->isEnabled()); // nothing selected yet
        list->setCurrentIndex(list->model()->index(0, 0));
        QVERIFY(leaveOut->isEnabled());
        // Looked at by a person: the list beside the export controls at a small laptop's size and at full HD.
        for (const QSize size : { QSize(1024, 640), QSize(1920, 1080) }) {
            window.resize(size);
            save(window, QStringLiteral("report-session-logs-%1").arg(size.width()));
        }
        leaveOut->click();
        QCOMPARE(report->sessionLogs()->rowCount(), 0);
        QVERIFY(!list->isVisible());
        QVERIFY(report->findChild<QLabel*>(QStringLiteral("sessionLogsNote"))
                    ->text()
                    .startsWith(QStringLiteral("None yet")));
        QVERIFY2(exportAndWait(*report, dir.path()), qPrintable(report->statusText()));
        const QString recent = readFile(report->lastResult().folder + QStringLiteral("/logs/recent.log"));
        QVERIFY(!recent.contains(kMarker));
    }
};

QTEST_MAIN(TestSessionLogs)
#include "tst_session_logs.moc"
