// The CSV loader (format detection, every bad-input case with line and column) and sessions on DST days.
#include "core/vpoc/csv_reader.h"
#include "core/vpoc/csv_row.h"
#include "core/vpoc/sample_data.h"
#include "core/vpoc/sessions.h"
#include "core/vpoc/vpoc_engine.h"

#include <QtTest/QtTest>

#include <QTemporaryDir>

#include <fstream>
#include <sstream>

using namespace stackscope::vpoc;

namespace {

std::vector<MarketRecord> readAll(const std::string& text, ReadOptions o, SkipReport* skipped = nullptr,
                                  DataFormat* format = nullptr)
{
    std::istringstream in(text);
    MarketDataReader r(in, "t.csv", o);
    std::vector<MarketRecord> rows;
    while (r.read(rows, 1000)) {
    }
    if (skipped)
        *skipped = r.skipped();
    if (format)
        *format = r.format();
    return rows;
}

} // namespace

class TestVpocLoader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void formats_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("format");
        QTest::addColumn<qint64>("firstUs");
        QTest::newRow("bars iso offset")
            << "# synthetic\ntimestamp,open,high,low,close,volume,vix\n2024-03-11T09:30:00-04:00,1,1.25,1,1,3,15\n"
            << int(DataFormat::Bars) << qint64(1710163800) * 1000000;
        QTest::newRow("bars semicolon Z fraction")
            << "Datetime;Open;High;Low;Close;Volume\n2024-03-11 13:30:00.5Z;1;1;1;1;3\n" << int(DataFormat::Bars)
            << qint64(1710163800) * 1000000 + 500000;
        QTest::newRow("bars tab ninjatrader naive")
            << "timestamp\topen\thigh\tlow\tclose\tvolume\n20240311 093000\t1\t1\t1\t1\t3\n" << int(DataFormat::Bars)
            << qint64(1710163800) * 1000000;
        QTest::newRow("bars date and time columns")
            << "date,time,open,high,low,close,volume\n20240311,09:30:00,1,1,1,1,3\n" << int(DataFormat::Bars)
            << qint64(1710163800) * 1000000;
        QTest::newRow("trades epoch ms") << "timestamp,price,size\n1710163800000,1.25,2\n" << int(DataFormat::Trades)
                                         << qint64(1710163800) * 1000000;
        QTest::newRow("trades epoch s, volume column") << "TIMESTAMP,PRICE,VOLUME\n1710163800,1.25,2\n"
                                                       << int(DataFormat::Trades) << qint64(1710163800) * 1000000;
        QTest::newRow("naive in EST before the change")
            << "timestamp,price,size\n2024-03-08 09:30:00,1,1\n" << int(DataFormat::Trades)
            << qint64(1709908200) * 1000000;
    }
    void formats()
    {
        QFETCH(QString, text);
        QFETCH(int, format);
        QFETCH(qint64, firstUs);
        DataFormat f {};
        const auto rows = readAll(text.toStdString(), ReadOptions {}, nullptr, &f);
        QCOMPARE(int(f), format);
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(qint64(rows[0].timeUs), firstUs);
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("what");
        const QByteArray h = "timestamp,open,high,low,close,volume\n";
        const QByteArray ok = "2024-03-11T09:30:00Z,1,1,1,1,1\n";
        QTest::newRow("empty file") << QByteArray() << 1 << 1 << "empty";
        QTest::newRow("missing column") << QByteArray("timestamp,open,high,low,close\n") << 1 << 1 << "missing column 'volume'";
        QTest::newRow("bad number") << h + "2024-03-11T09:30:00Z,1,x,1,1,1\n" << 2 << 24 << "bad number 'x'";
        QTest::newRow("bad timestamp") << h + "2024-13-11T09:30:00Z,1,1,1,1,1\n" << 2 << 1 << "bad timestamp";
        QTest::newRow("high below low") << h + "2024-03-11T09:30:00Z,1,1,2,1,1\n" << 2 << 24 << "below low";
        QTest::newRow("negative volume") << h + "2024-03-11T09:30:00Z,1,1,1,1,-5\n" << 2 << 30 << "negative volume";
        QTest::newRow("off the tick grid") << h + "2024-03-11T09:30:00Z,1.1,1.1,1,1,1\n" << 2 << 22 << "tick grid";
        QTest::newRow("time goes back") << h + ok + "2024-03-11T09:29:00Z,1,1,1,1,1\n" << 3 << 1 << "goes back";
        QTest::newRow("duplicate bar time") << h + ok + ok << 3 << 1 << "duplicate timestamp";
        QTest::newRow("huge line") << h + QByteArray(70000, 'a') + "\n" << 2 << 65537 << "longer than";
        QTest::newRow("not utf-8") << h + "2024-03-11T09:30:00Z,1,1,1,1,1\xff\n" << 2 << 31 << "not UTF-8";
        QTest::newRow("field count") << h + "2024-03-11T09:30:00Z,1,1,1,1\n" << 2 << 29 << "5 fields";
        QTest::newRow("DST gap time") << h + "2024-03-10 02:30:00,1,1,1,1,1\n" << 2 << 1 << "does not exist";
    }
    void badInput()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, what);
        const QByteArray& bytes = text;
        try {
            readAll(std::string(bytes.constData(), size_t(bytes.size())), ReadOptions {});
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.reason()).contains(what), e.what());
            QCOMPARE(int(e.line()), line);
            QCOMPARE(int(e.column()), column);
            QVERIFY(QString(e.what()).startsWith(QString("t.csv:%1:%2: ").arg(line).arg(column)));
        }
    }

    // The first byte that is not UTF-8, wherever it falls among the eight-byte ASCII steps.
    void invalidUtf8FindsTheFirstBadByte_data()
    {
        QTest::addColumn<QByteArray>("bad"); // put after 0 to 40 ASCII bytes, with ASCII after it
        QTest::addColumn<int>("offset");     // where the answer is within `bad` (-1: none)
        QTest::newRow("0xff") << QByteArray("\xff") << 0;
        QTest::newRow("a lone continuation byte") << QByteArray("\x80x") << 0;
        QTest::newRow("cut-off 3-byte form") << QByteArray("\xe2\x82") << 0;
        QTest::newRow("overlong") << QByteArray("\xc0\xaf") << 0;
        QTest::newRow("euro sign, later 0xff") << QByteArray("\xe2\x82\xac" "abcdefgh\xff") << 11;
        QTest::newRow("euro sign, then ASCII") << QByteArray("\xe2\x82\xac,5123.25,1") << -1;
        QTest::newRow("ASCII only") << QByteArray("2024-03-11T09:30:00Z,5123.25,1") << -1;
    }
    void invalidUtf8FindsTheFirstBadByte()
    {
        QFETCH(QByteArray, bad);
        QFETCH(int, offset);
        for (int before : {0, 1, 7, 8, 9, 15, 16, 17, 40}) {
            const std::string text = std::string(size_t(before), 'a') + bad.toStdString() + "0123456789abcdef";
            const size_t want = offset < 0 ? std::string_view::npos : size_t(before + offset);
            QCOMPARE(invalidUtf8(text), want);
            QCOMPARE(invalidUtf8(std::string_view(text).substr(0, size_t(before) + size_t(bad.size()))),
                     offset < 0 ? std::string_view::npos : want); // the bad bytes last in the line
        }
    }

    void skipBad()
    {
        ReadOptions o;
        o.skipBad = true;
        SkipReport s;
        const auto rows = readAll("timestamp,price,size\n1710163800,1,1\n1710163700,1,1\n1710163800,1,-1\n"
                                  "1710163800,1,2\n",
                                  o, &s);
        QCOMPARE(rows.size(), size_t(2)); // trades may share a timestamp
        QCOMPARE(s.count, int64_t(2));
        QVERIFY(QString::fromStdString(s.first[0]).startsWith("t.csv:3:1: "));
    }

    void rowsAcrossReadBlocks()
    {
        // About 3 MB: rows straddle the reader's 1 MiB blocks and none may be lost or split.
        std::string text = "timestamp,price,size\n";
        const int n = 100000;
        for (int i = 0; i < n; ++i)
            text += std::to_string(1710163800000LL + i) + "," + std::to_string(5000 + (i % 40) * 0.25) + ",1\n";
        const auto rows = readAll(text, ReadOptions {});
        QCOMPARE(int(rows.size()), n);
        QCOMPARE(rows.back().timeUs, (1710163800000LL + n - 1) * 1000);
        QCOMPARE(rows.back().close, int32_t(20000 + (n - 1) % 40));
    }

    void jobProgressAndCancel()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("s.csv").toStdString();
        {
            SampleDataOptions so;
            so.days = 3;
            std::ofstream(path) << generateSampleData(so);
        }
        VpocOptions o;
        o.input = path;
        o.backend = Backend::Cpu;
        int calls = 0;
        const auto r = runVpoc(o, [&](const VpocProgress& p) {
            ++calls;
            QVERIFY(p.bytesDone <= p.bytesTotal);
        });
        QVERIFY(calls >= 1);
        QCOMPARE(int(r->sessions.size()), 3);
        QCOMPARE(r->extraColumns, std::vector<std::string> {"vix"});
        stackscope::CancelToken cancel;
        cancel.cancel();
        QVERIFY_THROWS_EXCEPTION(VpocCancelled, runVpoc(o, {}, cancel));
    }

    void fallBackRepeatedHour()
    {
        // Naive bars through the repeated 01:xx hour of 2024-11-03 read as EDT then EST.
        const auto rows = readAll("timestamp,open,high,low,close,volume\n2024-11-03 01:30:00,1,1,1,1,1\n"
                                  "2024-11-03 01:30:00,1,1,1,1,1\n",
                                  ReadOptions {});
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[1].timeUs - rows[0].timeUs, int64_t(3600) * 1000000);
    }

    void sessions_data()
    {
        QTest::addColumn<QString>("session");
        QTest::addColumn<QString>("utc");
        QTest::addColumn<QString>("date"); // empty: outside every session
        QTest::newRow("globex Friday last minute EST") << "globex" << "2024-03-08T21:59:00Z" << "2024-03-08";
        QTest::newRow("globex halt EST") << "globex" << "2024-03-08T22:00:00Z" << "";
        QTest::newRow("globex Sunday open after March change") << "globex" << "2024-03-10T22:00:00Z" << "2024-03-11";
        QTest::newRow("globex before Sunday open EDT") << "globex" << "2024-03-10T21:59:00Z" << "";
        QTest::newRow("rth March open EDT") << "rth" << "2024-03-11T13:30:00Z" << "2024-03-11";
        QTest::newRow("rth March before open") << "rth" << "2024-03-11T13:29:00Z" << "";
        QTest::newRow("rth March close excluded") << "rth" << "2024-03-11T20:00:00Z" << "";
        QTest::newRow("globex Friday Nov 1 EDT close") << "globex" << "2024-11-01T20:59:00Z" << "2024-11-01";
        QTest::newRow("globex Sunday Nov 3 open EST") << "globex" << "2024-11-03T23:00:00Z" << "2024-11-04";
        QTest::newRow("globex Sunday Nov 3 22:00Z is 17:00 EST") << "globex" << "2024-11-03T22:00:00Z" << "";
        QTest::newRow("rth November open EST") << "rth" << "2024-11-04T14:30:00Z" << "2024-11-04";
        QTest::newRow("rth November 13:30Z is 08:30 EST") << "rth" << "2024-11-04T13:30:00Z" << "";
        QTest::newRow("custom window across midnight") << "20:00-04:00" << "2024-11-05T02:00:00Z" << "2024-11-05";
    }
    void sessions()
    {
        QFETCH(QString, session);
        QFETCH(QString, utc);
        QFETCH(QString, date);
        TimestampReader tr("UTC");
        int64_t us = 0;
        QVERIFY(!tr.read(utc.toStdString(), INT64_MIN, false, us));
        SessionClock clock(SessionRule::parse(session.toStdString(), "America/New_York"));
        const auto day = clock.sessionDay(us);
        QCOMPARE(day ? QString::fromStdString(formatDate(*day)) : QString(), date);
    }
};

QTEST_GUILESS_MAIN(TestVpocLoader)
#include "tst_vpoc_loader.moc"
