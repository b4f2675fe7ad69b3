// TrainingResultsPanel's words for a run: starting (fresh or resumed), live, ended (finished, stopped, early stopped),
// failed (whether its folder records it), recorded (a report's), the device advice box, and a folder that would not
// open. Each line checked where it is shown, by the object names the window's tests use.
#include "core/training/training_metadata.h"
#include "ui/training/training_page_widgets.h"
#include "ui/training/training_results_panel.h"
#include "ui/training/training_run_controller.h"

#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {
QString text(const TrainingResultsPanel& p, const char* name)
{
    const auto* label = p.findChild<QLabel*>(QString::fromLatin1(name));
    return label ? label->text() : QStringLiteral("<no label %1>").arg(QString::fromLatin1(name));
}

double progress(const TrainingResultsPanel& p)
{
    return p.findChild<ProgressStrip*>(QStringLiteral("trainingProgress"))->fraction();
}

bool canOpen(const TrainingResultsPanel& p)
{
    return p.findChild<QPushButton*>(QStringLiteral("trainingOpenFolder"))->isEnabled();
}
} // namespace

class TestTrainingResultsPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void starting_data()
    {
        QTest::addColumn<bool>("resume");
        QTest::addColumn<QString>("status");
        QTest::newRow("fresh") << false << "Reading /data/es.csv and building the features…";
        QTest::newRow("resumed") << true << "Resuming from /runs/run-1…";
    }
    void starting()
    {
        QFETCH(bool, resume);
        QFETCH(QString, status);
        TrainingResultsPanel p(nullptr);
        p.setProgress(1);
        p.setDetails(QStringLiteral("an older run's devices"));
        training::TrainingConfig c;
        c.input = "/data/es.csv";
        c.output = "/runs/run-1";
        c.resume = resume;
        p.showStarting(c);
        QCOMPARE(p.status(), status);
        QCOMPARE(text(p, "trainingOutputFolder"), QStringLiteral("Output folder: /runs/run-1 (being written)"));
        QVERIFY(!canOpen(p));
        QCOMPARE(progress(p), 0.0);
        QCOMPARE(text(p, "trainingDetails"), QString());
        QCOMPARE(text(p, "trainingStall"), QStringLiteral("measuring the GUI thread's longest stall…"));
    }

    // The progress line follows the last step, unless Stop was pressed (the status then says it is stopping).
    void live_data()
    {
        QTest::addColumn<bool>("stopRequested");
        QTest::newRow("running") << false;
        QTest::newRow("stopping") << true;
    }
    void live()
    {
        QFETCH(bool, stopRequested);
        TrainingResultsPanel p(nullptr);
        p.showStopping();
        const QString stopping = p.status();
        QVERIFY2(stopping.startsWith(QStringLiteral("Stopping…")), qPrintable(stopping));
        LiveRun live;
        live.devices = QStringLiteral("CPU");
        live.plannedEpochs = 4;
        training::TrainingProgress step;
        step.epoch = 2;
        step.epochs = 4;
        step.step = 5;
        step.stepsPerEpoch = 10;
        live.lastStep = step;
        p.showLive(live, stopRequested);
        QVERIFY2(text(p, "trainingDetails").contains(QStringLiteral("Training on CPU")), qPrintable(text(p, "trainingDetails")));
        if (stopRequested) {
            QCOMPARE(p.status(), stopping);
            QCOMPARE(progress(p), 0.0);
        } else {
            QVERIFY2(p.status().startsWith(QStringLiteral("Epoch 2 of 4")), qPrintable(p.status()));
            QVERIFY(progress(p) > 0.25 && progress(p) < 0.5);
        }
    }

    void ended_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<double>("progressAfter");
        QTest::addColumn<QString>("statusStart");
        QTest::newRow("finished") << int(training::TrainingStatus::Finished) << 1.0 << "Finished 3 epochs";
        QTest::newRow("early stopped") << int(training::TrainingStatus::EarlyStopped) << 1.0 << "Stopped early after epoch 3";
        QTest::newRow("stopped") << int(training::TrainingStatus::Stopped) << 0.5 << "Stopped 0.25 s after Stop, last checkpoint: epoch 3";
    }
    void ended()
    {
        QFETCH(int, status);
        QFETCH(double, progressAfter);
        QFETCH(QString, statusStart);
        TrainingResultsPanel p(nullptr);
        p.setProgress(0.5);
        training::TrainingResult r;
        r.status = training::TrainingStatus(status);
        r.bestEpoch = 2;
        r.execution = "eager (CPU)";
        p.showEnded(r, 0.25, 3, QStringLiteral("CPU"), QStringLiteral("/runs/run-1"));
        QVERIFY2(p.status().startsWith(statusStart), qPrintable(p.status()));
        QCOMPARE(progress(p), progressAfter);
        QVERIFY2(text(p, "trainingDetails").startsWith(QStringLiteral("Trained on CPU")), qPrintable(text(p, "trainingDetails")));
        QCOMPARE(text(p, "trainingOutputFolder"), QStringLiteral("Output folder: /runs/run-1"));
        QVERIFY(canOpen(p));
    }

    void failedOutput_data()
    {
        QTest::addColumn<bool>("recorded");
        QTest::addColumn<QString>("says");
        QTest::newRow("with model_metadata.json") << true << "records the failure";
        QTest::newRow("without") << false << "no record of this run there";
    }
    void failedOutput()
    {
        QFETCH(bool, recorded);
        QFETCH(QString, says);
        QTemporaryDir dir;
        if (recorded) {
            QFile f(dir.filePath(QStringLiteral("model_metadata.json")));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        TrainingResultsPanel p(nullptr);
        p.showFailedOutput(dir.path());
        QVERIFY2(text(p, "trainingOutputFolder").contains(says), qPrintable(text(p, "trainingOutputFolder")));
        QVERIFY(!canOpen(p));
    }

    void recorded()
    {
        TrainingResultsPanel p(nullptr);
        training::RecordedTrainingRun run;
        run.epochs.resize(3);
        run.bestEpoch = 2;
        run.status = "finished";
        run.devices = {"NVIDIA H200"};
        p.showRecorded(run, QStringLiteral("report r1"));
        QVERIFY2(p.status().startsWith(QStringLiteral("Training run from report r1")), qPrintable(p.status()));
        QCOMPARE(text(p, "trainingOutputFolder"),
                 QStringLiteral("Output folder: not on this machine (the run is report r1's)."));
        QVERIFY(!canOpen(p));
        QCOMPARE(progress(p), 1.0);
    }

    // Only "one GPU is faster" shows the box, with its button; any other advice, or none, hides it.
    void deviceAdvice_data()
    {
        QTest::addColumn<int>("kind"); // -1: no advice
        QTest::addColumn<bool>("shown");
        QTest::newRow("one GPU faster") << int(training::DeviceAdvice::Kind::FewerGpusFaster) << true;
        QTest::newRow("several GPUs faster") << int(training::DeviceAdvice::Kind::SeveralGpusFaster) << false;
        QTest::newRow("none") << -1 << false;
    }
    void deviceAdvice()
    {
        QFETCH(int, kind);
        QFETCH(bool, shown);
        TrainingResultsPanel p(nullptr);
        training::DeviceAdvice faster;
        faster.processes = 2;
        faster.ranksStepsPerS = 500;
        faster.oneGpuStepsPerS = 11000;
        faster.gpu = 0;
        faster.suggestedDevice = "gpu:0";
        p.showDeviceAdvice(faster); // shown first, so a hide is seen
        auto* box = p.findChild<QWidget*>(QStringLiteral("trainingDeviceAdvice"));
        QVERIFY(!box->isHidden());
        std::optional<training::DeviceAdvice> advice;
        if (kind >= 0) {
            advice = faster;
            advice->kind = training::DeviceAdvice::Kind(kind);
        }
        p.showDeviceAdvice(advice);
        QCOMPARE(!box->isHidden(), shown);
        if (shown)
            QCOMPARE(p.findChild<QPushButton*>(QStringLiteral("trainingUseSuggestedDevice"))->text(),
                     QStringLiteral("Train on one GPU (gpu:0)"));
    }

    void openFolderFailed()
    {
        TrainingResultsPanel p(nullptr);
        p.showOpenFolderFailed(QStringLiteral("/runs/<run>"));
        QVERIFY2(p.status().contains(QStringLiteral("Could not open /runs/&lt;run&gt; with the desktop's file manager")),
                 qPrintable(p.status()));
    }
};

QTEST_MAIN(TestTrainingResultsPanel)
#include "tst_training_results_panel.moc"
