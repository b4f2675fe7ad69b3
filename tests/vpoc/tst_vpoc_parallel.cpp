// The parallel CSV reader against the sequential one: same rows, extras, skipped rows and first error, bit for bit.
#include "core/vpoc/csv_reader.h"
#include "core/vpoc/parallel_csv_reader.h"
#include "core/vpoc/sample_data.h"
#include "core/vpoc/sessions.h"
#include "core/vpoc/vpoc_engine.h"
#include "core/vpoc/vpoc_output.h"
#include "session_compare.h"

#include <QtTest/QtTest>

#include <QTemporaryDir>

#include <fmt/format.h>

#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

using namespace stackscope::vpoc;

namespace {

// Everything a reader hands out, for comparing two readers.
struct Outcome {
    std::vector<MarketRecord> rows;
    std::vector<double> extras;
    std::vector<std::string> extraNames;
    int64_t skipped = 0;
    std::vector<std::string> firstSkipped;
    std::string error;
    int format = -1;
};

bool sameRows(const Outcome& a, const Outcome& b)
{
    if (a.rows.size() != b.rows.size())
        return false;
    for (size_t i = 0; i < a.rows.size(); ++i) {
        const auto &x = a.rows[i], &y = b.rows[i];
        if (x.timeUs != y.timeUs || x.open != y.open || x.high != y.high || x.low != y.low || x.close != y.close
            || x.volume != y.volume)
            return false;
    }
    // NaN (an empty extra) compared by its bits.
    return a.extras.size() == b.extras.size()
        && (a.extras.empty() || std::memcmp(a.extras.data(), b.extras.data(), a.extras.size() * sizeof(double)) == 0);
}

template <typename Reader>
void drain(Reader& r, Outcome& o)
{
    o.format = int(r.format());
    while (r.read(o.rows, 777, &o.extras)) {
    }
    o.extraNames = r.extraColumns();
    o.skipped = r.skipped().count;
    o.firstSkipped = r.skipped().first;
}

Outcome readSequential(const std::string& path, const ReadOptions& options)
{
    Outcome o;
    try {
        std::ifstream in(path, std::ios::binary);
        MarketDataReader r(in, path, options);
        drain(r, o);
    } catch (const InputError& e) {
        o.error = e.what();
    }
    return o;
}

Outcome readParallel(const std::string& path, const ReadOptions& options)
{
    Outcome o;
    try {
        ParallelCsvReader r(path, options);
        drain(r, o);
    } catch (const InputError& e) {
        o.error = e.what();
    }
    return o;
}

// Rows of every kind the reader must treat alike: good ones, each kind of bad one, comments, blank and
// CRLF lines, long lines, naive times in the repeated hour of 2024-11-03, a numeric or text extra column.
std::string randomFile(uint32_t seed, bool bars, int rows, double badShare, size_t longLine)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    std::string s = "# generated\n";
    s += bars ? "timestamp,open,high,low,close,volume,vix,sym\n" : "timestamp,price,size,vix,sym\n";
    int64_t t = 1730609400; // 2024-11-03 00:50 EDT, so naive times walk through the repeated hour
    for (int i = 0; i < rows; ++i) {
        t += static_cast<int64_t>(u(rng) * 20) + (bars ? 1 : 0);
        const int64_t local = t - (t < 1730613600 ? 4 * 3600 : 5 * 3600);
        const int64_t sec = local % 86400, day = local / 86400;
        const bool naive = (i / 50) % 2 == 0;
        std::string ts = naive ? fmt::format("2024-11-{:02} {:02}:{:02}:{:02}", 3 + (day - 20030), sec / 3600,
                                             (sec / 60) % 60, sec % 60)
                               : std::to_string(t);
        const int p = 20000 + static_cast<int>(u(rng) * 40);
        std::string vix = u(rng) < 0.05 ? "" : "15.5";
        std::string sym = u(rng) < 0.02 ? "7" : "ES";
        std::string row = bars ? fmt::format("{},{},{},{},{},{},{},{}", ts, p * 0.25, (p + 2) * 0.25, (p - 1) * 0.25,
                                             p * 0.25, 1 + i % 9, vix, sym)
                               : fmt::format("{},{},{},{},{}", ts, p * 0.25, 1 + i % 9, vix, sym);
        if (u(rng) < badShare) {
            switch (static_cast<int>(u(rng) * 10)) {
            case 0: row = row.substr(0, row.size() / 2); break;                 // field count or bad number
            case 1: row = "1700000000" + row.substr(row.find(',')); break;      // time goes back
            case 2: row.replace(row.find(','), 1, ",x"); break;                  // bad number
            case 3: row += "\xff"; break;                                        // not UTF-8
            case 4: row = std::string(longLine + static_cast<size_t>(u(rng) * 3 * longLine), 'a'); break;
            case 5: row = "# a comment"; break;
            case 6: row = ""; break;
            case 7: row.replace(row.rfind(','), 1, ",abc,"); break;             // bad extra or field count
            case 8: row = row.substr(0, row.find(',')) + ",5000.1,5000.1,5000,5000,1,,"; break; // off the grid
            default: row += "\r"; break;                                         // CRLF
            }
        }
        s += row + "\n";
    }
    if (u(rng) < 0.5)
        s.pop_back(); // no newline at the end
    return s;
}

} // namespace

