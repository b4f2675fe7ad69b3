// The trainer through the torch module: it learns, it is deterministic, resume equals an uninterrupted
// run, stop keeps the last checkpoint, model.pt round-trips, and bad configurations write nothing.
#include "core/training/training_files_check.h"
#include "core/training/training_metadata.h"
#include "core/training/training_run.h"
#include "core/util/sha256.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <stdexcept>

using namespace stackscope::training;
using stackscope::CancelToken;
using stackscope::sha256File;

namespace {

// A learnable synthetic dataset (no market data needed): y is a smooth function of x.
Dataset synthetic(int64_t rows, uint64_t seed = 3)
{
    Dataset d;
    d.names = {"a", "b", "c", "d"};
    d.cols = 4;
    d.rows = rows;
    d.targetName = "y";
    d.inputSha256 = std::string(64, '0');
    uint64_t s = seed;
    auto next = [&s] {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<float>((s >> 33) % 2000001) / 1000000.0f - 1.0f;
    };
    for (int64_t r = 0; r < rows; ++r) {
        float v[4];
        for (float& f : v)
            f = next();
        d.x.insert(d.x.end(), v, v + 4);
        d.y.push_back(2.0f * std::sin(3.0f * v[0]) + v[1] * v[2] - 0.5f * v[3]);
        d.timeUs.push_back(r);
    }
    return d;
}

TrainingConfig config(const QTemporaryDir& dir, const char* name)
{
    TrainingConfig c;
    c.input = "synthetic";
    c.output = dir.filePath(QString::fromUtf8(name)).toStdString();
    c.device = DeviceSelection::cpu();
    c.hidden = {32, 16};
    c.epochs = 4;
    c.batchSize = 32;
    c.learningRate = 3e-3;
    c.patience = 0;
    c.validationFraction = 0.2;
    c.stepInterval = 5;
    return c;
}

std::vector<double> valLosses(const TrainingResult& r)
{
    std::vector<double> out;
    for (const auto& e : r.epochs)
        out.push_back(e.valLoss);
    return out;
}

} // namespace

