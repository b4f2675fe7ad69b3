// Report replay restores what the report holds (issue 35, walkthrough 2026-11-27 open problems 1 and 20; issue 34):
// the pasted logs are listed again, their findings are on the System and Probes pages as `stackscope-cli diagnose`
// gives them for the report's snapshot and logs, and a second export keeps them; the Probes page lists the System
// page's findings; the report is read in the background, the banner saying "Loading <name>…", errors by kind.
#include "tests/report_gui/report_gui_fixtures.h"
#include "tests/common/findings_rows.h"
#include "core/training/training_config.h"
#include "ui/report/session_logs.h"
#include "ui/training/training_form.h"
#include "ui/training/training_page.h"
#include "ui/vpoc/vpoc_form.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

#include <QJsonArray>
#include <QListView>
#include <QTimeZone>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

const QString kFixtures = QStringLiteral(STACKSCOPE_TEST_FIXTURES);

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

bool writeText(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// `stackscope-cli diagnose --json` findings as "severity ID" lines.
QStringList cliFindings(const QStringList& args, QString* error)
{
    const auto r = stackscope::test::runCli(QStringList {QStringLiteral("diagnose"), QStringLiteral("--json")} + args);
    const auto doc = QJsonDocument::fromJson(r.out).object();
    if (doc.isEmpty())
        *error = QStringLiteral("diagnose gave no JSON (exit %1): %2").arg(r.exitCode).arg(QString::fromUtf8(r.err));
    QStringList out;
    for (const auto& f : doc.value(QStringLiteral("findings")).toArray())
        out << QStringLiteral("%1 %2").arg(f.toObject().value(QStringLiteral("severity")).toString(),
                                          f.toObject().value(QStringLiteral("id")).toString());
    return out;
}

// A recorded machine inspected by the CLI, as a snapshot the window can show.
SnapshotPtr recordedSnapshot(const QString& root, const QString& file)
{
    if (!runCliToFile({QStringLiteral("inspect"), QStringLiteral("--json"), QStringLiteral("--root"),
                       kFixtures + QStringLiteral("/roots/") + root, QStringLiteral("--no-archscan")},
                      file)
             .isEmpty())
        return nullptr;
    return std::make_shared<const Snapshot>(loadSnapshotFile(file.toStdString()));
}

QStringList sessionOrigins(const SessionLogModel* logs)
{
    QStringList out;
    for (const auto& l : logs->logs())
        out << l.origin;
    return out;
}

} // namespace

