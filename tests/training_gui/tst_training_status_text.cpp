// The Training page's sentences from values: durations, the progress line and fraction, how a run ended, a recorded
// run's origin and options.
#include "ui/training/training_status_text.h"

#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

training::TrainingProgress stepAt(int epoch, int64_t step, int64_t perEpoch)
{
    training::TrainingProgress p;
    p.kind = training::TrainingProgress::Kind::Step;
    p.epoch = epoch;
    p.step = step;
    p.stepsPerEpoch = perEpoch;
    p.loss = 0.012345;
    p.samplesPerS = 52000;
    p.etaS = 65;
    return p;
}

} // namespace

class TestTrainingStatusText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void durations_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("not known yet") << -1.0 << "estimating…";
        QTest::newRow("seconds") << 12.4 << "12 s";
        QTest::newRow("minutes") << 185.0 << "3 min 05 s";
        QTest::newRow("hours") << 3720.0 << "1 h 02 min";
    }
    void durations()
    {
        QFETCH(double, seconds);
        QFETCH(QString, text);
        QCOMPARE(durationText(seconds), text);
    }

    void fraction_data()
    {
        QTest::addColumn<int>("epoch");
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("firstEpoch");
        QTest::addColumn<int>("planned");
        QTest::addColumn<double>("fraction");
        QTest::newRow("half of the first of two") << 1 << 5 << 1 << 2 << 0.25;
        QTest::newRow("resumed at 3 of 4: half of the third") << 3 << 5 << 3 << 4 << 0.25;
        QTest::newRow("past the plan stays whole") << 5 << 10 << 1 << 4 << 1.0;
    }
    void fraction()
    {
        QFETCH(int, epoch);
        QFETCH(int, step);
        QFETCH(int, firstEpoch);
        QFETCH(int, planned);
        QFETCH(double, fraction);
        QCOMPARE(progressFraction(stepAt(epoch, step, 10), firstEpoch, planned), fraction);
    }

    void progressLine()
    {
        const QString text = progressText(stepAt(2, 40, 120), 10);
        QVERIFY2(text.startsWith(QStringLiteral("Epoch 2 of 10 · step 40 of 120 · loss 0.01235 · ")), qPrintable(text));
        QVERIFY2(text.endsWith(QStringLiteral("samples/s · ETA 1 min 05 s")), qPrintable(text));
    }

    void ended_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("checkpoint");
        QTest::addColumn<double>("afterStop");
        QTest::addColumn<QString>("expected");
        using S = training::TrainingStatus;
        QTest::newRow("finished") << int(S::Finished) << 4 << -1.0 << "Finished 4 epochs; best epoch 3";
        QTest::newRow("stopped with a checkpoint")
            << int(S::Stopped) << 2 << 0.05 << "Stopped 0.05 s after Stop, last checkpoint: epoch 2; best epoch 3";
        QTest::newRow("stopped before the first epoch")
            << int(S::Stopped) << 0 << 0.5 << "before the first epoch finished: no checkpoint was written";
        QTest::newRow("early stop") << int(S::EarlyStopped) << 7 << -1.0 << "Stopped early after epoch 7";
    }
    void ended()
    {
        QFETCH(int, status);
        QFETCH(int, checkpoint);
        QFETCH(double, afterStop);
        QFETCH(QString, expected);
        training::TrainingResult r;
        r.status = static_cast<training::TrainingStatus>(status);
        r.bestEpoch = 3;
        r.bestValLoss = 0.5;
        const QString text = endedText(r, checkpoint, afterStop);
        QVERIFY2(text.contains(expected), qPrintable(text));
    }

    // The trainer measured one GPU faster than the ranks: both figures and the ratio, the button names the device.
    void deviceAdvice()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        training::DeviceAdvice a;
        a.processes = 2;
        a.ranksStepsPerS = 508;
        a.oneGpuStepsPerS = 11688;
        a.gpu = 1;
        a.suggestedDevice = "gpu:1";
        const QString text = deviceAdviceText(a);
        QVERIFY2(text.contains(QStringLiteral("One GPU is 23.0x faster for this model.")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("2 processes ran 508 steps/s; one GPU (GPU 1, with the fused step kernel) "
                                              "ran 11,688 steps/s")),
                 qPrintable(text));
        QCOMPARE(deviceAdviceButtonText(a), QStringLiteral("Train on one GPU (gpu:1)"));
        QVERIFY(deviceAdviceButtonToolTip(a).contains(QStringLiteral("--device gpu:1")));
        QLocale::setDefault(QLocale::c());
    }

    // The advice has its own box: its sentence is not repeated among the ended run's notes; several GPUs being
    // faster stays a note.
    void endedDetailsLeaveTheAdviceToItsBox_data()
    {
        QTest::addColumn<bool>("oneGpuFaster");
        QTest::addColumn<bool>("listed");
        QTest::newRow("one GPU faster: in its box") << true << false;
        QTest::newRow("several GPUs faster: a note") << false << true;
    }
    void endedDetailsLeaveTheAdviceToItsBox()
    {
        QFETCH(bool, oneGpuFaster);
        QFETCH(bool, listed);
        training::TrainingResult r;
        r.notes = {"CUDA graph of the whole step", "2 processes run 508 steps/s; ..."};
        training::DeviceAdvice a;
        a.kind = oneGpuFaster ? training::DeviceAdvice::Kind::FewerGpusFaster
                              : training::DeviceAdvice::Kind::SeveralGpusFaster;
        a.message = r.notes.back();
        r.deviceAdvice = a;
        const QString details = endedDetails(QStringLiteral("NVIDIA H200"), r);
        QVERIFY2(details.contains(QStringLiteral("CUDA graph of the whole step")), qPrintable(details));
        QCOMPARE(details.contains(QStringLiteral("508 steps/s")), listed);
    }

    // What the run does not say reads as not said, never as a placeholder.
    void unknownsStayUnknown()
    {
        training::TrainingResult r;
        QVERIFY(endedDetails(QString(), r).contains(QStringLiteral("devices not reported")));
        training::RecordedTrainingRun run;
        run.epochs.push_back({1, 0.5, 0.6, 1000, 1});
        const QString text = recordedText(run, QStringLiteral("report x"));
        QVERIFY2(text.contains(QStringLiteral("status unknown, best epoch unknown")), qPrintable(text));
        QCOMPARE(recordedDetails(run), QStringLiteral("The report does not say which options the run had."));
        run.config = training::TrainingConfig {};
        run.config->input = "/data/es.csv";
        run.config->device = training::DeviceSelection::onGpus({0, 1});
        run.devices = {"NVIDIA H100 80GB HBM3"};
        const QString details = recordedDetails(run);
        QVERIFY2(details.contains(QStringLiteral("device gpu:0,1")), qPrintable(details));
        QVERIFY2(details.endsWith(QStringLiteral(" on NVIDIA H100 80GB HBM3")), qPrintable(details));
    }
};

QTEST_MAIN(TestTrainingStatusText)
#include "tst_training_status_text.moc"
