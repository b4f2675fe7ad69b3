// VPOC on several threads against one thread: the parallel merge of the reader and the parallel profiles give the
// same JSON, errors (file:line:column) and --skip-bad reports, on files built to put every check at chunk edges.
#include "core/vpoc/csv_reader.h"
#include "core/vpoc/parallel_csv_reader.h"
#include "core/vpoc/session_accumulator.h"
#include "core/vpoc/vpoc_engine.h"
#include "core/vpoc/vpoc_output.h"
#include "session_compare.h"
#include "vpoc_test_files.h"

#include <QtTest/QtTest>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstring>
#include <fstream>
#include <random>

using namespace stackscope::vpoc;
using stackscope::vpoc::testing::Shape;

namespace {

// Every row, position and extra value a reader hands out, its skip report and first error, as text.
template <typename Reader>
std::string drained(Reader& r, bool positions)
{
    std::vector<MarketRecord> rows;
    std::vector<double> extras;
    std::vector<int64_t> lines;
    std::string s;
    auto more = [&] {
        if constexpr (std::is_same_v<Reader, ParallelCsvReader>)
            return r.read(rows, 999, &extras, &lines);
        else
            return r.read(rows, 999, &extras);
    };
    while (more()) {
    }
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto& x = rows[i];
        s += fmt::format("{} {} {} {} {} {} @{}\n", x.timeUs, x.open, x.high, x.low, x.close, x.volume,
                         positions ? lines[i] : 0);
    }
    for (double v : extras) {
        uint64_t bits; // NaN (an empty extra) by its bits
        std::memcpy(&bits, &v, sizeof bits);
        s += std::to_string(bits) + ",";
    }
    s += fmt::format("\nextras {}\nskipped {}\n", fmt::join(r.extraColumns(), ","), r.skipped().count);
    for (const auto& m : r.skipped().first)
        s += m + "\n";
    return s;
}

std::string readAll(const std::string& path, const ReadOptions& o, bool parallel)
{
    try {
        if (parallel) {
            ParallelCsvReader r(path, o);
            return drained(r, false);
        }
        std::ifstream in(path, std::ios::binary);
        MarketDataReader r(in, path, o);
        return drained(r, false);
    } catch (const InputError& e) {
        return std::string("error: ") + e.what();
    }
}

} // namespace