class TestVpocParallel : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::string write(const std::string& name, const std::string& text)
    {
        const std::string path = m_dir.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }

    void compare(const std::string& path, ReadOptions o)
    {
        const Outcome a = readSequential(path, o);
        for (unsigned threads : {1u, 2u, 3u, 8u}) {
            o.threads = threads;
            const Outcome b = readParallel(path, o);
            const QString where = QString("%1, %2 threads").arg(QString::fromStdString(path)).arg(threads);
            QVERIFY2(a.error == b.error, qPrintable(where + ": " + QString::fromStdString(a.error + " vs " + b.error)));
            if (!a.error.empty())
                continue; // rows handed out before the error differ by the readers' block sizes; none is a result
            QVERIFY2(sameRows(a, b), qPrintable(where + QString(": rows %1 vs %2").arg(a.rows.size()).arg(b.rows.size())));
            QCOMPARE(a.extraNames, b.extraNames);
            QCOMPARE(a.skipped, b.skipped);
            QCOMPARE(a.firstSkipped, b.firstSkipped);
            QCOMPARE(a.format, b.format);
        }
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void checkedInFixture()
    {
        compare(STACKSCOPE_TEST_FIXTURES "/vpoc/hand_bars.csv", ReadOptions {});
    }

    void sampleData_data()
    {
        QTest::addColumn<bool>("trades");
        QTest::newRow("bars") << false;
        QTest::newRow("trades") << true;
    }
    void sampleData()
    {
        QFETCH(bool, trades);
        SampleDataOptions so;
        so.days = trades ? 2 : 10;
        so.trades = trades;
        const auto path = write(trades ? "trades.csv" : "bars.csv", generateSampleData(so));
        ReadOptions o;
        o.windowBytes = 1 << 18; // several windows, each cut into 64 KiB chunks
        compare(path, o);
        ParallelCsvReader r(path, o);
        std::vector<MarketRecord> rows;
        while (r.read(rows, 1 << 20)) {
        }
        QVERIFY(rows.size() > 10000); // the comparison above covered real volume, not an empty read
    }

    // Progress is the bytes of rows handed out, not the window read ahead (issue 20: the page's ETA divided
    // by bytes up to a whole window ahead): it moves within a window, never passes what was read, ends at the
    // file size; the engine's last reports are the final phase.
    void bytesParsedMovesWithTheRows()
    {
        SampleDataOptions so;
        so.days = 10;
        const auto path = write("progress.csv", generateSampleData(so));
        ReadOptions o;
        o.windowBytes = 1 << 18;
        o.threads = 2;
        ParallelCsvReader r(path, o);
        std::vector<MarketRecord> rows;
        uint64_t last = 0;
        int insideAWindow = 0;
        while (r.read(rows, 1000)) {
            const uint64_t parsed = r.bytesParsed();
            QVERIFY(parsed >= last);
            QVERIFY(parsed <= r.bytesConsumed());
            insideAWindow += parsed < r.bytesConsumed() ? 1 : 0;
            last = parsed;
        }
        QCOMPARE(r.bytesParsed(), r.totalBytes());
        QVERIFY2(insideAWindow > 10, "progress only moved a whole window at a time");

        VpocOptions vo;
        vo.input = path;
        vo.backend = Backend::Cpu;
        vo.read.windowBytes = 1 << 18;
        std::vector<VpocProgress> reports;
        runVpoc(vo, [&](const VpocProgress& p) { reports.push_back(p); });
        QVERIFY(reports.size() >= 2);
        QCOMPARE(reports.back().phase, VpocPhase::Finishing);
        QCOMPARE(reports.back().bytesDone, reports.back().bytesTotal);
        for (const auto& p : reports)
            QVERIFY(p.bytesDone <= p.bytesRead && p.bytesRead <= p.bytesTotal);
    }

    // Random files with every kind of bad row, many windows and chunks, with and without --skip-bad.
    void randomFiles_data()
    {
        QTest::addColumn<uint>("seed");
        QTest::addColumn<bool>("bars");
        QTest::addColumn<bool>("skipBad");
        QTest::addColumn<double>("badShare");
        QTest::addColumn<int>("windowBytes");
        for (uint seed = 1; seed <= 6; ++seed)
            for (bool bars : {false, true})
                for (bool skip : {true, false}) {
                    // Without --skip-bad, rare bad rows put the first error anywhere in the file.
                    const double bad = skip ? 0.05 : 0.0005;
                    QTest::addRow("seed %u %s %s", seed, bars ? "bars" : "trades", skip ? "skip" : "stop")
                        << seed << bars << skip << bad << int(seed % 2 ? 200000 : 5000);
                }
    }
    void randomFiles()
    {
        QFETCH(uint, seed);
        QFETCH(bool, bars);
        QFETCH(bool, skipBad);
        QFETCH(double, badShare);
        QFETCH(int, windowBytes);
        ReadOptions o;
        o.skipBad = skipBad;
        o.maxLineBytes = 300; // long lines that span the 5000-byte windows
        o.windowBytes = size_t(windowBytes);
        const auto path = write(fmt::format("r{}{}{}.csv", seed, bars, skipBad), randomFile(seed, bars, 20000, badShare, 300));
        compare(path, o);
    }

    // runVpoc on the CPU (parallel reader, sessions profiled as their rows stream by) against the path it
    // replaced: the sequential reader, whole sessions in a ProfileBatch, computeBatchCpu and developingValues.
    void engineMatchesTheBatchPath_data()
    {
        QTest::addColumn<bool>("trades");
        QTest::addColumn<int>("distribution");
        QTest::newRow("bars uniform") << false << int(Distribution::Uniform);
        QTest::newRow("bars close") << false << int(Distribution::Close);
        QTest::newRow("bars typical") << false << int(Distribution::Typical);
        QTest::newRow("trades") << true << int(Distribution::Uniform);
    }
    void engineMatchesTheBatchPath()
    {
        QFETCH(bool, trades);
        QFETCH(int, distribution);
        SampleDataOptions so;
        so.days = trades ? 2 : 8;
        so.trades = trades;
        const auto path = write(trades ? "e-trades.csv" : "e-bars.csv", generateSampleData(so));
        VpocOptions vo;
        vo.input = path;
        vo.backend = Backend::Cpu;
        vo.developing = true;
        vo.profile.distribution = Distribution(distribution);
        vo.profile.keepProfiles = true;
        vo.threads = 2;
        const auto got = runVpoc(vo);

        std::ifstream in(path, std::ios::binary);
        MarketDataReader reader(in, path, ReadOptions {});
        std::vector<MarketRecord> rows;
        while (reader.read(rows, 1 << 16)) {
        }
        SessionClock clock(SessionRule::parse("globex", "America/New_York"));
        ProfileBatch batch;
        std::vector<std::vector<DevelopingPoint>> developing;
        std::vector<MarketRecord> session;
        int32_t day = 0;
        auto close = [&] {
            batch.appendSession(day, session.data(), session.size(), vo.profile.distribution);
            developing.push_back(developingValues(session.data(), session.size(), vo.profile));
            session.clear();
        };
        for (const auto& r : rows) {
            const auto d = clock.sessionDay(r.timeUs);
            if (!d)
                continue;
            if (!session.empty() && *d != day)
                close();
            day = *d;
            session.push_back(r);
        }
        close();
        const auto want = computeBatchCpu(batch.view(), vo.profile, 1);
        QCOMPARE(got->sessions.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i) {
            testing::compareSession(got->sessions[i], want[i]);
            if (QTest::currentTestFailed())
                return;
            QCOMPARE(got->developing[i].size(), developing[i].size());
            for (size_t k = 0; k < developing[i].size(); ++k) {
                const auto &x = got->developing[i][k], &y = developing[i][k];
                QVERIFY(x.timeUs == y.timeUs && x.pocTick == y.pocTick && x.vahTick == y.vahTick
                        && x.valTick == y.valTick && x.closeTick == y.closeTick);
            }
        }
    }

    // vpoc --developing streams: the sink gets each session's values as it closes, the result keeps none, and
    // the CSV written a session at a time is byte for byte the one built from the kept values.
    void developingSinkStreamsTheSameCsv_data()
    {
        QTest::addColumn<bool>("trades");
        QTest::newRow("bars") << false;
        QTest::newRow("trades") << true;
    }
    void developingSinkStreamsTheSameCsv()
    {
        QFETCH(bool, trades);
        SampleDataOptions so;
        so.days = trades ? 2 : 6;
        so.trades = trades;
        VpocOptions vo;
        vo.input = write(trades ? "sink-trades.csv" : "sink-bars.csv", generateSampleData(so));
        vo.backend = Backend::Cpu;
        vo.developing = true;
        const std::string kept = developingCsv(*runVpoc(vo));

        const DevelopingCsv csv(vo);
        std::string streamed = DevelopingCsv::header();
        std::vector<int32_t> days; // a session's pieces come one after another
        std::size_t pieces = 0, largest = 0;
        vo.developingSink = [&](int32_t day, const DevelopingPoint* points, std::size_t count) {
            if (days.empty() || days.back() != day)
                days.push_back(day);
            ++pieces;
            largest = std::max(largest, count);
            streamed += csv.rows(day, points, count);
        };
        const auto r = runVpoc(vo);
        QVERIFY(r->developing.empty());
        QVERIFY(!r->options.developingSink); // the caller's writer is not kept in the result
        QCOMPARE(days.size(), r->sessions.size());
        for (size_t i = 0; i < days.size(); ++i)
            QCOMPARE(days[i], r->sessions[i].day);
        // A session of trades (about 145,000) comes in pieces: memory holds a piece, not the session.
        QVERIFY(largest <= kDevelopingPiece);
        QCOMPARE(pieces > days.size(), trades);
        QVERIFY(kept.size() > 1000);
        QCOMPARE(QString::fromStdString(streamed), QString::fromStdString(kept));
    }

    // A row that makes a session span more than kMaxSessionLevels price levels is bad input at that row.
    void sessionSpanIsBounded()
    {
        const auto path = write("wide.csv", "timestamp,open,high,low,close,volume\n"
                                            "2024-03-11T13:30:00Z,1,1,1,1,5\n"
                                            "2024-03-11T13:31:00Z,1,1,1,1,5\n"
                                            "2024-03-11T13:32:00Z,1,300000,1,1,5\n");
        VpocOptions vo;
        vo.input = path;
        vo.backend = Backend::Cpu;
        try {
            runVpoc(vo);
            QFAIL("a session of 1.2 M levels was accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ":4:1: "), e.what());
            QVERIFY2(QString(e.what()).contains("1199997 price levels"), e.what());
        }
    }

    void noRowsIsBadInput_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("skipBad");
        QTest::addColumn<QString>("what");
        QTest::newRow("header only") << "timestamp,price,size\n" << false << ":2:1: no data rows after the header";
        QTest::newRow("every row bad, skipped") << "timestamp,price,size\nx,1,1\ny,1,1\n" << true
                                                << ":4:1: every data row was bad (2 skipped";
    }
    void noRowsIsBadInput()
    {
        QFETCH(QString, text);
        QFETCH(bool, skipBad);
        QFETCH(QString, what);
        VpocOptions vo;
        vo.input = write("norows.csv", text.toStdString());
        vo.backend = Backend::Cpu;
        vo.read.skipBad = skipBad;
        try {
            runVpoc(vo);
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains(what), e.what());
        }
    }

    void headerErrorsAreTheSequentialOnes()
    {
        compare(write("h1.csv", ""), ReadOptions {});
        compare(write("h2.csv", "timestamp,open,high\n1,2,3\n"), ReadOptions {});
        compare(write("h3.csv", "# only a comment\n"), ReadOptions {});
        compare(write("h4.csv", "timestamp,price,size\n"), ReadOptions {});
    }

    // A file that shrinks or changes between windows is an InputError, never a silent short read.
    void changedWhileReading()
    {
        SampleDataOptions so;
        so.days = 3;
        so.trades = true;
        const auto path = write("changing.csv", generateSampleData(so));
        ReadOptions o;
        o.windowBytes = 1 << 18;
        o.threads = 2;
        ParallelCsvReader r(path, o);
        std::vector<MarketRecord> rows;
        QVERIFY(r.read(rows, 10));
        QVERIFY(::truncate(path.c_str(), static_cast<off_t>(r.totalBytes() / 3)) == 0);
        try {
            while (r.read(rows, 1 << 20)) {
            }
            QFAIL("a truncated file was read to the end without an error");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("changed while it was being read"), e.what());
            QVERIFY(QString(e.what()).startsWith(QString::fromStdString(path) + ":"));
        }
    }
};

QTEST_GUILESS_MAIN(TestVpocParallel)
#include "tst_vpoc_parallel.moc"
