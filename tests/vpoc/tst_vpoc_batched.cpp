// The GPU backend's path (sessions gathered into batches) with computeBatchCpu in place of the GPU module, on 1 to 7
// threads, against the CPU path on one thread: the same JSON, developing values and errors (file:line:column); and
// the batch its pool fills against the one appendSession() builds.
#include "core/vpoc/vpoc_engine.h"
#include "core/vpoc/work_pool.h"
#include "vpoc_test_files.h"

#include <QtTest/QtTest>

#include <random>

using namespace stackscope::vpoc;
using stackscope::vpoc::testing::Shape;

namespace {

std::shared_ptr<const VpocResult> runBatched(const VpocOptions& vo)
{
    return runVpocBatched(vo, [](const ProfileBatch& batch, const ProfileOptions& options) {
        return computeBatchCpu(batch, options, 1);
    });
}

// The sessions with more rows than `maxRows` (moved to the CPU accumulator): "-" for one, "+" for one kept on the
// GPU path, in order ("+-+" is a move in the middle of a batch).
QString movedSessions(const VpocOptions& vo, int64_t maxRows)
{
    QString s;
    for (const auto& session : runVpoc(vo)->sessions)
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
        vo.session = session.toStdString();
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

    // fillSessions() on a pool gives the batch appendSession() gives: offsets, volumes, spans (none while every row
    // is a point, zeros for the point sessions before the first span otherwise) and the sessions' fields.
    void fillIsAppend_data()
    {
        QTest::addColumn<int>("distribution");
        QTest::addColumn<int>("pointSessions"); // the first sessions, all of whose rows are points (and the last)
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("minElements");
        const int uniform = int(Distribution::Uniform);
        QTest::newRow("uniform, spans after points, 3 threads") << uniform << 9 << 3 << 1;
        QTest::newRow("uniform, spans after points, 1 thread") << uniform << 9 << 1 << 100;
        QTest::newRow("uniform, spans from the start") << uniform << 0 << 3 << 7;
        QTest::newRow("uniform, all points") << uniform << 12 << 3 << 1;
        QTest::newRow("close") << int(Distribution::Close) << 4 << 3 << 1;
        QTest::newRow("typical") << int(Distribution::Typical) << 4 << 2 << 50;
    }
    void fillIsAppend()
    {
        QFETCH(int, distribution);
        QFETCH(int, pointSessions);
        QFETCH(int, threads);
        QFETCH(int, minElements);
        std::mt19937 rng(5);
        std::vector<MarketRecord> rows;
        ProfileBatch want;
        for (int day = 0; day < 12; ++day) {
            const size_t begin = rows.size();
            for (size_t i = 0, n = 1 + rng() % 400; i < n; ++i) {
                MarketRecord r;
                r.timeUs = int64_t(rows.size()) * 1000;
                r.low = 1000 + int32_t(rng() % 50) - day;
                r.high = r.low + (day < pointSessions || day == 11 ? 0 : int32_t(rng() % 3)); // the last: points
                r.close = r.low + (r.high - r.low) / 2;
                r.volume = 1 + rng() % 100;
                rows.push_back(r);
            }
            want.appendSession(day, rows.data() + begin, rows.size() - begin, Distribution(distribution));
        }
        ProfileBatch got;
        for (const auto& s : want.sessions) {
            SessionSlice slice;
            slice.day = s.day;
            slice.lowTick = s.lowTick;
            slice.width = s.width;
            slice.elemBegin = s.elemBegin;
            slice.elemEnd = s.elemEnd;
            got.sessions.push_back(slice);
        }
        WorkPool pool {static_cast<unsigned>(threads)};
        got.fillSessions(rows.data(), Distribution(distribution), pool, size_t(minElements));
        QCOMPARE(got.span.empty(), distribution != int(Distribution::Uniform) || pointSessions >= 11);
        QVERIFY(got.offset == want.offset);
        QVERIFY(got.volume == want.volume);
        QVERIFY(got.span == want.span);
        for (size_t i = 0; i < want.sessions.size(); ++i) {
            QCOMPARE(got.sessions[i].bars, want.sessions[i].bars);
            QCOMPARE(got.sessions[i].firstUs, want.sessions[i].firstUs);
            QCOMPARE(got.sessions[i].lastUs, want.sessions[i].lastUs);
        }
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
