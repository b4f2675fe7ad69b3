// A recorded training run (model_metadata.json, a report's "training") read for a page: epochs, best epoch, status,
// devices and options; what the record does not say stays unknown, and nothing in it makes the reader throw.
#include "core/training/training_metadata.h"

#include <QtTest>

using namespace stackscope;
using namespace stackscope::training;
using nlohmann::json;

class TestTrainingRecorded : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void read_data()
    {
        TrainingConfig c;
        c.input = "es.csv";
        c.output = "out";
        c.device = DeviceSelection::onGpus({0, 1});
        const json epochs = json::array({{{"epoch", 1}, {"train_loss", 0.5}, {"val_loss", 0.6}, {"samples_per_s", 1e5}},
                                         {{"epoch", 2}, {"train_loss", 0.4}, {"val_loss", 0.55}}});
        QTest::addColumn<QString>("record"); // JSON text
        QTest::addColumn<int>("epochs");
        QTest::addColumn<int>("best");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("devices");
        QTest::addColumn<QString>("device"); // of the options read back; empty: none
        const json whole = {{"status", "finished"},    {"best_epoch", 2}, {"epochs", epochs},
                            {"devices", {"NVIDIA H100 80GB HBM3"}}, {"config", toJson(c)}};
        QTest::newRow("a whole record") << QString::fromStdString(whole.dump()) << 2 << 2 << "finished"
                                        << "NVIDIA H100 80GB HBM3" << "gpu:0,1";
        json older = whole;
        older["config"] = {{"epochs", 10}}; // an older report's options: the epochs still show
        older.erase("status");
        QTest::newRow("an older record's options") << QString::fromStdString(older.dump()) << 2 << 2 << "unknown"
                                                   << "NVIDIA H100 80GB HBM3" << "";
        QTest::newRow("odd types") << QStringLiteral("{\"epochs\": [3, {\"epoch\": \"x\"}], \"best_epoch\": 1.5, "
                                                     "\"status\": 7, \"devices\": [0], \"config\": []}")
                                   << 1 << 0 << "unknown" << "0" << "";
        QTest::newRow("not an object") << QStringLiteral("[1, 2]") << 0 << 0 << "unknown" << "" << "";
    }
    void read()
    {
        QFETCH(QString, record);
        QFETCH(int, epochs);
        QFETCH(int, best);
        QFETCH(QString, status);
        QFETCH(QString, devices);
        QFETCH(QString, device);
        const auto run = recordedTrainingRun(json::parse(record.toStdString()));
        QCOMPARE(int(run.epochs.size()), epochs);
        QCOMPARE(run.bestEpoch, best);
        QCOMPARE(QString::fromStdString(run.status), status);
        QStringList names;
        for (const auto& d : run.devices)
            names << QString::fromStdString(d);
        QCOMPARE(names.join(QStringLiteral(", ")), devices);
        QCOMPARE(run.config ? QString::fromStdString(run.config->device.toString()) : QString(), device);
    }

    void epochFigures()
    {
        const json record = {{"epochs", json::array({{{"epoch", 4}, {"train_loss", 0.25}, {"val_loss", 0.5},
                                                      {"samples_per_s", 1000}, {"seconds", 2.5}}})}};
        const auto run = recordedTrainingRun(record);
        QCOMPARE(run.epochs.size(), size_t {1});
        const auto& e = run.epochs.front();
        QCOMPARE(e.epoch, 4);
        QCOMPARE(e.trainLoss, 0.25);
        QCOMPARE(e.valLoss, 0.5);
        QCOMPARE(e.samplesPerS, 1000.0);
        QCOMPARE(e.seconds, 2.5);
    }
};

QTEST_MAIN(TestTrainingRecorded)
#include "tst_training_recorded.moc"
