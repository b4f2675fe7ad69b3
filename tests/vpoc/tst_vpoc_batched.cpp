// The GPU backend's path (sessions gathered into batches) with computeBatchCpu in place of the GPU module, on 1 to 7
// threads, against the CPU path on one thread: the same JSON, developing values and errors (file:line:column); and
// the elements a block's pieces make against the ones appendSession() builds.
#include "core/vpoc/block_runs.h"
#include "core/vpoc/vpoc_engine.h"
#include "core/util/task_runner.h"
#include "vpoc_test_files.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <random>

using namespace stackscope::vpoc;
using stackscope::TaskRunner;
using stackscope::vpoc::testing::Shape;

namespace {

std::shared_ptr<const VpocResult> runBatched(const VpocOptions& vo)
{
    return runVpocBatched(vo, [](const BatchView& batch, const ProfileOptions& options) {
        return computeBatchCpu(batch, options, 1);
    });
}

// The sessions with more rows than `maxRows` (moved to the CPU accumulator): "-" for one, "+" for one kept on the
// GPU path, in order ("+-+" is a move in the middle of a batch).
QString movedSessions(const VpocOptions& vo, int64_t maxRows)
{
    QString s;
    const auto result = runVpoc(vo); // kept: a range-for over runVpoc(vo)->sessions reads a freed result
    for (const auto& session : result->sessions)
        s += session.bars > maxRows ? '-' : '+';
    return s;
}

} // namespace

