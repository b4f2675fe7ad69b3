// Market data formats recognised by content: Databento DBN (v1-3, plain and zstd), Sierra Chart .scid,
// NinjaTrader, TradeStation and Barchart-style text, and bad binary input with its record and byte.
#include "core/vpoc/market_source.h"
#include "core/vpoc/vpoc_engine.h"

#include <QtTest/QtTest>

#include <QTemporaryDir>

#include <fstream>
#include <iterator>

using namespace stackscope::vpoc;

namespace {

const QString kDir = STACKSCOPE_TEST_FIXTURES "/market/";

struct Read {
    std::vector<MarketRecord> rows;
    std::string kind;
    DataFormat format = DataFormat::Auto;
    SkipReport skipped;
};

Read readAll(const std::string& path, ReadOptions o = {})
{
    Read r;
    auto src = openMarketFile(path, o);
    while (src->read(r.rows, 3)) {
    }
    r.kind = src->kind();
    r.format = src->format();
    r.skipped = src->skipped();
    return r;
}

std::string bytesOf(const QString& file)
{
    std::ifstream in((kDir + file).toStdString(), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace

class TestVpocFormats : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::string write(const QString& name, const std::string& bytes)
    {
        const std::string path = m_dir.filePath(name).toStdString();
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void decodes_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("format");
        QTest::addColumn<int>("rows");
        QTest::addColumn<qint64>("firstUs");
        QTest::addColumn<int>("firstClose"); // ticks of 0.25
        QTest::addColumn<qint64>("volume");
        // ts_event 1609160400098821953 ns (the README rounds it to .098822): microseconds are truncated, not rounded.
        const qint64 dbnTrade = Q_INT64_C(1609160400098821);
        const qint64 dbnBar = Q_INT64_C(1609160400000000);
        for (const char* f : {"test_data.trades.dbn", "test_data.trades.v1.dbn.zst", "test_data.trades.v2.dbn.zst",
                              "test_data.trades.v3.dbn.zst"})
            QTest::newRow(f) << f << "Databento DBN" << int(DataFormat::Trades) << 2 << dbnTrade << 14881 << qint64(26);
        for (const char* f : {"test_data.ohlcv-1m.dbn", "test_data.ohlcv-1m.v1.dbn.zst", "test_data.ohlcv-1m.v2.dbn.zst",
                              "test_data.ohlcv-1m.v3.dbn.zst"})
            QTest::newRow(f) << f << "ohlcv-1m (ESH1)" << int(DataFormat::Bars) << 2 << dbnBar << 1488400 << qint64(505);
        const qint64 t0 = Q_INT64_C(1710163800000000); // 2024-03-11T13:30:00Z
        QTest::newRow("scid ticks") << "es_ticks.scid" << "scid ticks" << int(DataFormat::Trades) << 5 << t0 << 20493 << qint64(15);
        QTest::newRow("scid bars") << "es_bars.scid" << "scid bars" << int(DataFormat::Bars) << 3 << t0 << 20494 << qint64(180);
        QTest::newRow("ninjatrader ticks") << "es_ninjatrader_ticks.txt" << "NinjaTrader ticks" << int(DataFormat::Trades)
                                           << 5 << t0 << 20493 << qint64(15);
        QTest::newRow("ninjatrader bars") << "es_ninjatrader_bars.txt" << "NinjaTrader bars" << int(DataFormat::Bars) << 3
                                          << t0 << 20494 << qint64(180);
        QTest::newRow("tradestation") << "es_tradestation.csv" << "CSV" << int(DataFormat::Bars) << 3 << t0 << 20494
                                      << qint64(180);
        QTest::newRow("barchart style") << "es_barchart_style.csv" << "CSV" << int(DataFormat::Bars) << 3 << t0 << 20494
                                        << qint64(180);
    }
    void decodes()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(int, format);
        QFETCH(int, rows);
        QFETCH(qint64, firstUs);
        QFETCH(int, firstClose);
        QFETCH(qint64, volume);
        const auto r = readAll((kDir + file).toStdString());
        QVERIFY2(QString::fromStdString(r.kind).contains(kind), r.kind.c_str());
        QCOMPARE(int(r.format), format);
        QCOMPARE(int(r.rows.size()), rows);
        QCOMPARE(qint64(r.rows[0].timeUs), firstUs);
        QCOMPARE(r.rows[0].close, firstClose);
        qint64 v = 0;
        for (const auto& x : r.rows)
            v += x.volume;
        QCOMPARE(v, volume);
    }

    // Every file of the same bars (or ticks) gives the same session, POC and value area.
    void sameProfileFromEveryFormat()
    {
        auto run = [](const QString& file) {
            VpocOptions o;
            o.input = (kDir + file).toStdString();
            o.backend = Backend::Cpu;
            const auto r = runVpoc(o);
            return r->sessions.at(0);
        };
        const auto bars = run("es_bars.scid");
        for (const char* f : {"es_ninjatrader_bars.txt", "es_tradestation.csv", "es_barchart_style.csv"}) {
            const auto s = run(f);
            QCOMPARE(s.day, bars.day);
            QCOMPARE(s.pocTick, bars.pocTick);
            QCOMPARE(s.vahTick, bars.vahTick);
            QCOMPARE(s.valTick, bars.valTick);
            QCOMPARE(s.volume, bars.volume);
        }
        const auto ticks = run("es_ticks.scid");
        QCOMPARE(ticks.pocTick, 20493); // 5123.25 has 8 of 15
        QCOMPARE(run("es_ninjatrader_ticks.txt").pocTick, 20493);
        QCOMPARE(ticks.volume, uint64_t(15));
    }

    void badBinaryInput_data()
    {
        QTest::addColumn<QString>("base");
        QTest::addColumn<int>("cut");      // bytes removed from the end
        QTest::addColumn<int>("patchAt");  // -1: no patch
        QTest::addColumn<QByteArray>("patch");
        QTest::addColumn<QString>("what");
        QTest::addRow("dbn cut inside a record") << "test_data.trades.dbn" << 10 << -1 << QByteArray() << "record 2 at byte 401: the file ends inside a record";
        QTest::addRow("dbn version 9") << "test_data.trades.dbn" << 0 << 3 << QByteArray("\x09", 1) << "DBN version 9";
        QTest::addRow("dbn zero-length record") << "test_data.trades.dbn" << 0 << 353 << QByteArray("\x00", 1) << "record 1 at byte 353: record length 0";
        QTest::addRow("dbn second instrument") << "test_data.trades.dbn" << 0 << 405 << QByteArray("\x6b", 1) << "instrument 5483 () after instrument 5482 (ESH1)";
        QTest::addRow("scid record size") << "es_ticks.scid" << 0 << 8 << QByteArray("\x2c", 1) << "record size 44";
        QTest::addRow("scid cut inside a record") << "es_ticks.scid" << 7 << -1 << QByteArray() << "record 5 at byte 216: the file ends 33 bytes into";
        QTest::addRow("scid not a number") << "es_bars.scid" << 0 << 56 + 40 + 12 << QByteArray("\xff\xff\xff\x7f", 4) << "record 2 at byte 96: high is not a number";
    }
    void badBinaryInput()
    {
        QFETCH(QString, base);
        QFETCH(int, cut);
        QFETCH(int, patchAt);
        QFETCH(QByteArray, patch);
        QFETCH(QString, what);
        std::string bytes = bytesOf(base);
        bytes.resize(bytes.size() - size_t(cut));
        if (patchAt >= 0)
            bytes.replace(size_t(patchAt), size_t(patch.size()), patch.constData(), size_t(patch.size()));
        const auto path = write(QString("bad-") + QTest::currentDataTag(), bytes);
        try {
            readAll(path);
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains(what), e.what());
            QVERIFY(QString(e.what()).startsWith(QString::fromStdString(path) + ": "));
        }
    }

    void skipBadKeepsTheFirstInstrument()
    {
        std::string bytes = bytesOf("test_data.trades.dbn");
        bytes[405] = '\x6b';
        ReadOptions o;
        o.skipBad = true;
        const auto r = readAll(write("two.dbn", bytes), o);
        QCOMPARE(int(r.rows.size()), 1);
        QCOMPARE(r.skipped.count, int64_t(1));
    }

    // A file named .csv that holds DBN is read as DBN: the content decides, not the name.
    void contentNotName()
    {
        const auto r = readAll(write("looks-like.csv", bytesOf("test_data.trades.v3.dbn.zst")));
        QVERIFY(QString::fromStdString(r.kind).startsWith("Databento DBN v3"));
    }
};

QTEST_GUILESS_MAIN(TestVpocFormats)
#include "tst_vpoc_formats.moc"
