// The Training page offers one GPU when the trainer measured it faster than the run's processes (issue 37): a live
// run's note with the figures, or a recorded run's device_advice, shows the box with both figures and a button that
// sets the form's Device to the suggested GPU (one process) without starting anything. No GPU is needed: the
// progress values are fed to the page's controller as the run's inbox would.
#include "core/training/training_metadata.h"
#include "core/training/training_run.h"
#include "ui/training/training_form.h"
#include "ui/training/training_page.h"
#include "ui/training/training_run_controller.h"

#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QStandardPaths>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

const QString kFixture = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/training/device_advice/model_metadata.json");

training::DeviceAdvice oneGpuFaster()
{
    training::DeviceAdvice a;
    a.kind = training::DeviceAdvice::Kind::FewerGpusFaster;
    a.processes = 2;
    a.ranksStepsPerS = 508;
    a.oneGpuStepsPerS = 11688;
    a.gpu = 0;
    a.suggestedDevice = "gpu:0";
    a.message = "2 processes run 508 steps/s; one GPU with the fused step kernel ran 11688 steps/s (GPU 0, measured "
                "in this run): 23.0x faster. This model is too small to gain from several GPUs: train it with "
                "--device gpu:0 (--device auto picks one GPU)";
    return a;
}

training::TrainingProgress note(const std::string& message, std::optional<training::DeviceAdvice> advice)
{
    training::TrainingProgress p;
    p.kind = training::TrainingProgress::Kind::Note;
    p.message = message;
    p.deviceAdvice = std::move(advice);
    return p;
}

} // namespace

class TestTrainingDeviceAdvice : public QObject {
    Q_OBJECT
private:
    static QWidget* box(TrainingPage& page) { return page.findChild<QWidget*>(QStringLiteral("trainingDeviceAdvice")); }
    static QLabel* text(TrainingPage& page) { return page.findChild<QLabel*>(QStringLiteral("trainingDeviceAdviceText")); }
    static QPushButton* button(TrainingPage& page)
    {
        return page.findChild<QPushButton*>(QStringLiteral("trainingUseSuggestedDevice"));
    }

    // The form as a person left it for a two-GPU run: Device gpu:0,1, two processes named explicitly.
    static void twoGpuForm(TrainingPage& page)
    {
        auto c = page.form()->config();
        c.device = training::parseDevices("gpu:0,1");
        c.processes = 2;
        page.form()->setConfig(c);
    }

