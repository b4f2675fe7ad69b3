// training_run_options: whether a configuration may start (validate, then the input file unless it is the sample), the
// configuration the device advice suggests (the device and one process), and a recorded run's options on this machine.
#include "ui/training/training_run_options.h"

#include <QtTest>

#include <functional>

using namespace stackscope;
using namespace stackscope::ui;

using Change = std::function<void(training::TrainingConfig&)>;
Q_DECLARE_METATYPE(Change)

namespace {
const std::string kCsv = STACKSCOPE_TEST_FIXTURES "/market/es_tradestation.csv";

training::TrainingConfig startable()
{
    training::TrainingConfig c;
    c.input = kCsv;
    c.output = "/tmp/stackscope-run-options-test";
    return c;
}
} // namespace

class TestTrainingRunOptions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void checkStartable_data()
    {
        QTest::addColumn<Change>("change");
        QTest::addColumn<bool>("sample");
        QTest::addColumn<QString>("refusal"); // the start of the ConfigError's message; empty: accepted
        QTest::newRow("a CSV that is there") << Change([](training::TrainingConfig&) {}) << false << "";
        QTest::newRow("no such input") << Change([](training::TrainingConfig& c) { c.input = "/nonexistent/bars.csv"; })
                                       << false << "--input /nonexistent/bars.csv: no such file";
        QTest::newRow("a folder as input") << Change([](training::TrainingConfig& c) { c.input = "/tmp"; }) << false
                                           << "--input /tmp: no such file";
        QTest::newRow("the sample, not written yet")
            << Change([](training::TrainingConfig& c) { c.input = "/nonexistent/sample.csv"; }) << true << "";
        QTest::newRow("validate first") << Change([](training::TrainingConfig& c) {
            c.input = "/nonexistent/bars.csv";
            c.epochs = 0;
        }) << false << "--epochs 0";
        QTest::newRow("no output folder") << Change([](training::TrainingConfig& c) { c.output.clear(); }) << true
                                          << "--output";
    }
    void checkStartable()
    {
        QFETCH(Change, change);
        QFETCH(bool, sample);
        QFETCH(QString, refusal);
        auto config = startable();
        change(config);
        QString said;
        try {
            ui::checkStartable(config, sample);
        } catch (const training::ConfigError& e) {
            said = QString::fromStdString(e.what());
        }
        if (refusal.isEmpty())
            QCOMPARE(said, QString());
        else
            QVERIFY2(said.startsWith(refusal), qPrintable(said));
    }

    void suggestedDevice_data()
    {
        QTest::addColumn<QString>("formDevice");
        QTest::addColumn<int>("formProcesses");
        QTest::addColumn<QString>("suggested");
        QTest::addColumn<QString>("device"); // empty: refused
        QTest::newRow("two GPUs to one") << "gpu:0,1" << 2 << "gpu:0" << "gpu:0";
        QTest::newRow("the second GPU") << "gpu:0,1" << 0 << "gpu:1" << "gpu:1";
        QTest::newRow("cuda: read as gpu:") << "gpu:0,1" << 2 << "cuda:1" << "gpu:1";
        QTest::newRow("no suggestion") << "gpu:0,1" << 2 << "" << "";
        QTest::newRow("not a device") << "gpu:0,1" << 2 << "tpu:0" << "";
    }
    void suggestedDevice()
    {
        QFETCH(QString, formDevice);
        QFETCH(int, formProcesses);
        QFETCH(QString, suggested);
        QFETCH(QString, device);
        auto config = startable();
        config.device = training::parseDevices(formDevice.toStdString());
        config.processes = formProcesses;
        config.epochs = 7;
        training::DeviceAdvice advice;
        advice.suggestedDevice = suggested.toStdString();
        std::optional<training::TrainingConfig> moved;
        QString refused;
        try {
            moved = withSuggestedDevice(config, advice);
        } catch (const training::ConfigError& e) {
            refused = QString::fromStdString(e.what());
        }
        if (device.isEmpty()) {
            QVERIFY(!moved);
            QVERIFY2(refused.startsWith(QStringLiteral("--device")), qPrintable(refused));
            return;
        }
        QVERIFY2(moved, qPrintable(refused));
        QCOMPARE(QString::fromStdString(moved->device.toString()), device);
        QCOMPARE(moved->processes, 0); // one GPU, one process
        QCOMPARE(moved->epochs, 7);    // the rest of the form stays
        QCOMPARE(moved->input, config.input);
    }

    void recordedRun_data()
    {
        QTest::addColumn<bool>("resume");
        QTest::newRow("a finished run") << false;
        QTest::newRow("a run that resumed") << true;
    }
    void recordedRun()
    {
        QFETCH(bool, resume);
        training::TrainingConfig recorded = startable();
        recorded.output = "/home/someone/runs/run-1";
        recorded.resume = resume;
        recorded.batchSize = 512;
        const auto here = recordedRunOnThisMachine(recorded, "/tmp/here/run-2");
        QCOMPARE(here.output, std::string("/tmp/here/run-2"));
        QCOMPARE(here.resume, false);
        QCOMPARE(here.batchSize, 512);
        QCOMPARE(here.input, recorded.input);
    }
};

QTEST_MAIN(TestTrainingRunOptions)
#include "tst_training_run_options.moc"
