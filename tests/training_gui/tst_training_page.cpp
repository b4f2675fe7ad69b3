// The Training page end to end on the CPU (STACKSCOPE_TRAINING_TEST_DEVICE picks a GPU): form errors, a
// whole run (epoch table, charts, output folder, stall meter, screenshots), Start then Stop after the first
// epoch (stopped within 1 s, checkpoint kept) then Resume to the end, and closing the page mid-run.
#include "core/training/training_metadata.h"
#include "core/training/training_run.h"
#include "core/util/task_runner.h"
#include "tests/common/sample_data_fixture.h"
#include "ui/system/snapshot_controller.h"
#include "ui/training/epoch_table_model.h"
#include "ui/training/stall_meter.h"
#include "ui/training/training_charts.h"
#include "ui/training/training_form.h"
#include "ui/training/training_page.h"
#include "ui/widgets/elided_combo_box.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

class TestTrainingPage : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_sample;
    QString m_moduleMissing;

    // A person sees the page before pressing Start: its first paint (fonts, glyph caches) is not the run's.
    static bool showLikeAPerson(TrainingPage& page)
    {
        page.resize(1130, 780);
        page.show();
        if (!QTest::qWaitForWindowExposed(&page))
            return false;
        QTest::qWait(100);
        return true;
    }

    training::TrainingConfig smallRun(const QString& name) const
    {
        training::TrainingConfig c;
        c.input = m_sample.toStdString();
        c.output = m_dir.filePath(name).toStdString();
        c.device = training::parseDevices(device().toStdString());
        c.epochs = 4;
        c.batchSize = 64;
        c.stepInterval = 4;
        c.patience = 0;
        return c;
    }

    // cpu here; tests/device/training_gui.sh sets gpu:0, where the memory chart must fill instead.
    static QString device()
    {
        const QString d = qEnvironmentVariable("STACKSCOPE_TRAINING_TEST_DEVICE");
        return d.isEmpty() ? QStringLiteral("cpu") : d;
    }
    static bool onCpu() { return device() == QStringLiteral("cpu"); }

    // grab() blocks the GUI thread for 10-40 ms and PNG encoding for ~100 ms more: a stall meter running
    // then would count the test's own work, so a screenshot taken during a run is saved after it.
    QPixmap shoot(QWidget& page, const char* name)
    {
        QElapsedTimer clock;
        clock.start();
        QPixmap shot = page.grab();
        qInfo("screenshot %s: grab %lld ms", name, clock.elapsed());
        return shot;
    }
    void save(const QPixmap& shot, const char* name)
    {
        const QString path = QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/") + QString::fromLatin1(name);
        QVERIFY2(shot.save(path), qPrintable(path));
        qInfo("screenshot: %s", qPrintable(path));
    }
    void save(QWidget& page, const char* name) { save(page.grab(), name); }

    static QString metadataPath(const training::TrainingConfig& c)
    {
        return QString::fromStdString(c.output + "/model_metadata.json");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the default sample and output folders go to a test location
        m_sample = test::writeSampleBars(m_dir, 3, QStringLiteral("sample-3-days.csv"));
        m_moduleMissing = test::moduleMissing([] { training::trainerModule(); });
    }

    void defaultsAreTheSampleData()
    {
        TrainingPage page(nullptr);
        QVERIFY(page.form()->inputIsSample());
        QVERIFY(page.form()->outputIsDefault());
        QVERIFY(page.form()->outputFolder().contains(QStringLiteral("/training/run-")));
        auto* note = page.findChild<QLabel*>(QStringLiteral("trainingInputNote"));
        QVERIFY(note);
        QVERIFY(note->text().contains(QStringLiteral("Synthetic")));
        const auto c = page.form()->config();
        QVERIFY(c.device.isAuto());
        QCOMPARE(c.hidden, (std::vector<int> {32, 16}));
        QVERIFY(!c.resume);
    }

    // Switching between the sample data and a file of one's own changes the note under the input (3 lines to 1 at
    // 1024 px); the fields below it must not move under the mouse (walkthrough 2026-11-27 third, problem 7).
    void inputNoteKeepsTheFieldsStill_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("1024") << 1024;
        QTest::newRow("1920") << 1920;
    }
    void inputNoteKeepsTheFieldsStill()
    {
        QFETCH(int, width);
        TrainingPage page(nullptr);
        page.resize(width, 640);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto* output = page.findChild<QLineEdit*>(QStringLiteral("trainingOutput"));
        auto* input = page.findChild<QLineEdit*>(QStringLiteral("trainingInput"));
        QVERIFY(output && input);
        const auto outputY = [&] { // after the layouts have settled (a layout request posts the next one)
            for (int i = 0; i < 4; ++i) {
                QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
                QCoreApplication::processEvents();
            }
            return output->mapTo(&page, QPoint(0, 0)).y();
        };
        const int sampleY = outputY();
        input->setText(QStringLiteral("/data/es-bars.csv"));
        QCOMPARE(outputY(), sampleY);
        input->setText(TrainingForm::sampleDataPath());
        QCOMPARE(outputY(), sampleY);
    }

    static SnapshotPtr twoH200()
    {
        auto s = std::make_shared<Snapshot>();
        for (int i = 0; i < 2; ++i) {
            GpuInfo g;
            g.index = i;
            g.vendor = "nvidia";
            g.name = "NVIDIA H200";
            g.vramTotalBytes = 150ULL << 30;
            s->gpus.push_back(g);
        }
        return s;
    }
    static QStringList deviceIds(const QComboBox* box)
    {
        QStringList ids;
        for (int i = 0; i < box->count(); ++i)
            ids << box->itemData(i).toString();
        return ids;
    }

    void deviceBoxFollowsTheSnapshot()
    {
        SnapshotController snapshots;
        TrainingPage page(&snapshots);
        auto* box = page.findChild<QComboBox*>(QStringLiteral("trainingDevice"));
        QVERIFY(box);
        QCOMPARE(box->count(), 2); // auto, cpu: no snapshot yet
        snapshots.setSnapshot(twoH200(), QString()); // an inspection of this machine
        QCOMPARE(deviceIds(box), (QStringList {QStringLiteral("auto"), QStringLiteral("cpu"), QStringLiteral("gpu:0"),
                                               QStringLiteral("gpu:1"), QStringLiteral("gpu:0,1")}));
        QVERIFY(box->itemText(2).contains(QStringLiteral("NVIDIA H200 (150 GiB)")));
        QVERIFY(!box->toolTip().contains(QStringLiteral("recorded")));
        box->setCurrentIndex(3);
        QCOMPARE(page.form()->config().device, training::DeviceSelection::onGpus({1}));
        // A new snapshot keeps the choice when that GPU is still there.
        snapshots.setSnapshot(twoH200(), QString());
        QCOMPARE(box->currentData().toString(), QStringLiteral("gpu:1"));
    }

    // Training runs here: a recorded machine on the System page never puts its GPUs in the Device box
    // (walkthrough 2026-11-27 problem 2: --root ubuntu2404-rocm7 offered "gpu:0 — AMD Radeon RX 9070 XT").
    void deviceBoxListsThisMachineOnly_data()
    {
        QTest::addColumn<bool>("inspectedHereFirst");
        QTest::addColumn<bool>("asRoot"); // a recorded root, else a snapshot file
        QTest::addColumn<QStringList>("ids");
        QTest::addColumn<QString>("tip");
        const QStringList here {QStringLiteral("auto"), QStringLiteral("cpu"), QStringLiteral("gpu:0"),
                                QStringLiteral("gpu:1"), QStringLiteral("gpu:0,1")};
        const QStringList none {QStringLiteral("auto"), QStringLiteral("cpu")};
        QTest::newRow("root, this machine never inspected") << false << true << none << "has not been inspected";
        QTest::newRow("root after an inspection here") << true << true << here << "this machine's GPUs";
        QTest::newRow("snapshot file, never inspected") << false << false << none << "has not been inspected";
        QTest::newRow("snapshot file after an inspection") << true << false << here << "never the recorded machine's";
    }
    void deviceBoxListsThisMachineOnly()
    {
        QFETCH(bool, inspectedHereFirst);
        QFETCH(bool, asRoot);
        QFETCH(QStringList, ids);
        QFETCH(QString, tip);
        SnapshotController snapshots;
        TrainingPage page(&snapshots);
        auto* box = page.findChild<QComboBox*>(QStringLiteral("trainingDevice"));
        QVERIFY(box);
        if (inspectedHereFirst)
            snapshots.setSnapshot(twoH200(), QString());
        auto recorded = std::make_shared<Snapshot>();
        GpuInfo g;
        g.index = 0;
        g.vendor = "amd";
        g.name = "AMD Radeon RX 9070 XT";
        recorded->gpus = {g, g, g};
        recorded->gpus[1].index = 1;
        recorded->gpus[2].index = 2;
        if (asRoot)
            recorded->root = "/recorded/root";
        snapshots.setSnapshot(recorded, asRoot ? QString() : QStringLiteral("/tmp/other.json"));
        QCOMPARE(deviceIds(box), ids);
        for (int i = 0; i < box->count(); ++i)
            QVERIFY2(!box->itemText(i).contains(QStringLiteral("9070")), qPrintable(box->itemText(i)));
        QVERIFY2(box->toolTip().contains(tip), qPrintable(box->toolTip()));
        QVERIFY2(box->toolTip().contains(asRoot ? QStringLiteral("/recorded/root") : QStringLiteral("/tmp/other.json")),
                 qPrintable(box->toolTip()));
    }

    // The closed box cuts a long choice with "…" at 1024x640, never mid-letter (walkthrough problem 16).
    void deviceBoxElides()
    {
        TrainingPage page(nullptr);
        auto* box = qobject_cast<ElidedComboBox*>(page.findChild<QComboBox*>(QStringLiteral("trainingDevice")));
        QVERIFY(box);
        box->setCurrentIndex(0);
        box->resize(120, box->sizeHint().height());
        const QString shown = box->shownText();
        QVERIFY2(shown.endsWith(QChar(0x2026)), qPrintable(shown));
        QVERIFY(box->fontMetrics().horizontalAdvance(shown) < 120);
        // Hovering the cut box shows the whole choice above the box's explanation.
        QVERIFY2(box->toolTipText().startsWith(box->currentText() + QStringLiteral("\n\n")), qPrintable(box->toolTipText()));
        QVERIFY(box->toolTipText().endsWith(box->toolTip()));
        box->resize(box->fontMetrics().horizontalAdvance(box->currentText()) + 80, box->sizeHint().height());
        QCOMPARE(box->shownText(), box->currentText());
        QCOMPARE(box->toolTipText(), box->toolTip());
    }

    // The form takes the width its choices need where the page has room (the Device box read "auto (GPU, else C…" at
    // 1920x1080 beside 900 px of charts), up to a third of the page; at 1024x640 it keeps its minimum share and never
    // scrolls sideways. The page widths are the main window's at those sizes less the page list.
    void formTakesTheWidthItNeeds_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("whole");
        QTest::newRow("1024x640") << QSize(880, 560) << false;
        QTest::newRow("1280x720") << QSize(1130, 640) << true;
        QTest::newRow("1920x1080") << QSize(1770, 1000) << true;
    }
    void formTakesTheWidthItNeeds()
    {
        QFETCH(QSize, size);
        QFETCH(bool, whole);
        TrainingPage page(nullptr);
        page.resize(size);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        for (int i = 0; i < 4; ++i) { // the layouts settle (a layout request posts the next one)
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            QCoreApplication::processEvents();
        }
        auto* box = qobject_cast<ElidedComboBox*>(page.findChild<QComboBox*>(QStringLiteral("trainingDevice")));
        auto* scroll = page.findChild<QScrollArea*>(QStringLiteral("trainingFormScroll"));
        QVERIFY(box && scroll);
        box->setCurrentIndex(box->findData(QStringLiteral("auto")));
        if (whole)
            QCOMPARE(box->shownText(), box->currentText());
        // No sideways scroll: the form is as wide as the area shows, and the area is at most a third of the page.
        QVERIFY2(scroll->widget()->width() <= scroll->viewport()->width(),
                 qPrintable(QStringLiteral("form %1 px in %2 px").arg(scroll->widget()->width()).arg(scroll->viewport()->width())));
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        QVERIFY2(scroll->width() <= std::max(size.width() / 3, scroll->minimumSizeHint().width()),
                 qPrintable(QStringLiteral("form column %1 px of %2").arg(scroll->width()).arg(size.width())));
        qInfo("form column %d px at a page %d px wide; Device shows \"%s\"", scroll->width(), size.width(),
              qPrintable(box->shownText()));
    }

    // Each is an Input error (the CLI's exit 2): the page names the field to correct and puts the focus there.
    void badInputIsShown_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("field"); // the objectName of the field that gets the focus; empty: not checked
        QTest::newRow("hidden layer of 0") << "hidden" << "<b>Check Hidden layers:</b> --hidden '32,0'" << "";
        QTest::newRow("missing file") << "missing" << "<b>Check Input CSV:</b> --input " << "trainingInput";
        QTest::newRow("batch larger than the data") << "batch" << "<b>Check Batch size:</b> --batch-size" << "";
        QTest::newRow("malformed CSV: file and line") << "malformed" << "<b>Check Input CSV:</b> " << "trainingInput";
        QTest::newRow("too many processes for the GPUs")
            << "nproc" << "<b>Check Processes:</b> --nproc 3 with --device gpu:0,1" << "trainingProcesses";
    }
    void badInputIsShown()
    {
        QFETCH(QString, what);
        QFETCH(QString, expected);
        QFETCH(QString, field);
        TrainingPage page(nullptr);
        QVERIFY(showLikeAPerson(page));
        auto c = smallRun(QStringLiteral("bad-") + what);
        if (what == QStringLiteral("hidden"))
            c.hidden = {32, 0}; // the form's text "32,0"
        else if (what == QStringLiteral("missing"))
            c.input = m_dir.filePath(QStringLiteral("no-such-file.csv")).toStdString();
        else if (what == QStringLiteral("malformed")) {
            const QString bad = m_dir.filePath(QStringLiteral("malformed.csv"));
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("timestamp,open,high,low,close,volume\n"
                    "2024-03-04 09:30:00,5100.00,5101.00,5099.75,5100.50,120\n"
                    "2024-03-04 09:31:00,5100.50,not-a-price,5100.00,5101.00,80\n");
            f.close();
            c.input = bad.toStdString();
        } else if (what == QStringLiteral("nproc")) {
            c.device = training::DeviceSelection::onGpus({0, 1});
            c.processes = 3;
        } else {
            c.batchSize = 1000000;
        }
        page.form()->setConfig(c);
        QSignalSpy ended(&page, &TrainingPage::runEnded);
        page.start();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning() && ended.count() == 1, 30000);
        QCOMPARE(page.lastStatus(), QStringLiteral("failed"));
        qInfo("shown: %s", qPrintable(page.statusText()));
        QVERIFY2(page.statusText().contains(expected), qPrintable(page.statusText()));
        QVERIFY2(!page.statusText().contains(QStringLiteral("Training failed")), qPrintable(page.statusText()));
        if (!field.isEmpty())
            QTRY_VERIFY2(page.findChild<QWidget*>(field)->hasFocus(), qPrintable(field));
        QVERIFY(!QFileInfo::exists(QString::fromStdString(c.output + "/model.pt")));
        QVERIFY(page.findChild<QPushButton*>(QStringLiteral("trainingStart"))->isEnabled());
    }

    void runToTheEnd()
    {
        if (!m_moduleMissing.isEmpty())
            QSKIP(qPrintable(QStringLiteral("no libtorch module in this build: %1").arg(m_moduleMissing)));
        TrainingPage page(nullptr);
        QVERIFY(showLikeAPerson(page));
        QAbstractItemModelTester tester(page.epochModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto c = smallRun(QStringLiteral("whole"));
        c.epochs = 40; // a few seconds on the CPU: long enough for the stall meter to see many repaints
        c.batchSize = 32;
        c.stepInterval = 5;
        page.form()->setConfig(c);
        QSignalSpy ended(&page, &TrainingPage::runEnded);
        int observedSteps = 0; // what the main window forwards to the Monitor's allocator series
        page.setStepObserver([&observedSteps](const training::TrainingProgress& p) {
            QCOMPARE(p.kind, training::TrainingProgress::Kind::Step);
            ++observedSteps;
        });
        page.start();
        QVERIFY(page.isRunning());
        QVERIFY(page.stallMeter()->isRunning());
        QVERIFY(!page.findChild<QPushButton*>(QStringLiteral("trainingStart"))->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 120000);
        QCOMPARE(ended.count(), 1);
        QCOMPARE(page.lastStatus(), QStringLiteral("finished"));
        QCOMPARE(page.epochModel()->rowCount(), c.epochs);
        for (int r = 0; r < c.epochs; ++r)
            QCOMPARE(page.epochModel()->index(r, EpochTableModel::EpochColumn).data(EpochTableModel::SortRole).toInt(), r + 1);
        QVERIFY(page.epochModel()->table().bestEpoch >= 1);
        QVERIFY(page.charts()->trainLossPoints() > c.epochs); // several progress intervals per epoch
        QCOMPARE(observedSteps, page.charts()->trainLossPoints()); // one call per step report
        QCOMPARE(page.charts()->valLossPoints(), c.epochs);
        QVERIFY(page.charts()->samplesPoints() > 0);
        if (onCpu()) {
            // The CPU reports neither VRAM nor a caching allocator: the memory chart says so.
            QCOMPARE(page.charts()->memoryPoints(), 0);
            QVERIFY(page.charts()->memoryNoteShown());
        } else {
            QVERIFY(page.charts()->memoryPoints() > 0);
            QVERIFY(!page.charts()->memoryNoteShown());
        }
        QVERIFY(QFileInfo::exists(QString::fromStdString(c.output + "/model.pt")));
        QVERIFY(QFileInfo::exists(metadataPath(c)));
        QCOMPARE(QDir(page.outputFolder()).absolutePath(), QDir(QString::fromStdString(c.output)).absolutePath());
        QVERIFY(page.findChild<QPushButton*>(QStringLiteral("trainingOpenFolder"))->isEnabled());
        QVERIFY(page.findChild<QLabel*>(QStringLiteral("trainingOutputFolder"))->text().contains(page.outputFolder()));
        QVERIFY(!page.findChild<QPushButton*>(QStringLiteral("trainingResumeButton"))->isEnabled());
        QVERIFY(!page.stallMeter()->isRunning());
        QVERIFY(page.stallMeter()->ticks() > 0);
        const auto stall = page.findChild<QLabel*>(QStringLiteral("trainingStall"))->text();
        QVERIFY(stall.contains(QStringLiteral("longest GUI stall this run")));
        qInfo("GUI thread during a %d-epoch %s run: %d ticks of the 5 ms stall timer, %s; the page's own work: "
              "at most %.1f ms per update, %.1f ms per chart paint",
              c.epochs, qPrintable(device()), page.stallMeter()->ticks(), qPrintable(stall), page.longestUpdateMs(),
              page.charts()->longestPaintMs());
        QTest::qWait(50);
        save(page, "training-finished.png");
        page.findChild<QCheckBox*>(QStringLiteral("trainingLogScale"))->setChecked(true);
        QVERIFY(page.charts()->logScale());
        QCOMPARE(page.charts()->valLossPoints(), c.epochs);
        QTest::qWait(50); // the chart lays its new axis out in the event loop, as it would on screen
        save(page, "training-finished-log.png");
        page.findChild<QCheckBox*>(QStringLiteral("trainingLogScale"))->setChecked(false);
        QVERIFY(!page.charts()->logScale());

        // Start again with the same folder: a fresh run (not a resume) replaces the table.
        page.form()->setConfig(smallRun(QStringLiteral("second")));
        page.start();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 120000);
        QCOMPARE(page.lastStatus(), QStringLiteral("finished"));
        QCOMPARE(page.epochModel()->rowCount(), 4);
        QCOMPARE(page.charts()->valLossPoints(), 4);
    }

    void stopThenResume()
    {
        if (!m_moduleMissing.isEmpty())
            QSKIP(qPrintable(QStringLiteral("no libtorch module in this build: %1").arg(m_moduleMissing)));
        TrainingPage page(nullptr);
        QVERIFY(showLikeAPerson(page));
        QAbstractItemModelTester tester(page.epochModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto c = smallRun(QStringLiteral("stopped"));
        c.epochs = 300; // long enough that Stop lands in the middle
        c.batchSize = 16;
        c.stepInterval = 10;
        page.form()->setConfig(c);
        page.start();
        QTRY_VERIFY_WITH_TIMEOUT(page.epochModel()->rowCount() >= 1, 120000);
        QVERIFY2(page.isRunning(), "the run ended before Stop: give it more epochs");
        QTest::qWait(1500); // more epochs and repaints for the screenshot of a run in progress
        const QPixmap running = shoot(page, "training-running.png");
        QVERIFY2(page.isRunning(), "the run ended before Stop: give it more epochs");
        QElapsedTimer sinceStop;
        sinceStop.start();
        QTest::mouseClick(page.findChild<QPushButton*>(QStringLiteral("trainingStop")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 5000);
        const qint64 stopMs = sinceStop.elapsed();
        qInfo("stopped %lld ms after Stop; longest GUI stall %.1f ms (the page's own work: at most %.1f ms per "
              "update, %.1f ms per chart paint)",
              stopMs, page.stallMeter()->longestStallMs(), page.longestUpdateMs(), page.charts()->longestPaintMs());
        QVERIFY2(stopMs < 1000, qPrintable(QStringLiteral("stopped %1 ms after Stop").arg(stopMs)));
        QCOMPARE(page.lastStatus(), QStringLiteral("stopped"));
        const int checkpoint = page.checkpointEpoch();
        QVERIFY(checkpoint >= 1 && checkpoint < c.epochs);
        QVERIFY2(page.statusText().contains(QStringLiteral("last checkpoint: epoch %1").arg(checkpoint)),
                 qPrintable(page.statusText()));
        QVERIFY(QFileInfo::exists(QString::fromStdString(c.output + "/checkpoint.pt")));
        const auto saved = training::readMetadata(metadataPath(c).toStdString());
        QCOMPARE(saved["status"].get<std::string>(), std::string("stopped"));
        QCOMPARE(int(saved["epochs"].size()), checkpoint);
        QCOMPARE(page.epochModel()->rowCount(), checkpoint);
        auto* resume = page.findChild<QPushButton*>(QStringLiteral("trainingResumeButton"));
        QVERIFY(resume->isEnabled());
        save(running, "training-running.png");
        save(page, "training-stopped.png");

        QTest::mouseClick(resume, Qt::LeftButton);
        QVERIFY(page.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 300000);
        QCOMPARE(page.lastStatus(), QStringLiteral("finished"));
        QCOMPARE(page.epochModel()->rowCount(), c.epochs);
        for (int r = 0; r < c.epochs; ++r)
            QCOMPARE(page.epochModel()->index(r, EpochTableModel::EpochColumn).data(EpochTableModel::SortRole).toInt(), r + 1);
        QCOMPARE(page.charts()->valLossPoints(), c.epochs);
        const auto finished = training::readMetadata(metadataPath(c).toStdString());
        QCOMPARE(finished["status"].get<std::string>(), std::string("finished"));
        QCOMPARE(int(finished["epochs"].size()), c.epochs);
        QVERIFY(!page.form()->resume()); // the next Start is a new run unless asked otherwise
    }

    void closingThePageStopsTheRun()
    {
        if (!m_moduleMissing.isEmpty())
            QSKIP(qPrintable(QStringLiteral("no libtorch module in this build: %1").arg(m_moduleMissing)));
        auto c = smallRun(QStringLiteral("closed"));
        c.epochs = 300;
        c.batchSize = 16;
        auto* page = new TrainingPage(nullptr);
        page->form()->setConfig(c);
        page->start();
        QTRY_VERIFY_WITH_TIMEOUT(page->epochModel()->rowCount() >= 1, 120000);
        QVERIFY(page->isRunning());
        delete page; // the console closing mid-run: the job must stop, not train on for minutes
        QElapsedTimer clock;
        clock.start();
        QVERIFY(TaskRunner::shared().waitForDone(std::chrono::milliseconds(5000)));
        qInfo("the job ended %lld ms after the page was deleted", clock.elapsed());
        const auto saved = training::readMetadata(metadataPath(c).toStdString());
        QCOMPARE(saved["status"].get<std::string>(), std::string("stopped"));
        QVERIFY(QFileInfo::exists(QString::fromStdString(c.output + "/checkpoint.pt")));
    }

    void resumeAfterReopening()
    {
        if (!m_moduleMissing.isEmpty())
            QSKIP(qPrintable(QStringLiteral("no libtorch module in this build: %1").arg(m_moduleMissing)));
        // A stopped run, then a new page (the console restarted) resumes it from the folder alone.
        auto c = smallRun(QStringLiteral("reopened"));
        c.epochs = 3;
        {
            TrainingPage first(nullptr);
            first.form()->setConfig(c);
            first.start();
            QTRY_VERIFY_WITH_TIMEOUT(!first.isRunning(), 120000);
            QCOMPARE(first.lastStatus(), QStringLiteral("finished"));
        }
        TrainingPage page(nullptr);
        c.epochs = 5;
        c.resume = true;
        page.form()->setConfig(c);
        page.start();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 120000);
        QCOMPARE(page.lastStatus(), QStringLiteral("finished"));
        QCOMPARE(page.epochModel()->rowCount(), 5);
        QCOMPARE(page.charts()->valLossPoints(), 5);
    }
};

QTEST_MAIN(TestTrainingPage)
#include "tst_training_page.moc"
