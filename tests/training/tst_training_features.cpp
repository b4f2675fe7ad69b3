// Features are causal, split by time and normalised from the training part; bad options are named.
#include "core/training/features.h"
#include "core/training/training_config.h"
#include "core/util/sha256.h"
#include "core/vpoc/market_data.h"
#include "core/vpoc/sample_data.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <sstream>

using namespace stackscope;
using namespace stackscope::training;

namespace {

std::string writeText(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    const std::string path = dir.filePath(QString::fromUtf8(name)).toStdString();
    std::ofstream(path) << text;
    return path;
}

std::string sampleBars(int days, uint64_t seed = 7)
{
    vpoc::SampleDataOptions o;
    o.days = days;
    o.seed = seed;
    return vpoc::generateSampleData(o);
}

// The first `dataLines` data lines of a CSV (its comment and header kept).
std::string truncateCsv(const std::string& text, int dataLines)
{
    std::istringstream in(text);
    std::string line, out;
    int data = 0;
    bool header = false;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || !header) {
            out += line + "\n";
            if (!line.empty() && line[0] != '#')
                header = true;
            continue;
        }
        if (data++ == dataLines)
            break;
        out += line + "\n";
    }
    return out;
}

// Appends a column to every data row of a CSV; `value(row)` gives row n's text (rows counted from 1).
template <typename Value>
std::string appendColumn(const std::string& csv, const char* name, Value value)
{
    std::istringstream in(csv);
    std::string line, out;
    int row = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            out += line + "\n";
        else if (row++ == 0)
            out += line + "," + name + "\n";
        else
            out += line + "," + value(row - 1) + "\n";
    }
    return out;
}

} // namespace

