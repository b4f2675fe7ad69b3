// Results know their inputs on the Training page: the summary of a run's options and the options changed since, and
// the page's out-of-date banner after a change (shown, then cleared by the same value back).
#include "ui/training/training_form.h"
#include "ui/training/training_option_changes.h"
#include "ui/training/training_page.h"

#include <QtTest>

#include <functional>

using namespace stackscope;
using namespace stackscope::ui;

Q_DECLARE_METATYPE(std::function<void(training::TrainingConfig&)>)

class TestTrainingOptionChanges : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void changes_data()
    {
        using F = std::function<void(training::TrainingConfig&)>;
        QTest::addColumn<F>("change");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("nothing") << F([](training::TrainingConfig&) {}) << QStringList {};
        QTest::newRow("epochs") << F([](training::TrainingConfig& c) { c.epochs = 20; }) << QStringList { "epochs 20" };
        QTest::newRow("learning rate and seed") << F([](training::TrainingConfig& c) {
            c.learningRate = 3e-4;
            c.seed = 7;
        }) << QStringList { "learning rate 0.0003", "seed 7" };
        QTest::newRow("hidden") << F([](training::TrainingConfig& c) { c.hidden = { 64 }; })
                                << QStringList { "hidden 64" };
        QTest::newRow("another file of the same name")
            << F([](training::TrainingConfig& c) { c.input = "/elsewhere/bars.csv"; })
            << QStringList { "data bars.csv" };
        QTest::newRow("output folder does not count")
            << F([](training::TrainingConfig& c) { c.output = "/tmp/other"; }) << QStringList {};
        QTest::newRow("progress interval does not count")
            << F([](training::TrainingConfig& c) { c.stepInterval = 5; }) << QStringList {};
        QTest::newRow("device") << F([](training::TrainingConfig& c) { c.device = training::DeviceSelection::cpu(); })
                                << QStringList { "device cpu" };
    }
    void changes()
    {
        QFETCH(std::function<void(training::TrainingConfig&)>, change);
        QFETCH(QStringList, expected);
        training::TrainingConfig ran;
        ran.input = "/data/bars.csv";
        ran.output = "/tmp/run";
        training::TrainingConfig now = ran;
        change(now);
        QCOMPARE(trainingOptionChanges(ran, now), expected);
        const QString summary = trainingOptionsSummary(ran);
        QVERIFY(summary.startsWith(QStringLiteral("data bars.csv, epochs 10, batch 256, learning rate 0.001")));
        QVERIFY(!summary.contains(QStringLiteral("device"))); // the default is not said
    }
};

QTEST_MAIN(TestTrainingOptionChanges)
#include "tst_training_option_changes.moc"
