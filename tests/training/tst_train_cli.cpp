// `stackscope-cli train`: the seed script's command line, JSON progress, and bad input (exit 2, nothing written).
#include "tests/common/cli_process.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using stackscope::test::runCli;

class TestTrainCli : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_bars;
    bool m_haveModule = false;

    QString path(const char* name) const { return m_dir.filePath(QString::fromUtf8(name)); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_bars = path("bars.csv");
        const auto r = runCli({"sample-data", "--out", m_bars, "--days", "3"});
        QCOMPARE(r.exitCode, 0);
        const auto probe = runCli({"inspect", "--json", "--no-archscan"});
        m_haveModule = QJsonDocument::fromJson(probe.out).object().value("torch").toObject().contains("version");
    }

    void seedCommandLine()
    {
        if (!m_haveModule)
            QSKIP("no libtorch module in this build");
        const QString out = path("TRAINING");
        const auto r = runCli({"train", "--data", m_bars, "--output", out, "--epochs", "3", "--batch_size", "8",
                               "--learning_rate", "0.0002", "--hidden_layers", "32,16", "--no_distributed",
                               "--device_ids", "0", "--chunk_size", "1000", "--skip_gpu_cleanup"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("--device_ids 0 -> --device gpu:0"), r.out.constData());
        QVERIFY(r.out.contains("--chunk_size 1000: not needed"));
        QFile f(out + "/model_metadata.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto meta = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(meta.value("status").toString(), QStringLiteral("finished"));
        QCOMPARE(meta.value("config").toObject().value("batch_size").toInt(), 8);
        QCOMPARE(meta.value("config").toObject().value("learning_rate").toDouble(), 0.0002);
        QCOMPARE(meta.value("epochs").toArray().size(), 3);
        QVERIFY(QFile::exists(out + "/model.pt"));
        if (!meta.value("devices").toArray().first().toString().contains("CPU"))
            return; // a GPU was there
        QVERIFY2(r.out.contains("training on the CPU"), r.out.constData()); // and it says so
    }

    void jsonProgress()
    {
        if (!m_haveModule)
            QSKIP("no libtorch module in this build");
        const auto r = runCli({"train", "--input", m_bars, "--output", path("json"), "--epochs", "2",
                               "--batch-size", "64", "--device", "cpu", "--step-interval", "10", "--json-progress"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        int steps = 0, epochs = 0, finished = 0;
        for (const auto& line : r.out.split('\n')) {
            if (line.isEmpty())
                continue;
            QJsonParseError error;
            const auto o = QJsonDocument::fromJson(line, &error).object();
            QVERIFY2(error.error == QJsonParseError::NoError, line.constData());
            const QString event = o.value("event").toString();
            if (event == "step") {
                ++steps;
                QVERIFY(o.contains("loss") && o.contains("samples_per_s") && o.contains("step"));
            } else if (event == "epoch") {
                ++epochs;
                QVERIFY(o.contains("val_loss"));
            } else if (event == "finished") {
                ++finished;
            }
        }
        QVERIFY(steps > 2);
        QCOMPARE(epochs, 2);
        QCOMPARE(finished, 1);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        QTest::newRow("hidden layer 0") << QStringList {"--hidden", "32,0"} << "0 units";
        QTest::newRow("unknown device") << QStringList {"--device", "npu:0"} << "gpu:N";
        QTest::newRow("batch larger than data") << QStringList {"--batch-size", "1000000"} << "--batch-size";
        QTest::newRow("precision") << QStringList {"--precision", "fp16"} << "fp32 or bf16";
    }
    void badInput()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        const QString out = path("never");
        QStringList args {"train", "--input", m_bars, "--output", out};
        if (!extra.contains(QLatin1String("--device")))
            args << "--device" << "cpu";
        const auto r = runCli(args + extra);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(!QDir(out).exists());
    }

    void missingFile()
    {
        const auto r = runCli({"train", "--input", path("nope.csv"), "--output", path("never2")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("no such file"));
    }
};

QTEST_GUILESS_MAIN(TestTrainCli)
#include "tst_train_cli.moc"