class TestTrainingFeatures : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void namesAndShape()
    {
        QTemporaryDir dir;
        TrainingConfig c;
        c.input = writeText(dir, "bars.csv", sampleBars(4));
        const auto d = buildDataset(c);
        QCOMPARE(d.cols, static_cast<int64_t>(d.names.size()));
        QCOMPARE(d.names.front(), std::string("close_minus_dev_poc"));
        QVERIFY(d.rows > 1000);
        QCOMPARE(static_cast<int64_t>(d.x.size()), d.rows * d.cols);
        QCOMPARE(static_cast<int64_t>(d.y.size()), d.rows);
        QCOMPARE(d.sessions, int64_t {4});
        QVERIFY(d.rowsWithoutHistory > 0); // the whole first session has no previous session
        QCOMPARE(d.rowsWithoutTarget, (d.sessions - 1) * c.horizon); // the first session counts as without history
        QCOMPARE(d.inputSha256.size(), size_t {64});
        for (size_t i = 1; i < d.timeUs.size(); ++i)
            QVERIFY(d.timeUs[i] > d.timeUs[i - 1]); // time order, nothing shuffled
    }

    // A feature at bar t must not change when bars after t are removed from the file.
    void noLookAhead_data()
    {
        QTest::addColumn<int>("keep");
        QTest::newRow("mid second session") << 2000;
        QTest::newRow("start of third session") << 2800;
        QTest::newRow("late third session") << 4000;
    }
    void noLookAhead()
    {
        QFETCH(int, keep);
        QTemporaryDir dir;
        const std::string full = sampleBars(4);
        TrainingConfig c;
        c.input = writeText(dir, "full.csv", full);
        const auto all = buildDataset(c);
        c.input = writeText(dir, "cut.csv", truncateCsv(full, keep));
        const auto cut = buildDataset(c);
        QVERIFY(cut.rows > 0);
        QVERIFY(cut.rows < all.rows);
        // Rows of the cut file are a prefix of the full file's rows (a row needs its target inside the file,
        // so the cut file has fewer), with the same features bit for bit.
        for (int64_t r = 0; r < cut.rows; ++r) {
            QCOMPARE(cut.timeUs[static_cast<size_t>(r)], all.timeUs[static_cast<size_t>(r)]);
            for (int64_t k = 0; k < cut.cols; ++k)
                QCOMPARE(cut.x[static_cast<size_t>(r * cut.cols + k)], all.x[static_cast<size_t>(r * all.cols + k)]);
            QCOMPARE(cut.y[static_cast<size_t>(r)], all.y[static_cast<size_t>(r)]);
        }
    }

    void extraColumnsBecomeFeatures()
    {
        QTemporaryDir dir;
        // The sample bars carry a vix column; a further one is appended.
        const std::string text = appendColumn(sampleBars(3), "breadth", [](int row) { return std::to_string(row % 7) + ".5"; });
        TrainingConfig c;
        c.input = writeText(dir, "extra.csv", text);
        const auto d = buildDataset(c);
        QCOMPARE(d.names[d.names.size() - 2], std::string("vix"));
        QCOMPARE(d.names.back(), std::string("breadth"));
        QVERIFY(d.x[static_cast<size_t>(d.cols - 2)] > 10.0f); // vix of the sample data is around 15
    }

    void nanInDataIsRefused()
    {
        QTemporaryDir dir;
        const std::string text = appendColumn(sampleBars(3), "breadth", [](int row) {
            return row == 2500 ? std::string("nan") : std::string("16.0");
        });
        TrainingConfig c;
        c.input = writeText(dir, "nan.csv", text);
        bool refused = false;
        try {
            buildDataset(c);
        } catch (const ConfigError& e) {
            refused = QString::fromUtf8(e.what()).contains(QLatin1String("breadth"));
        } catch (const vpoc::InputError& e) {
            refused = QString::fromUtf8(e.what()).contains(QLatin1String(":"));
        }
        QVERIFY2(refused, "a NaN in an input column must be refused with the column or the file position");
    }

    void normalisationFromTrainingPartOnly()
    {
        Dataset d;
        d.names = {"a"};
        d.cols = 1;
        d.rows = 10;
        for (int i = 0; i < 10; ++i) {
            d.x.push_back(i < 8 ? float(i % 2) : 1000.0f); // the validation part is far away
            d.y.push_back(float(i));
        }
        const int64_t train = trainingRows(d.rows, 0.2);
        QCOMPARE(train, int64_t {8});
        const auto n = fitNormalisation(d, train);
        QCOMPARE(n.mean[0], 0.5);
        QCOMPARE(n.std[0], 0.5);
        QCOMPARE(n.targetMean, 3.5);
        normalise(d, n);
        QCOMPARE(d.x[0], -1.0f);
        QCOMPARE(d.x[1], 1.0f);
    }

    void badConfigurations_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("hidden layer 0") << "hidden" << "32,0" << "0 units";
        QTest::newRow("hidden not a number") << "hidden" << "32,x" << "not a whole number";
        QTest::newRow("unknown device") << "device" << "tpu:0" << "gpu:N";
        QTest::newRow("device twice") << "device" << "gpu:0,0" << "twice";
        // The device's own example, not the hidden layers' (it said "for example 32,16").
        QTest::newRow("device index not a number") << "device" << "gpu:x" << "'x' is not a GPU index; write gpu: and GPU indices separated by commas, for example gpu:0 or gpu:0,1";
        QTest::newRow("device list empty") << "device" << "gpu:" << "'' is not a GPU index";
        QTest::newRow("nproc against the GPUs") << "nproc" << "3" << "--nproc 3 with --device gpu:0,1";
        QTest::newRow("precision") << "precision" << "fp8" << "fp32 or bf16";
        QTest::newRow("epochs") << "epochs" << "0" << "--epochs";
        QTest::newRow("batch") << "batch" << "0" << "--batch-size";
        QTest::newRow("lr") << "lr" << "-1" << "--lr";
        QTest::newRow("dropout") << "dropout" << "1" << "--dropout";
        QTest::newRow("val fraction") << "val" << "0.95" << "--val-fraction";
    }
    void badConfigurations()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        TrainingConfig c;
        c.input = "x.csv";
        c.output = "out";
        QString message;
        try {
            const std::string v = value.toStdString();
            if (field == "hidden")
                c.hidden = parseLayerList(v, "--hidden");
            else if (field == "device")
                c.device = parseDevices(v);
            else if (field == "nproc") {
                c.device = parseDevices("gpu:0,1");
                c.processes = std::stoi(v);
            }
            else if (field == "precision")
                c.precision = v;
            else if (field == "epochs")
                c.epochs = std::stoi(v);
            else if (field == "batch")
                c.batchSize = std::stoi(v);
            else if (field == "lr")
                c.learningRate = std::stod(v);
            else if (field == "dropout")
                c.dropout = std::stod(v);
            else if (field == "val")
                c.validationFraction = std::stod(v);
            validate(c);
        } catch (const ConfigError& e) {
            message = QString::fromUtf8(e.what());
        }
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    void devices_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QList<int>>("gpus");
        QTest::addColumn<QString>("written"); // what the run's JSON and the form hold
        using Kind = DeviceSelection::Kind;
        QTest::newRow("auto") << "auto" << int(Kind::Auto) << QList<int> {} << "auto";
        QTest::newRow("cpu") << "cpu" << int(Kind::Cpu) << QList<int> {} << "cpu";
        QTest::newRow("one") << "gpu:1" << int(Kind::Gpus) << QList<int> {1} << "gpu:1";
        QTest::newRow("two") << "gpu:0,1" << int(Kind::Gpus) << QList<int> {0, 1} << "gpu:0,1";
        QTest::newRow("order kept") << "gpu:3,1,2" << int(Kind::Gpus) << QList<int> {3, 1, 2} << "gpu:3,1,2";
        QTest::newRow("cuda spelling") << "cuda:0" << int(Kind::Gpus) << QList<int> {0} << "gpu:0";
    }
    void devices()
    {
        QFETCH(QString, spec);
        QFETCH(int, kind);
        QFETCH(QList<int>, gpus);
        QFETCH(QString, written);
        const auto got = parseDevices(spec.toStdString());
        QCOMPARE(int(got.kind), kind);
        QCOMPARE(QList<int>(got.gpus.begin(), got.gpus.end()), gpus);
        QCOMPARE(QString::fromStdString(got.toString()), written);
        QCOMPARE(parseDevices(got.toString()), got); // the written form reads back as the same selection
    }

    // A run's JSON (what a launched rank and --resume read) keeps the device as the CLI wrote it.
    void deviceRoundTripsThroughJson_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::newRow("auto") << "auto";
        QTest::newRow("cpu") << "cpu";
        QTest::newRow("two GPUs") << "gpu:0,1";
    }
    void deviceRoundTripsThroughJson()
    {
        QFETCH(QString, spec);
        TrainingConfig c;
        c.input = "x.csv";
        c.output = "out";
        c.device = parseDevices(spec.toStdString());
        const auto j = toJson(c);
        QCOMPARE(QString::fromStdString(j.at("device").get<std::string>()), spec);
        QCOMPARE(configFromJson(j).device, c.device);
    }

    void configErrorNamesItsOption_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("option");
        QTest::newRow("flag and value") << "--lr 0: use a positive learning rate" << "--lr";
        QTest::newRow("flag and colon") << "--hidden: give at least one hidden layer" << "--hidden";
        QTest::newRow("dashed flag") << "--batch-size 9 is larger than the 3 training rows" << "--batch-size";
        QTest::newRow("no flag") << "the rank's configuration is incomplete" << "";
        QTest::newRow("environment") << "RANK=3 but WORLD_SIZE is 2" << "";
    }
    void configErrorNamesItsOption()
    {
        QFETCH(QString, message);
        QFETCH(QString, option);
        QCOMPARE(QString::fromStdString(ConfigError(message.toStdString()).option()), option);
        QCOMPARE(ConfigError(message.toStdString()).kind(), ErrorKind::Input);
    }

    void sha256KnownValues_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("digest");
        QTest::newRow("empty") << QByteArray() << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        QTest::newRow("abc") << QByteArray("abc") << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        QTest::newRow("two blocks") << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                                    << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
    }
    void sha256KnownValues()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, digest);
        Sha256 h;
        h.update(text.constData(), static_cast<size_t>(text.size()));
        QCOMPARE(QString::fromStdString(h.hexDigest()), digest);
    }
};

QTEST_GUILESS_MAIN(TestTrainingFeatures)
#include "tst_training_features.moc"