    static nlohmann::json fixture()
    {
        return training::readMetadata(kFixture.toStdString());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    // Which notes of a live run bring the box: only one GPU measured faster, with every figure.
    void liveNotes_data()
    {
        QTest::addColumn<int>("which"); // 0: one GPU faster, 1: several GPUs faster, 2: a plain note
        QTest::addColumn<bool>("shown");
        QTest::newRow("one GPU faster") << 0 << true;
        QTest::newRow("several GPUs faster") << 1 << false;
        QTest::newRow("a plain note") << 2 << false;
    }
    void liveNotes()
    {
        QFETCH(int, which);
        QFETCH(bool, shown);
        TrainingPage page(nullptr);
        page.resize(1130, 780);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(box(page) && text(page) && button(page));
        QVERIFY(!box(page)->isVisible()); // nothing before a run says so
        auto advice = oneGpuFaster();
        if (which == 1) {
            advice.kind = training::DeviceAdvice::Kind::SeveralGpusFaster;
            advice.suggestedDevice.clear();
            advice.ranksStepsPerS = 336;
            advice.oneGpuStepsPerS = 209;
        }
        const auto p = which == 2 ? note("CUDA graph of the whole step", std::nullopt) : note(advice.message, advice);
        page.run()->handle(p);
        QCOMPARE(box(page)->isVisible(), shown);
        QCOMPARE(bool(page.run()->deviceAdvice()), which != 2);
        // The boxed sentence is not repeated among the notes under the status line; the others are.
        QCOMPARE(page.run()->live().notes.contains(QString::fromStdString(p.message)), !shown);
        if (!shown)
            return;
        const QString t = text(page)->text();
        QVERIFY2(t.contains(QStringLiteral("One GPU is 23.0x faster")), qPrintable(t));
        QVERIFY2(t.contains(QStringLiteral("2 processes ran 508 steps/s")), qPrintable(t));
        QVERIFY2(t.contains(QStringLiteral("ran 11,688 steps/s")), qPrintable(t));
        QCOMPARE(button(page)->text(), QStringLiteral("Train on one GPU (gpu:0)"));
        QVERIFY(button(page)->isEnabled());
    }

    // The button sets Device (and one process) and starts nothing; Start would then train on gpu:0.
    void theButtonSetsTheDevice()
    {
        TrainingPage page(nullptr);
        twoGpuForm(page);
        page.run()->handle(note(oneGpuFaster().message, oneGpuFaster()));
        QTest::mouseClick(button(page), Qt::LeftButton);
        const auto c = page.form()->config();
        QCOMPARE(QString::fromStdString(c.device.toString()), QStringLiteral("gpu:0"));
        QCOMPARE(c.processes, 0); // one per GPU of the device: one
        QVERIFY(!page.isRunning());
        QVERIFY(page.lastStatus().isEmpty()); // no run started, none refused
    }

    // Rank 0 on another GPU: the advice names that GPU, the button sets it.
    void theSuggestedGpuIsTheMeasuredOne()
    {
        TrainingPage page(nullptr);
        twoGpuForm(page);
        auto advice = oneGpuFaster();
        advice.gpu = 1;
        advice.suggestedDevice = "gpu:1";
        page.run()->handle(note(advice.message, advice));
        QCOMPARE(button(page)->text(), QStringLiteral("Train on one GPU (gpu:1)"));
        QVERIFY(page.useSuggestedDevice());
        QCOMPARE(QString::fromStdString(page.form()->config().device.toString()), QStringLiteral("gpu:1"));
    }

    // Without advice the page changes nothing (a call from elsewhere, a shortcut).
    void noAdviceNoChange()
    {
        TrainingPage page(nullptr);
        twoGpuForm(page);
        QVERIFY(!page.useSuggestedDevice());
        QCOMPARE(QString::fromStdString(page.form()->config().device.toString()), QStringLiteral("gpu:0,1"));
    }

    // A field being edited makes the form unreadable: the button names the field instead of guessing.
    void aBadFieldIsNamed()
    {
        TrainingPage page(nullptr);
        page.run()->handle(note(oneGpuFaster().message, oneGpuFaster()));
        auto* output = page.findChild<QLineEdit*>(QStringLiteral("trainingOutput"));
        QVERIFY(output);
        output->clear();
        QVERIFY(!page.useSuggestedDevice());
        QVERIFY2(page.statusText().contains(QStringLiteral("--output")) ||
                     page.statusText().contains(QStringLiteral("utput folder")),
                 qPrintable(page.statusText()));
        QVERIFY(output->text().isEmpty()); // the form as it was: nothing half set
    }

    // A recorded run (a report's "training", model_metadata.json) with device_advice shows the box; the form gets
    // the run's options (gpu:0,1) and the button sets gpu:0, marking the shown results out of date.
    void aRecordedRunCarriesTheAdvice()
    {
        TrainingPage page(nullptr);
        page.resize(1130, 780);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        const auto run = training::recordedTrainingRun(fixture());
        QVERIFY(run.deviceAdvice);
        QVERIFY(page.showRecordedRun(run, QStringLiteral("report test")));
        QVERIFY(box(page)->isVisible());
        QVERIFY2(text(page)->text().contains(QStringLiteral("11,688")), qPrintable(text(page)->text()));
        QCOMPARE(QString::fromStdString(page.form()->config().device.toString()), QStringLiteral("gpu:0,1"));
        QVERIFY(!page.resultsStale());
        QTest::mouseClick(button(page), Qt::LeftButton);
        QCOMPARE(QString::fromStdString(page.form()->config().device.toString()), QStringLiteral("gpu:0"));
        QVERIFY(page.resultsStale());
        QVERIFY2(page.staleText().contains(QStringLiteral("gpu:0")), qPrintable(page.staleText()));
        page.resize(1024, 640); // the README's smallest window, for a person to look at
        QTest::qWait(50);
        const QString shot = QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/training_device_advice_clicked.png");
        QVERIFY2(page.grab().save(shot), qPrintable(shot));
        qInfo("screenshot: %s", qPrintable(shot));
        page.clearRecordedRun();
        QVERIFY(!box(page)->isVisible());
        QVERIFY(!page.run()->deviceAdvice());
    }

    // A recorded run without it (one process, an older record) shows no box, and replaces a box shown before.
    void aRecordWithoutAdviceShowsNone()
    {
        TrainingPage page(nullptr);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto record = fixture();
        QVERIFY(page.showRecordedRun(training::recordedTrainingRun(record), QStringLiteral("report a")));
        QVERIFY(box(page)->isVisible());
        record.erase("device_advice");
        QVERIFY(page.showRecordedRun(training::recordedTrainingRun(record), QStringLiteral("report b")));
        QVERIFY(!box(page)->isVisible());
        QVERIFY(!page.useSuggestedDevice());
    }
};

QTEST_MAIN(TestTrainingDeviceAdvice)
#include "tst_training_device_advice.moc"