class TestTrainingRun : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        try {
            trainerModule();
        } catch (const std::exception& e) {
            QSKIP(qPrintable(QStringLiteral("no libtorch module in this build: %1").arg(QString::fromUtf8(e.what()))));
        }
    }

    // The host's own failure while it handles an event (here the progress receiver throws at the first epoch, as
    // a disk error under model_metadata.json would) comes back as itself: no C++ exception crosses the module's C
    // ABI, the module stops before it renames the epoch's files, and the message is not blamed on libtorch.
    void aHostFailureInAnEventIsReportedAsItself()
    {
        QTemporaryDir dir;
        auto c = config(dir, "host-failure");
        c.epochs = 2;
        bool thrown = false;
        try {
            trainOnDataset(c, synthetic(256), [](const TrainingProgress& p) {
                if (p.kind == TrainingProgress::Kind::Epoch)
                    throw std::runtime_error("the receiver went away");
            });
        } catch (const std::runtime_error& e) {
            thrown = true;
            QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("the receiver went away"));
        }
        QVERIFY(thrown);
        QVERIFY2(!QFile::exists(QString::fromStdString(c.output + "/checkpoint.pt")), "the epoch's files were committed");
        QVERIFY2(!QFile::exists(QString::fromStdString(c.output + "/model.pt")), "the epoch's files were committed");
    }

    void overfitsATinyDataset()
    {
        QTemporaryDir dir;
        auto c = config(dir, "overfit");
        c.hidden = {64, 64};
        c.epochs = 150;
        c.batchSize = 16;
        c.validationFraction = 0.1;
        c.clipNorm = 0;
        const auto r = trainOnDataset(c, synthetic(256));
        QCOMPARE(trainingStatusName(r->status), "finished");
        QCOMPARE(r->epochs.size(), size_t {150});
        const double first = r->epochs.front().trainLoss;
        const double last = r->epochs.back().trainLoss;
        QVERIFY2(last * 10 < first, qPrintable(QStringLiteral("training loss %1 -> %2").arg(first).arg(last)));
    }

    void sameSeedSameMetrics()
    {
        QTemporaryDir dir;
        const auto a = trainOnDataset(config(dir, "a"), synthetic(800));
        const auto b = trainOnDataset(config(dir, "b"), synthetic(800));
        QCOMPARE(valLosses(*a), valLosses(*b));
        auto c = config(dir, "c");
        c.seed = 43;
        const auto other = trainOnDataset(c, synthetic(800));
        QVERIFY(valLosses(*other) != valLosses(*a));
    }

    void resumeEqualsUninterrupted()
    {
        QTemporaryDir dir;
        auto uninterrupted = config(dir, "whole");
        uninterrupted.stepInterval = 1; // the same loss readings (summation order) as the stopped run
        const auto whole = trainOnDataset(uninterrupted, synthetic(800));

        // Stopped part way through epoch 3: the checkpoint of epoch 2 stays; resuming redoes epoch 3.
        auto c = config(dir, "parts");
        c.stepInterval = 1;
        CancelToken cancel;
        const auto first = trainOnDataset(c, synthetic(800), [&cancel](const TrainingProgress& p) {
            if (p.kind == TrainingProgress::Kind::Step && p.epoch == 3 && p.step == 4)
                cancel.cancel(); // the trainer asks before every step
        }, cancel);
        QCOMPARE(trainingStatusName(first->status), "stopped");
        QCOMPARE(first->epochs.size(), size_t {2});
        const auto saved = readMetadata(c.output + "/model_metadata.json");
        QCOMPARE(saved["epochs"].size(), size_t {2});

        c.resume = true;
        const auto rest = trainOnDataset(c, synthetic(800));
        QCOMPARE(trainingStatusName(rest->status), "finished");
        QCOMPARE(rest->epochs.size(), size_t {2});
        QCOMPARE(rest->epochs[0].epoch, 3);
        QCOMPARE(rest->epochs[0].valLoss, whole->epochs[2].valLoss);
        QCOMPARE(rest->epochs[1].valLoss, whole->epochs[3].valLoss);
        QCOMPARE(rest->epochs[1].trainLoss, whole->epochs[3].trainLoss);
        const auto metadata = readMetadata(c.output + "/model_metadata.json");
        QCOMPARE(metadata["epochs"].size(), size_t {4});
        QCOMPARE(metadata["status"].get<std::string>(), std::string("finished"));
    }

    void resumeWithOtherOptionsIsRefused()
    {
        QTemporaryDir dir;
        auto c = config(dir, "run");
        c.epochs = 1;
        trainOnDataset(c, synthetic(400));
        c.resume = true;
        c.learningRate = 0.1;
        QVERIFY_THROWS_EXCEPTION(ConfigError, trainOnDataset(c, synthetic(400)));
    }

    void modelFileRoundTrip()
    {
        QTemporaryDir dir;
        auto c = config(dir, "model");
        const auto r = trainOnDataset(c, synthetic(800));
        // model.pt holds the best epoch's weights: its predictions on the validation rows give that loss.
        Dataset d = synthetic(800);
        const int64_t train = trainingRows(d.rows, c.validationFraction);
        normalise(d, fitNormalisation(d, train));
        const auto predicted = predictRows(c, c.output + "/model.pt", d, train, d.rows - train);
        double sse = 0;
        for (int64_t i = 0; i < d.rows - train; ++i) {
            const double e = predicted[static_cast<size_t>(i)] - d.y[static_cast<size_t>(train + i)];
            sse += e * e;
        }
        const double loss = sse / static_cast<double>(d.rows - train);
        QVERIFY2(std::abs(loss - r->bestValLoss) <= 1e-4 * r->bestValLoss,
                 qPrintable(QStringLiteral("model.pt gives %1, the run said %2").arg(loss).arg(r->bestValLoss)));
        const auto metadata = readMetadata(c.output + "/model_metadata.json");
        QCOMPARE(metadata["best_epoch"].get<int>(), r->bestEpoch);
        QCOMPARE(metadata["features"].size(), size_t {4});
        QVERIFY(metadata["target"].contains("std"));
        QVERIFY(metadata["versions"].contains("libtorch"));
        QVERIFY(QFile::exists(QString::fromStdString(c.output + "/checkpoint.pt")));
        // Each epoch records the hash of the checkpoint it staged: the last one is the file's.
        QCOMPARE(metadata["epochs"].back()["checkpoint_sha256"].get<std::string>(), sha256File(c.output + "/checkpoint.pt"));
        auto checked = metadata;
        QCOMPARE(checkTrainingFiles(checked, c.output), std::string());
        QVERIFY(checked == metadata); // left as it was
    }

    void badConfigurationsWriteNothing_data()
    {
        QTest::addColumn<QString>("what");
        QTest::newRow("batch larger than data") << "batch";
        QTest::newRow("unknown GPU") << "gpu";
    }
    void badConfigurationsWriteNothing()
    {
        QFETCH(QString, what);
        QTemporaryDir dir;
        auto c = config(dir, "bad");
        if (what == "batch")
            c.batchSize = 100000;
        else
            c.device = DeviceSelection::onGpus({7});
        QString message;
        try {
            trainOnDataset(c, synthetic(400));
        } catch (const ConfigError& e) {
            message = QString::fromUtf8(e.what());
        }
        QVERIFY2(!message.isEmpty(), "a configuration error was expected");
        QVERIFY2(message.contains(what == "batch" ? QLatin1String("--batch-size") : QLatin1String("gpu:7")),
                 qPrintable(message));
        QVERIFY(!QDir(QString::fromStdString(c.output)).exists());
    }
};

QTEST_GUILESS_MAIN(TestTrainingRun)
#include "tst_training_run.moc"