class TestVpocThreads : public QObject {
    Q_OBJECT
    testing::ShapeFiles m_files;
    const std::string& file(Shape shape, bool bars) { return m_files.path(shape, bars); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_files.valid()); }

    void sameOnEveryThreadCount_data()
    {
        QTest::addColumn<int>("shape");
        QTest::addColumn<bool>("bars");
        QTest::addColumn<bool>("skipBad");
        QTest::addColumn<QString>("session");
        QTest::addColumn<QString>("expect"); // in the JSON, or in the error ("error: ..." rows)
        QTest::newRow("sample trades") << int(Shape::SampleTrades) << false << false << "globex" << "\"bars\"";
        QTest::newRow("sample bars") << int(Shape::SampleBars) << true << false << "globex" << "\"bars\"";
        QTest::newRow("DST trades, globex") << int(Shape::DstTrades) << false << false << "globex" << "\"bars\"";
        QTest::newRow("DST trades, two sessions and a gap") << int(Shape::DstTrades) << false << false << "01:30-23:00"
                                                            << "\"outside_sessions\"";
        QTest::newRow("DST bars") << int(Shape::DstBars) << true << false << "01:30-23:00" << "\"bars\"";
        QTest::newRow("back in time, skipped") << int(Shape::BackInTime) << false << true << "globex"
                                               << "goes back before the previous row";
        QTest::newRow("back in time, stop") << int(Shape::BackInTime) << false << false << "globex"
                                            << ".csv:35072:1: timestamp goes back before the previous row";
        QTest::newRow("bars back in time, skipped") << int(Shape::BackInTime) << true << true << "globex"
                                                    << "\"count\"";
        QTest::newRow("bars back in time, stop") << int(Shape::BackInTime) << true << false << "globex"
                                                 << ".csv:30073:1: duplicate timestamp";
        QTest::newRow("bad rows, skipped") << int(Shape::BadRows) << false << true << "globex" << "\"vix\"";
        QTest::newRow("bad rows, stop") << int(Shape::BadRows) << false << false << "globex"
                                       << ".csv:20944:25: bad number 'x";
        QTest::newRow("bars bad rows, skipped") << int(Shape::BadRows) << true << true << "globex" << "\"vix\"";
        QTest::newRow("numeric symbol, skipped") << int(Shape::NumericSymbol) << false << true << "globex" << "\"sym\"";
        QTest::newRow("wide row in a piece") << int(Shape::WideRow) << false << true << "globex"
                                             << ".csv:90003:1: this row (305000.00 .. 305000.00) makes the session";
        QTest::newRow("wide when pieces merge") << int(Shape::WideMerge) << false << false << "globex"
                                                << ".csv:110007:1: this row (50000.00 .. 50000.00) makes the session";
    }
    void sameOnEveryThreadCount()
    {
        QFETCH(int, shape);
        QFETCH(bool, bars);
        QFETCH(bool, skipBad);
        QFETCH(QString, session);
        QFETCH(QString, expect);
        VpocOptions vo;
        vo.input = file(Shape(shape), bars);
        vo.backend = Backend::Cpu;
        vo.session = SessionRule::parse(session.toStdString(), "America/New_York");
        vo.read.skipBad = skipBad;
        vo.read.windowBytes = 1 << 19; // many windows, up to 7 chunks each
        vo.profile.keepProfiles = true;
        vo.minRowsPerThread = 1;       // a piece a thread in every block, however small
        vo.threadCap = 64;             // 7 threads even on a 2-core machine (runVpoc caps at the hardware threads)
        vo.threads = 1;
        const std::string one = testing::resultText(vo);
        QVERIFY2(QString::fromStdString(one).contains(expect), one.substr(0, 2000).c_str());
        for (unsigned threads : {2u, 3u, 7u}) {
            vo.threads = threads;
            const std::string many = testing::resultText(vo);
            QVERIFY2(one == many, qPrintable(QString("%1 threads:\n%2\nvs one thread:\n%3")
                                                 .arg(threads)
                                                 .arg(QString::fromStdString(many.substr(0, 3000)))
                                                 .arg(QString::fromStdString(one.substr(0, 3000)))));
        }
        // The reader alone against the sequential one (rows, extras, skip reports, errors).
        const std::string sequential = readAll(vo.input, vo.read, false);
        for (unsigned threads : {1u, 2u, 7u}) {
            vo.read.threads = threads;
            QVERIFY2(sequential == readAll(vo.input, vo.read, true),
                     qPrintable(QString("reader, %1 threads").arg(threads)));
        }
    }

    // The positions the parallel reader hands out are each row's line (the engine's errors name them): the size
    // written on that line is the row's volume (neighbouring rows always differ in size).
    void positionsAreLines()
    {
        ReadOptions o;
        o.windowBytes = 1 << 19;
        o.skipBad = true;
        const std::string& path = file(Shape::BadRows, false);
        std::vector<std::string> lines;
        std::ifstream in(path);
        for (std::string l; std::getline(in, l);)
            lines.push_back(l);
        for (unsigned threads : {1u, 3u}) {
            o.threads = threads;
            ParallelCsvReader r(path, o);
            std::vector<MarketRecord> rows;
            std::vector<int64_t> at;
            while (r.read(rows, 4096, nullptr, &at)) {
            }
            QVERIFY(rows.size() > 70000);
            for (size_t i = 0; i < rows.size(); ++i) {
                QVERIFY(at[i] >= 2 && size_t(at[i]) <= lines.size());
                const std::string& l = lines[size_t(at[i] - 1)];
                const auto a = l.find(',', l.find(',') + 1) + 1;
                QCOMPARE(l.substr(a, l.find(',', a) - a), std::to_string(rows[i].volume));
            }
        }
    }

    // absorb() of the rows after a session's own gives the session of all its rows, added one by one.
    void absorbIsAddingRowByRow_data()
    {
        QTest::addColumn<int>("distribution");
        QTest::addColumn<int>("split");
        QTest::newRow("uniform, split in the middle") << int(Distribution::Uniform) << 500;
        QTest::newRow("uniform, empty first part") << int(Distribution::Uniform) << 0;
        QTest::newRow("close, split early") << int(Distribution::Close) << 3;
        QTest::newRow("typical, split late") << int(Distribution::Typical) << 997;
    }
    void absorbIsAddingRowByRow()
    {
        QFETCH(int, distribution);
        QFETCH(int, split);
        ProfileOptions po;
        po.distribution = Distribution(distribution);
        po.keepProfiles = true;
        std::mt19937 rng(4);
        std::vector<MarketRecord> rows(1000);
        for (size_t i = 0; i < rows.size(); ++i) {
            auto& r = rows[i];
            r.timeUs = 1000 + int64_t(i);
            r.low = 1000 + int32_t(rng() % 200) - int32_t(i / 2); // the later rows reach new lows
            r.high = r.low + int32_t(rng() % 9) + (i > 600 ? 300 : 0); // and new highs
            r.open = r.close = r.low + (r.high - r.low) / 2;
            r.volume = 1 + rng() % 1000;
        }
        SessionAccumulator whole(po), first(po), later(po);
        for (size_t i = 0; i < rows.size(); ++i) {
            whole.add(7, rows[i]);
            (int(i) < split ? first : later).add(7, rows[i]);
        }
        first.absorb(later);
        const SessionResult a = whole.finish(), b = first.finish();
        testing::compareSession(b, a);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(b.day, 7);
    }
};

QTEST_GUILESS_MAIN(TestVpocThreads)
#include "tst_vpoc_threads.moc"
