// CSV export of the timeline and JSON of one sample: fields, quoting, order, reasons, atomic write.
#include "core/telemetry/telemetry_output.h"

#include <QtTest/QtTest>

#include <QFile>
#include <QTemporaryDir>

using namespace stackscope::telemetry;

class TestTelemetryOutput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void isoTime_data()
    {
        QTest::addColumn<qint64>("t");
        QTest::addColumn<QString>("expected");
        QTest::newRow("epoch") << qint64(0) << "1970-01-01T00:00:00.000Z";
        QTest::newRow("ms") << qint64(1'700'000'000'250) << "2023-11-14T22:13:20.250Z";
        QTest::newRow("before epoch") << qint64(-1) << "1969-12-31T23:59:59.999Z";
    }
    void isoTime()
    {
        QFETCH(qint64, t);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(isoTimeUtc(t)), expected);
    }

    void csvField_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("plain") << "epoch 3" << "epoch 3";
        QTest::newRow("comma") << "a,b" << "\"a,b\"";
        QTest::newRow("quote") << "say \"hi\"" << "\"say \"\"hi\"\"\"";
        QTest::newRow("newline") << "two\nlines" << "\"two\nlines\"";
    }
    void csvField()
    {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QCOMPARE(QString::fromStdString(stackscope::telemetry::csvField(in.toStdString())), out);
    }

    void timelineCsv()
    {
        TelemetryStore store;
        for (int i = 0; i < 3; ++i) {
            TelemetrySample s;
            s.timeMs = 1000 + i * 250;
            GpuReadings g;
            g.vendor = "amd";
            g.index = 1;
            g.at(Quantity::Power) = Reading::of(100 + i, "rocm_smi (average)");
            g.at(Quantity::Temperature) = Reading::missing(MissingReason::NotSupported, "rocm_smi", "no sensor");
            s.gpus.push_back(g);
            store.append(s);
        }
        store.addEvent({1300, EventKind::EpochEnd, "epoch 1, loss 0.5"});
        const QStringList lines = QString::fromStdString(stackscope::telemetry::timelineCsv(store)).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 3 + 1);
        QCOMPARE(lines[0], QString("time_ms,time_utc,gpu,quantity,unit,value,text"));
        QCOMPARE(lines[1], QString("1000,1970-01-01T00:00:01.000Z,amd:1,power,W,100,"));
        QCOMPARE(lines[2], QString("1250,1970-01-01T00:00:01.250Z,amd:1,power,W,101,"));
        QCOMPARE(lines[3], QString("1300,1970-01-01T00:00:01.300Z,,event:epoch_end,,,\"epoch 1, loss 0.5\""));
        QCOMPARE(lines[4], QString("1500,1970-01-01T00:00:01.500Z,amd:1,power,W,102,"));
    }

    void exportIsAtomic()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        TelemetryStore store;
        store.addEvent({5, EventKind::RunStarted, "run"});
        const QString path = dir.filePath("t.csv");
        exportTimelineCsv(store, path.toStdString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().startsWith("time_ms,"));
        // A folder that does not exist: an exception with the path, and no file left behind.
        const QString bad = dir.filePath("missing/t.csv");
        try {
            exportTimelineCsv(store, bad.toStdString());
            QFAIL("export into a missing folder should throw");
        } catch (const std::exception& e) {
            QVERIFY2(QString(e.what()).contains("missing"), e.what());
        }
        QVERIFY(!QFile::exists(bad));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
    }

    void sampleJson()
    {
        TelemetrySample s;
        s.timeMs = 1'700'000'000'000;
        GpuReadings g;
        g.vendor = "nvidia";
        g.index = 0;
        g.name = "NVIDIA H100 80GB HBM3";
        g.at(Quantity::VramUsed) = Reading::of(2e9, "NVML");
        g.at(Quantity::SmClock) = Reading::missing(MissingReason::Permission, "NVML", "no permission");
        s.gpus.push_back(g);
        s.sources.push_back({"rocm_smi", false, MissingReason::LibraryNotLoaded, "librocm_smi64.so: not found"});
        const auto j = sampleToJson(s);
        QCOMPARE(j["time"].get<std::string>(), std::string("2023-11-14T22:13:20.000Z"));
        const auto& r = j["gpus"][0]["readings"];
        QCOMPARE(r["vram_used"]["value"].get<double>(), 2e9);
        QCOMPARE(r["vram_used"]["unit"].get<std::string>(), std::string("B"));
        QCOMPARE(r["vram_used"]["source"].get<std::string>(), std::string("NVML"));
        QVERIFY(r["sm_clock"]["value"].is_null());
        QCOMPARE(r["sm_clock"]["missing"].get<std::string>(), std::string("permission"));
        QCOMPARE(int(r.size()), kQuantityCount);
        QCOMPARE(j["sources"][0]["reason"].get<std::string>(), std::string("library_not_loaded"));
        QCOMPARE(j["sources"][0]["available"].get<bool>(), false);
    }
};

QTEST_GUILESS_MAIN(TestTelemetryOutput)
#include "tst_telemetry_output.moc"