class TestVpocBatched : public QObject {
    Q_OBJECT
    testing::ShapeFiles m_files;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_files.valid()); }

    void sameAsTheCpuPath_data()
    {
        QTest::addColumn<int>("shape");
        QTest::addColumn<bool>("bars");
        QTest::addColumn<QString>("session");
        QTest::addColumn<int>("distribution");
        QTest::addColumn<bool>("skipBad");
        QTest::addColumn<bool>("developing");
        QTest::addColumn<qlonglong>("maxGpuRows"); // a session with more rows goes to the CPU accumulator
        QTest::addColumn<qlonglong>("batchRows");  // a batch is sent once it holds this many rows
        QTest::addColumn<QString>("expect");       // in the JSON, or in the error ("error: ..." rows)
        QTest::addColumn<QString>("moved");        // movedSessions(), for the rows without an error
        const qlonglong all = qlonglong(1) << 22;
        const int uniform = int(Distribution::Uniform);
        const int closeTick = int(Distribution::Close);
        const int typical = int(Distribution::Typical);
        QTest::newRow("trades") << int(Shape::SampleTrades) << false << "globex" << uniform << false << false << all
                                << all << "\"bars\"" << "++";
        QTest::newRow("trades, many batches") << int(Shape::SampleTrades) << false << "globex" << uniform << false
                                              << false << all << qlonglong(3000) << "\"bars\"" << "++";
        QTest::newRow("trades, the second session on the CPU") << int(Shape::SampleTrades) << false << "globex"
                                                               << uniform << false << false << qlonglong(144000) << all
                                                               << "\"bars\"" << "+-";
        QTest::newRow("bars") << int(Shape::SampleBars) << true << "globex" << uniform << false << false << all << all
                              << "\"bars\"" << "++++++++++";
        QTest::newRow("bars, sessions on the CPU mid-batch") << int(Shape::UnevenBars) << true << "globex" << uniform
                                                             << false << false << qlonglong(1300) << all << "\"bars\"" << "+-++-++-++";
        QTest::newRow("bars, close, many batches, CPU sessions") << int(Shape::UnevenBars) << true << "globex"
                                                                 << closeTick << false << false << qlonglong(1300)
                                                                 << qlonglong(2000) << "\"bars\"" << "+-++-++-++";
        QTest::newRow("DST trades, two sessions and a gap") << int(Shape::DstTrades) << false << "01:30-23:00"
                                                            << uniform << false << false << qlonglong(20000)
                                                            << qlonglong(5000) << "\"outside_sessions\"" << "+-";
        // 01:00 to 01:01 EST is outside, between rows of the same session: a run ends there, inside a piece.
        QTest::newRow("DST trades, a session with a minute outside") << int(Shape::DstTrades) << false << "01:01-23:00"
                                                                     << uniform << false << false << all << all
                                                                     << "\"outside_sessions\": 29280" << "++";
        QTest::newRow("DST bars, typical, CPU sessions") << int(Shape::DstBars) << true << "01:30-23:00" << typical
                                                         << false << false << qlonglong(5000) << qlonglong(1000)
                                                         << "\"bars\"" << "+-";
        // Pieces of points only (no spans written) before and after pieces with spans, in one batch and across them.
        QTest::newRow("points, then bars, in one batch") << int(Shape::PointBars) << true << "01:30-23:00" << uniform
                                                         << false << false << all << all << "\"bars\"" << "+++++";
        QTest::newRow("points, then bars, many batches") << int(Shape::PointBars) << true << "01:30-23:00" << uniform
                                                         << false << false << all << qlonglong(1000) << "\"bars\""
                                                         << "+++++";
        QTest::newRow("points, then bars, CPU sessions") << int(Shape::PointBars) << true << "01:30-23:00" << uniform
                                                         << false << false << qlonglong(5000) << qlonglong(1000)
                                                         << "\"bars\"" << "+----";
        QTest::newRow("back in time, skipped") << int(Shape::BackInTime) << false << "globex" << uniform << true
                                               << false << qlonglong(50000) << qlonglong(7000)
                                               << "goes back before the previous row" << "-";
        QTest::newRow("developing, many batches, CPU sessions") << int(Shape::UnevenBars) << true << "globex"
                                                                << uniform << false << true << qlonglong(1300)
                                                                << qlonglong(2000) << "session,time,poc" << "+-++-++-++";
        QTest::newRow("wide row in a piece") << int(Shape::WideRow) << false << "globex" << uniform << true << false
                                             << all << all
                                             << ".csv:90003:1: this row (305000.00 .. 305000.00) makes the session" << "";
        QTest::newRow("wide row, session on the CPU") << int(Shape::WideRow) << false << "globex" << uniform << true
                                                      << false << qlonglong(1000) << all
                                                      << ".csv:90003:1: this row (305000.00 .. 305000.00) makes" << "";
        QTest::newRow("wide when pieces merge") << int(Shape::WideMerge) << false << "globex" << uniform << false
                                                << false << all << qlonglong(3000)
                                                << ".csv:110007:1: this row (50000.00 .. 50000.00) makes the session" << "";
        QTest::newRow("wide when pieces merge, session on the CPU") << int(Shape::WideMerge) << false << "globex"
                                                                    << uniform << false << false << qlonglong(70000)
                                                                    << all << ".csv:110007:1: this row (50000.00" << "";
    }
    void sameAsTheCpuPath()
    {
        QFETCH(int, shape);
        QFETCH(bool, bars);
        QFETCH(QString, session);
        QFETCH(int, distribution);
        QFETCH(bool, skipBad);
        QFETCH(bool, developing);
        QFETCH(qlonglong, maxGpuRows);
        QFETCH(qlonglong, batchRows);
        QFETCH(QString, expect);
        QFETCH(QString, moved);
        VpocOptions vo;
        vo.input = m_files.path(Shape(shape), bars);
        vo.backend = Backend::Cpu;
        vo.session = SessionRule::parse(session.toStdString(), "America/New_York");
        vo.profile.distribution = Distribution(distribution);
        vo.profile.keepProfiles = true;
        vo.read.skipBad = skipBad;
        vo.read.windowBytes = 1 << 19; // many windows, up to 7 chunks each
        vo.developing = developing;
        vo.threads = 1;
        const std::string cpu = testing::resultText(vo);
        QVERIFY2(QString::fromStdString(cpu).contains(expect), cpu.substr(0, 2000).c_str());
        if (cpu.compare(0, 6, "error:") != 0)
            QCOMPARE(movedSessions(vo, maxGpuRows), moved); // the row covers what its name says
        vo.minRowsPerThread = 1; // many pieces in every block, however small
        vo.threadCap = 64;       // 7 threads even on a 2-core machine (runVpoc caps at the hardware threads)
        vo.maxGpuSessionRows = maxGpuRows;
        vo.gpuBatchRows = size_t(batchRows);
        for (unsigned threads : {1u, 2u, 3u, 7u}) {
            vo.threads = threads;
            const std::string batched = testing::resultText(vo, runBatched);
            QVERIFY2(batched == cpu, qPrintable(QString("%1 threads:\n%2\nvs the CPU path:\n%3")
                                                    .arg(threads)
                                                    .arg(QString::fromStdString(batched.substr(0, 3000)))
                                                    .arg(QString::fromStdString(cpu.substr(0, 3000)))));
        }
    }

    // BlockRuns::find() on a pool: one element a row in a session (target tick, span, volume), each piece's from its
    // first row's index on, runs of one session day that cover them in order, and the rows outside counted; what
    // appendSession() gives for the same rows once each run's offsets are taken from its low.
    void blockRunsMakeElements_data()
    {
        QTest::addColumn<int>("distribution");
        QTest::addColumn<int>("outsideEvery"); // every n-th row is in the daily halt (0: none)
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("minRows");
        QTest::addColumn<int>("spanEvery"); // every n-th row covers more than one level (0: none, trades)
        const int uniform = int(Distribution::Uniform);
        QTest::newRow("uniform, 3 threads") << uniform << 0 << 3 << 1 << 2;
        QTest::newRow("uniform, rows outside, 3 threads") << uniform << 7 << 3 << 1 << 2;
        QTest::newRow("uniform, rows outside, 1 thread") << uniform << 5 << 1 << 100 << 2;
        QTest::newRow("uniform, points only") << uniform << 7 << 3 << 1 << 0;
        QTest::newRow("uniform, a few bars") << uniform << 7 << 3 << 1 << 701;
        QTest::newRow("close, rows outside") << int(Distribution::Close) << 3 << 2 << 7 << 2;
        QTest::newRow("typical, rows outside") << int(Distribution::Typical) << 11 << 3 << 50 << 2;
    }
    void blockRunsMakeElements()
    {
        QFETCH(int, distribution);
        QFETCH(int, outsideEvery);
        QFETCH(int, threads);
        QFETCH(int, minRows);
        QFETCH(int, spanEvery);
        const auto d = Distribution(distribution);
        const SessionRule rule = SessionRule::parse("globex", "America/New_York");
        // 2024-03-04 .. 03-08 (Monday to Friday, EST): sessions open 18:00 the evening before, halt 17:00 to 18:00.
        const int64_t monday = 1709510400LL * 1000000; // 2024-03-04 00:00 UTC = 2024-03-03 19:00 EST
        const int64_t hour = 3600LL * 1000000;
        std::mt19937 rng(5);
        std::vector<MarketRecord> rows;
        SessionClock clock(rule);
        for (int i = 0; i < 3000; ++i) {
            MarketRecord r;
            const bool outside = outsideEvery && i % outsideEvery == 0;
            const int64_t t = monday + int64_t(i) * (4 * 24 * hour / 3000);
            // A row in the halt: 17:30 EST (22:30 UTC) of the same UTC day as t.
            r.timeUs = outside ? t - t % (24 * hour) + 22 * hour + hour / 2 : t;
            if (!outside && clock.sessionDay(r.timeUs) == std::nullopt)
                continue; // t fell in a halt by itself
            r.low = 1000 + int32_t(rng() % 50) + i / 100;
            r.high = r.low + (spanEvery && i % spanEvery == 0 ? 1 + int32_t(rng() % 2) : 0);
            r.close = r.low + (r.high - r.low) / 2;
            r.volume = 1 + rng() % 100;
            rows.push_back(r);
        }
        std::sort(rows.begin(), rows.end(), [](auto& a, auto& b) { return a.timeUs < b.timeUs; });
        std::vector<int> days; // the session day of each row, -1 outside
        for (const auto& r : rows) {
            const auto day = clock.sessionDay(r.timeUs);
            days.push_back(day ? *day : -1);
        }
        const size_t n = rows.size();
        std::vector<int32_t> tick(n, -7);
        std::vector<uint32_t> span(n, 7), volume(n, 7);
        TaskRunner pool {static_cast<unsigned>(threads)};
        BlockRuns runs(SessionClock(rule), pool, size_t(minRows));
        QVERIFY(runs.find(rows.data(), n, d, {tick.data(), d == Distribution::Uniform ? span.data() : nullptr,
                                               volume.data()}));
        QCOMPARE(runs.outside(), int64_t(std::count(days.begin(), days.end(), -1)));
        QVERIFY(outsideEvery == 0 || runs.outside() > 0);
        size_t row = 0; // the next row in a session
        int runCount = 0, spanRuns = 0;
        runs.forEach([&](const RowRun& run) {
            ++runCount;
            std::vector<MarketRecord> mine;
            for (size_t e = run.begin; e < run.end; ++row) {
                QVERIFY(row < n);
                if (days[row] < 0)
                    continue;
                QCOMPARE(days[row], run.day);
                mine.push_back(rows[row]);
                ++e;
            }
            ProfileBatch want;
            want.appendSession(run.day, mine.data(), mine.size(), d);
            const auto& s = want.sessions[0];
            QCOMPARE(run.low, s.lowTick);
            QCOMPARE(run.high, s.lowTick + s.width - 1);
            QCOMPARE(run.firstUs, s.firstUs);
            QCOMPARE(run.lastUs, s.lastUs);
            for (size_t k = 0; k < mine.size(); ++k) {
                QCOMPARE(tick[run.begin + k] - s.lowTick, want.offset[k]);
                QCOMPARE(volume[run.begin + k], want.volume[k]);
                if (run.spans)
                    QCOMPARE(span[run.begin + k], want.span.empty() ? 0u : want.span[k]);
                else
                    QCOMPARE(span[run.begin + k], 7u); // not written
            }
            QVERIFY(run.spans || want.span.empty());
            QVERIFY(!run.spans || d == Distribution::Uniform);
            spanRuns += run.spans ? 1 : 0;
        });
        for (; row < n; ++row)
            QCOMPARE(days[row], -1); // only rows outside after the last run
        QVERIFY(runCount >= 4); // four sessions at least, more where pieces cut them
        // Spans written where a piece has a bar over more than one level; some pieces of "a few bars" have none.
        QCOMPARE(spanRuns > 0, d == Distribution::Uniform && spanEvery > 0);
        if (spanEvery > 100)
            QVERIFY(spanRuns < runCount);
    }

    // --backend gpu where no module opens: the module is opened while the first rows are read, and its error still
    // reaches the caller (whether a batch was sent before the end or not), naming what to do.
    void gpuWithoutModuleIsAnError_data()
    {
        QTest::addColumn<int>("shape");
        QTest::addColumn<bool>("bars");
        QTest::addColumn<bool>("developing");
        QTest::addColumn<qlonglong>("batchRows");
        QTest::newRow("trades, one batch at the end") << int(Shape::SampleTrades) << false << false << (qlonglong(1) << 22);
        QTest::newRow("trades, many batches") << int(Shape::SampleTrades) << false << false << qlonglong(3000);
        QTest::newRow("bars, developing") << int(Shape::SampleBars) << true << true << qlonglong(1000);
    }
    void gpuWithoutModuleIsAnError()
    {
        QFETCH(int, shape);
        QFETCH(bool, bars);
        QFETCH(bool, developing);
        QFETCH(qlonglong, batchRows);
        VpocOptions vo;
        vo.input = m_files.path(Shape(shape), bars);
        vo.backend = Backend::Gpu;
        vo.developing = developing;
        vo.gpuBatchRows = size_t(batchRows);
        vo.threads = 2;
        qputenv("STACKSCOPE_VPOC_GPU_MODULE", QByteArray("/nonexistent/libstackscope_vpoc_cuda.so"));
        QString error;
        try {
            runVpoc(vo);
        } catch (const std::runtime_error& e) {
            error = e.what();
        }
        qunsetenv("STACKSCOPE_VPOC_GPU_MODULE");
        QVERIFY2(error.contains("--backend gpu: no usable GPU module") && error.contains("use --backend cpu"),
                 qPrintable(error));
        vo.backend = Backend::Auto; // the CPU: no module needed
        QCOMPARE(runVpoc(vo)->backend, std::string("cpu"));
    }

    void noComputeIsAnError()
    {
        VpocOptions vo;
        vo.input = m_files.path(Shape::SampleBars, true);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runVpocBatched(vo, BatchCompute()));
    }
};

QTEST_GUILESS_MAIN(TestVpocBatched)
#include "tst_vpoc_batched.moc"