class TestReplayRestores : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (qEnvironmentVariableIsEmpty("STACKSCOPE_CLI"))
            QSKIP("STACKSCOPE_CLI is not set (run through ctest)");
    }

    // Two logs pasted on a recorded gfx1201 machine, exported, the report opened in a fresh window (zip or folder):
    // the Report page lists both logs again; the System page's findings are diagnose's for the report's snapshot and
    // logs/recent.log, the log rules among them; the Probes page lists the same; exporting again keeps the logs and
    // their findings; closing the report takes its logs off.
    void pastedLogsComeBack_data()
    {
        QTest::addColumn<bool>("asFolder");
        QTest::newRow("zip") << false;
        QTest::newRow("folder") << true;
    }
    void pastedLogsComeBack()
    {
        QFETCH(bool, asFolder);
        QTemporaryDir dir;
        const auto snapshot = recordedSnapshot(QStringLiteral("ubuntu2404-rocm7"), dir.filePath(QStringLiteral("machine.json")));
        QVERIFY(snapshot);
        const QString rocblas = readText(kFixtures + QStringLiteral("/reports-heldout5/08_rocblas_tensile_missing_gfx1201_hip_sdk62_windows_zluda/report.txt"));
        const QString noBinary = readText(kFixtures + QStringLiteral("/reports-heldout5/13_no_binary_for_gpu_navi22_gfx1031_sd_rocm_docker/report.txt"));
        QVERIFY(!rocblas.isEmpty() && !noBinary.isEmpty());
        ReportResult written;
        {
            MainWindow window;
            window.snapshots()->setSnapshot(snapshot, QStringLiteral("machine.json"));
            window.reportPage()->sessionLogs()->add(QStringLiteral("pasted text"), rocblas);
            window.reportPage()->sessionLogs()->add(QStringLiteral("train.log"), noBinary);
            QVERIFY2(exportAndWait(*window.reportPage(), dir.path()), qPrintable(window.reportPage()->statusText()));
            written = window.reportPage()->lastResult();
        }
        // The CLI's diagnosis of what the report holds: its snapshot and its logs.
        const QString reportSnapshot = dir.filePath(QStringLiteral("report-snapshot.json"));
        QVERIFY(writeText(reportSnapshot, QByteArray::fromStdString(toJson(report::loadReport(written.folder.toStdString()).snapshot).dump())));
        QString cliError;
        const QStringList expected = cliFindings({QStringLiteral("--snapshot"), reportSnapshot, QStringLiteral("--log"),
                                                  written.folder + QStringLiteral("/logs/recent.log")},
                                                 &cliError);
        QVERIFY2(cliError.isEmpty(), qPrintable(cliError));
        QVERIFY2(expected.contains(QStringLiteral("error ROCBLAS_TENSILE_MISSING")), qPrintable(expected.join(QLatin1Char(','))));

        MainWindow window;
        window.resize(1024, 640);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(stackscope::test::openReportAndWait(window.replay(), asFolder ? written.folder : written.zip, &error), qPrintable(error));
        auto* logs = window.reportPage()->sessionLogs();
        const QStringList origins = sessionOrigins(logs);
        QVERIFY2(origins.contains(QStringLiteral("pasted text")) && origins.contains(QStringLiteral("train.log")),
                 qPrintable(origins.join(QStringLiteral(" | "))));
        for (const auto& l : logs->logs()) {
            if (l.origin == QStringLiteral("pasted text"))
                QVERIFY(l.text.contains(QStringLiteral("rocBLAS error")) || l.text.contains(QStringLiteral("TensileLibrary")));
            QVERIFY(!l.report.isEmpty()); // marked as the report's
        }
        auto* list = window.reportPage()->findChild<QListView*>(QStringLiteral("sessionLogs"));
        QVERIFY(list && list->model()->rowCount() == logs->rowCount());
        const QString row = list->model()->index(int(origins.indexOf(QStringLiteral("pasted text"))), 0).data().toString();
        QVERIFY2(row.contains(QStringLiteral(" lines, kept ")) && row.endsWith(QStringLiteral(", from the report")), qPrintable(row));
        auto* note = window.reportPage()->findChild<QLabel*>(QStringLiteral("sessionLogsNote"));
        QVERIFY2(note && !note->text().startsWith(QStringLiteral("None yet")), qPrintable(note ? note->text() : QString()));

        const QStringList system = stackscope::test::guiFindings(window.systemPage()->findingsModel());
        QCOMPARE(system, expected);
        QCOMPARE(stackscope::test::guiFindings(window.probesPage()->findingsModel()), system);
        QVERIFY2(window.statusText().contains(QStringLiteral("error")), qPrintable(window.statusText()));
        QVERIFY(window.replay()->banner()->text().contains(QStringLiteral("Logs (")));
        for (const QString& page : {QStringLiteral("System"), QStringLiteral("Report")}) {
            QVERIFY(window.showPage(page));
            save(window, QStringLiteral("replay-logs-%1-%2").arg(page.toLower(), asFolder ? QStringLiteral("folder") : QStringLiteral("zip")));
        }

        // Exported again: the logs and their findings are kept.
        QTemporaryDir again;
        QVERIFY2(exportAndWait(*window.reportPage(), again.path()), qPrintable(window.reportPage()->statusText()));
        const auto second = window.reportPage()->lastResult().report;
        QStringList headers, ids;
        for (const auto& l : second["logs"])
            if (l.get<std::string>().rfind("==> ", 0) == 0)
                headers << QString::fromStdString(l.get<std::string>());
        for (const auto& f : second["findings"])
            ids << QString::fromStdString(f["id"].get<std::string>());
        QVERIFY2(headers.filter(QStringLiteral("==> pasted text")).size() == 1 && headers.filter(QStringLiteral("==> train.log")).size() == 1,
                 qPrintable(headers.join(QStringLiteral(" | "))));
        QVERIFY2(ids.contains(QStringLiteral("ROCBLAS_TENSILE_MISSING")), qPrintable(ids.join(QLatin1Char(','))));

        // Closed: back to this session's logs (none).
        window.replay()->close();
        QCOMPARE(logs->rowCount(), 0);
    }

    // Logs pasted before a report is opened are set aside while it is shown and come back when it closes.
    void sessionLogsSetAside()
    {
        SessionLogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.add(QStringLiteral("mine.log"), QStringLiteral("RuntimeError: mine\n"));
        model.showReportLogs(report::splitReportLogLines({"app line", "==> pasted text, kept 2026-11-27T10:00:00Z <==",
                                                          "hipErrorNoBinaryForGpu", "==> big.log, kept 2026-11-27T10:01:00Z (its last 1000 of 1500 lines) <==", "x"}),
                             QStringLiteral("r.zip"));
        QCOMPARE(sessionOrigins(&model), (QStringList {QString::fromUtf8(report::kAppMessagesOrigin), QStringLiteral("pasted text"), QStringLiteral("big.log")}));
        QCOMPARE(model.logs()[1].keptAt, QDateTime(QDate(2026, 11, 27), QTime(10, 0), QTimeZone::utc()));
        QCOMPARE(model.logs()[1].text, QStringLiteral("hipErrorNoBinaryForGpu\n"));
        // Written again with the same header (the round trip is stable).
        const auto lines = model.reportLines();
        QCOMPARE(QString::fromStdString(lines[2]), QStringLiteral("==> pasted text, kept 2026-11-27T10:00:00Z <=="));
        QCOMPARE(QString::fromStdString(lines[0]), QStringLiteral("==> %1 <==").arg(QString::fromUtf8(report::kAppMessagesOrigin)));
        model.add(QStringLiteral("while open.log"), QStringLiteral("pasted while the report was open\n"));
        model.endReportLogs();
        QCOMPARE(sessionOrigins(&model), (QStringList {QStringLiteral("mine.log"), QStringLiteral("while open.log")}));
    }

    // Open problem 20: the Probes page's findings are the System page's (one diagnosis), for recorded machines with
    // and without a pasted log.
    void probesListsSystemFindings_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<bool>("withLog");
        for (const char* root : {"ubuntu2404-rocm7", "ubuntu2404-secureboot-dkms", "kfd-only-2x7900xt", "debian12-nogpu"}) {
            QTest::addRow("%s", root) << QString::fromUtf8(root) << false;
            QTest::addRow("%s + log", root) << QString::fromUtf8(root) << true;
        }
    }
    void probesListsSystemFindings()
    {
        QFETCH(QString, root);
        QFETCH(bool, withLog);
        QTemporaryDir dir;
        const auto snapshot = recordedSnapshot(root, dir.filePath(QStringLiteral("s.json")));
        if (!snapshot)
            QSKIP("no such recorded root here");
        MainWindow window;
        window.snapshots()->setSnapshot(snapshot, QStringLiteral("s.json"));
        if (withLog)
            window.reportPage()->sessionLogs()->add(QStringLiteral("pasted text"),
                                                    QStringLiteral("RuntimeError: HIP error: invalid device function\n"));
        const QStringList system = stackscope::test::guiFindings(window.systemPage()->findingsModel());
        QVERIFY(!system.isEmpty());
        QCOMPARE(stackscope::test::guiFindings(window.probesPage()->findingsModel()), system);
        QString cliError;
        QStringList args {QStringLiteral("--snapshot"), dir.filePath(QStringLiteral("s.json"))};
        if (withLog) {
            QVERIFY(writeText(dir.filePath(QStringLiteral("l.log")), "RuntimeError: HIP error: invalid device function\n"));
            args << QStringLiteral("--log") << dir.filePath(QStringLiteral("l.log"));
        }
        QCOMPARE(system, cliFindings(args, &cliError));
    }

    // Replay sets the VPOC and Training forms to the options of the runs shown (session rth, value area 80 %; 2
    // epochs, hidden 16,8), so form and results agree and nothing is marked; where a value cannot be set (a tick finer
    // than the box holds, a seed over the box's 2^31 - 1) the results say "Out of date: computed with …".
    void formsFollowTheRun_data()
    {
        QTest::addColumn<QString>("tick");
        QTest::addColumn<qulonglong>("seed");
        QTest::addColumn<bool>("vpocStale");
        QTest::addColumn<bool>("trainingStale");
        QTest::newRow("the forms hold the runs' options") << "0.25" << qulonglong(42) << false << false;
        QTest::newRow("a tick and a seed the forms cannot hold") << "0.00005" << qulonglong(5000000000ull) << true << true;
    }
    void formsFollowTheRun()
    {
        QFETCH(QString, tick);
        QFETCH(qulonglong, seed);
        QFETCH(bool, vpocStale);
        QFETCH(bool, trainingStale);
        QTemporaryDir dir;
        const QString bars = dir.filePath(QStringLiteral("bars.csv")), vpoc = dir.filePath(QStringLiteral("vpoc.json"));
        QCOMPARE(runCliToFile({QStringLiteral("sample-data"), QStringLiteral("--out"), bars}, dir.filePath(QStringLiteral("s.log"))), QString());
        QCOMPARE(runCliToFile({QStringLiteral("vpoc"), QStringLiteral("--input"), bars, QStringLiteral("--session"), QStringLiteral("rth"),
                               QStringLiteral("--va"), QStringLiteral("80"), QStringLiteral("--json")},
                              vpoc),
                 QString());
        auto run = nlohmann::json::parse(readText(vpoc).toStdString());
        run["options"]["tick"] = tick.toDouble();
        QVERIFY(writeText(vpoc, QByteArray::fromStdString(run.dump())));
        training::TrainingConfig config;
        config.input = "d.csv";
        config.output = "/elsewhere/run";
        config.epochs = 2;
        config.batchSize = 128;
        config.hidden = {16, 8};
        config.seed = seed;
        nlohmann::json metadata = {{"schema", "stackscope.training/1"}, {"status", "finished"}, {"best_epoch", 1},
                                   {"devices", {"CPU"}}, {"config", training::toJson(config)}};
        metadata["epochs"] = nlohmann::json::array();
        for (int e = 1; e <= 2; ++e)
            metadata["epochs"].push_back({{"epoch", e}, {"train_loss", 1.0 - 0.01 * e}, {"val_loss", 1.14 + 0.001 * e},
                                          {"samples_per_s", 500000.0 + e}, {"seconds", 0.04}});
        const QString training = dir.filePath(QStringLiteral("model_metadata.json"));
        QVERIFY(writeText(training, QByteArray::fromStdString(metadata.dump())));
        const QString snapshot = dir.filePath(QStringLiteral("snapshot.json"));
        QVERIFY(writeText(snapshot, QByteArray::fromStdString(toJson(plantedSnapshot()).dump())));
        const auto r = stackscope::test::runCli({QStringLiteral("report"), QStringLiteral("--out"), dir.filePath(QStringLiteral("out")),
                                                 QStringLiteral("--snapshot"), snapshot, QStringLiteral("--vpoc"), vpoc,
                                                 QStringLiteral("--training"), training, QStringLiteral("--no-archscan"),
                                                 QStringLiteral("--no-telemetry")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString zip = QString::fromUtf8(r.out).section(QStringLiteral("zip: "), 1).section(QLatin1Char('\n'), 0, 0).trimmed();
        QVERIFY2(QFileInfo(zip).isFile(), r.out.constData());

        MainWindow window;
        window.resize(1024, 640);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(stackscope::test::openReportAndWait(window.replay(), zip, &error), qPrintable(error));
        auto* vpocForm = window.vpocPage()->form();
        QCOMPARE(qobject_cast<QComboBox*>(vpocForm->fieldWidget("session"))->currentText(), QStringLiteral("rth"));
        QCOMPARE(qobject_cast<QDoubleSpinBox*>(vpocForm->fieldWidget("va"))->value(), 80.0);
        QCOMPARE(vpocForm->inputText(), bars); // the path the run read, as the report keeps it
        QCOMPARE(window.vpocPage()->resultsStale(), vpocStale);
        auto* trainingForm = window.trainingPage()->form();
        const auto shown = trainingForm->config();
        QCOMPARE(shown.epochs, 2);
        QCOMPARE(shown.batchSize, 128);
        QCOMPARE(shown.hidden, (std::vector<int> {16, 8}));
        QCOMPARE(QString::fromStdString(shown.input), QStringLiteral("d.csv"));
        QVERIFY(QString::fromStdString(shown.output) != QStringLiteral("/elsewhere/run")); // this machine's folder
        QCOMPARE(window.trainingPage()->resultsStale(), trainingStale);
        if (trainingStale)
            QVERIFY2(window.trainingPage()->staleText().contains(QStringLiteral("seed")), qPrintable(window.trainingPage()->staleText()));
        for (const QString& page : {QStringLiteral("VPOC"), QStringLiteral("Training")}) {
            QVERIFY(window.showPage(page));
            save(window, QStringLiteral("replay-form-%1-%2").arg(page.toLower(), vpocStale ? QStringLiteral("stale") : QStringLiteral("agrees")));
        }
        // A changed option marks a report's results too, until they agree again.
        if (!vpocStale) {
            auto* va = qobject_cast<QDoubleSpinBox*>(vpocForm->fieldWidget("va"));
            va->setValue(70);
            QVERIFY(window.vpocPage()->resultsStale());
            va->setValue(80);
            QVERIFY(!window.vpocPage()->resultsStale());
        }
    }

    // Issue 34: the report is read on the task runner. open() returns at once with "Loading <name>…" in the banner and
    // the pages as they were; then the report is shown. A file that is not a report is said to be one, after the read.
    void loadsInTheBackground()
    {
        QTemporaryDir dir;
        ReportResult written;
        {
            SnapshotController snapshots;
            snapshots.setSnapshot(std::make_shared<const Snapshot>(plantedSnapshot()), QStringLiteral("planted"));
            ProbesPage probes(&snapshots);
            ReportPage page(&snapshots, &probes);
            QVERIFY2(exportAndWait(page, dir.path()), qPrintable(page.statusText()));
            written = page.lastResult();
        }
        MainWindow window;
        window.resize(1024, 640);
        window.show();
        const auto before = std::make_shared<const Snapshot>(plantedSnapshot());
        window.snapshots()->setSnapshot(before, QStringLiteral("before.json"));
        QSignalSpy loading(window.replay(), &ReportReplay::loading);
        QSignalSpy opened(window.replay(), &ReportReplay::opened);
        window.replay()->open(written.zip);
        QCOMPARE(loading.count(), 1);
        QCOMPARE(loading.at(0).at(0).toString(), QFileInfo(written.zip).fileName());
        QCOMPARE(opened.count(), 0); // not on the GUI thread: nothing shown yet
        QVERIFY(window.replay()->isLoading());
        QVERIFY2(window.replay()->banner()->text().contains(QStringLiteral("Loading %1…").arg(QFileInfo(written.zip).fileName())),
                 qPrintable(window.replay()->banner()->text()));
        QVERIFY(window.replay()->banner()->isVisible());
        QVERIFY(!window.replay()->banner()->runHereButton()->isEnabled());
        QCOMPARE(window.snapshots()->snapshot(), before);
        QVERIFY(window.grab().save(screenshotDir() + QStringLiteral("/replay-loading.png"))); // grabbed before the read ends
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 60000);
        QVERIFY(!window.replay()->isLoading());
        QVERIFY(window.replay()->banner()->text().contains(QStringLiteral("Viewing a report")));

        // Errors by kind: a file that is not a report (Input) says what to open instead; the report shown stays.
        const QString notes = dir.filePath(QStringLiteral("notes.json"));
        QVERIFY(writeText(notes, "my notes\n"));
        QSignalSpy errors(window.replay(), &ReportReplay::errorOccurred);
        QObject::disconnect(window.replay(), &ReportReplay::errorOccurred, &window, nullptr); // no modal box in a test
        window.replay()->open(notes);
        QCOMPARE(errors.count(), 0);
        QVERIFY(errors.wait(60000));
        QVERIFY2(errors.at(0).at(0).toString().startsWith(QStringLiteral("notes.json is not a StackScope report")),
                 qPrintable(errors.at(0).at(0).toString()));
        QVERIFY(window.replay()->isOpen());
        QVERIFY(window.replay()->banner()->text().contains(QStringLiteral("Viewing a report")));
        // Failed (this machine failed the read) says to try again.
        QVERIFY(ReportReplay::openErrorText(notes, QStringLiteral("std::bad_alloc"), ErrorKind::Failed)
                    .startsWith(QStringLiteral("Reading notes.json failed on this machine")));
        // Close while loading: the loading stops, the report shown stays.
        window.replay()->open(written.folder);
        window.replay()->close();
        QVERIFY(!window.replay()->isLoading());
        QVERIFY(window.replay()->isOpen());
        QTest::qWait(300);
        QCOMPARE(opened.count(), 1);
    }
};

QTEST_MAIN(TestReplayRestores)
#include "tst_replay_restores.moc"
