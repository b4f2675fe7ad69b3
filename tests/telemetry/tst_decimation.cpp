// Decimation maths: time-to-column mapping, min/max per column, value ranges; all as data rows.
#include "core/telemetry/decimation.h"

#include <QtTest/QtTest>

using namespace stackscope::telemetry;

using Points = std::vector<SeriesPoint>;
// Expected spans written compactly: column, min, max, first, last, count.
using Spans = QList<QList<double>>;
Q_DECLARE_METATYPE(Points)

class TestDecimation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void columnOf_data()
    {
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("t0");
        QTest::addColumn<qint64>("t1");
        QTest::addColumn<int>("columns");
        QTest::addColumn<int>("expected");
        QTest::newRow("start") << qint64(0) << qint64(0) << qint64(100) << 10 << 0;
        QTest::newRow("just before boundary") << qint64(9) << qint64(0) << qint64(100) << 10 << 0;
        QTest::newRow("on boundary") << qint64(10) << qint64(0) << qint64(100) << 10 << 1;
        QTest::newRow("end is last column") << qint64(100) << qint64(0) << qint64(100) << 10 << 9;
        QTest::newRow("before range") << qint64(-1) << qint64(0) << qint64(100) << 10 << -1;
        QTest::newRow("after range") << qint64(101) << qint64(0) << qint64(100) << 10 << -1;
        QTest::newRow("more columns than ms") << qint64(1) << qint64(0) << qint64(4) << 8 << 2;
        QTest::newRow("empty range") << qint64(5) << qint64(5) << qint64(5) << 10 << -1;
        QTest::newRow("no columns") << qint64(5) << qint64(0) << qint64(10) << 0 << -1;
        QTest::newRow("epoch ms, 24 h, 1920 px") << qint64(1'700'000'000'000 + 43'200'000) << qint64(1'700'000'000'000)
                                              << qint64(1'700'000'000'000 + 86'400'000) << 1920 << 960;
    }
    void columnOf()
    {
        QFETCH(qint64, t);
        QFETCH(qint64, t0);
        QFETCH(qint64, t1);
        QFETCH(int, columns);
        QFETCH(int, expected);
        QCOMPARE(stackscope::telemetry::columnOf(t, t0, t1, columns), expected);
    }

    void cachedColumnsMatchColumnOf_data()
    {
        QTest::addColumn<qint64>("t0");
        QTest::addColumn<qint64>("t1");
        QTest::addColumn<int>("columns");
        QTest::newRow("even") << qint64(0) << qint64(100) << 10;
        QTest::newRow("uneven") << qint64(7) << qint64(1000) << 13;
        QTest::newRow("more columns than ms") << qint64(0) << qint64(5) << 8;
        QTest::newRow("negative times") << qint64(-500) << qint64(-3) << 7;
    }
    void cachedColumnsMatchColumnOf()
    {
        // The decimator caches column bounds; one point per millisecond must land where columnOf says.
        QFETCH(qint64, t0);
        QFETCH(qint64, t1);
        QFETCH(int, columns);
        MinMaxDecimator d(t0, t1, columns);
        std::vector<int> expected;
        for (qint64 t = t0 - 2; t <= t1 + 2; ++t) {
            d.add(t, double(t));
            const int c = stackscope::telemetry::columnOf(t, t0, t1, columns);
            if (c >= 0 && (expected.empty() || expected.back() != c))
                expected.push_back(c);
        }
        QCOMPARE(int(d.spans().size()), int(expected.size()));
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const auto& s = d.spans()[i];
            QCOMPARE(s.column, expected[i]);
            QCOMPARE(stackscope::telemetry::columnOf(qint64(s.first), t0, t1, columns), s.column);
            QCOMPARE(stackscope::telemetry::columnOf(qint64(s.last), t0, t1, columns), s.column);
        }
    }

    void minMax_data()
    {
        QTest::addColumn<Points>("points");
        QTest::addColumn<int>("columns");
        QTest::addColumn<Spans>("expected");
        // Range is always [0, 100].
        QTest::newRow("empty") << Points {} << 10 << Spans {};
        QTest::newRow("one point") << Points {{50, 3}} << 10 << Spans {{5, 3, 3, 3, 3, 1}};
        QTest::newRow("spike kept") << Points {{0, 1}, {1, 9}, {2, 1}, {3, 1}} << 10 << Spans {{0, 1, 9, 1, 1, 4}};
        QTest::newRow("dip kept") << Points {{20, 5}, {21, -4}, {22, 5}} << 10 << Spans {{2, -4, 5, 5, 5, 3}};
        QTest::newRow("two columns") << Points {{0, 1}, {5, 2}, {10, 7}, {19, 3}} << 10
                                     << Spans {{0, 1, 2, 1, 2, 2}, {1, 3, 7, 7, 3, 2}};
        QTest::newRow("gap leaves columns out") << Points {{0, 1}, {95, 2}} << 10 << Spans {{0, 1, 1, 1, 1, 1}, {9, 2, 2, 2, 2, 1}};
        QTest::newRow("outside points ignored") << Points {{-10, 100}, {50, 1}, {150, 100}} << 10 << Spans {{5, 1, 1, 1, 1, 1}};
        QTest::newRow("NaN skipped") << Points {{10, 1}, {11, std::nan("")}, {12, 2}} << 10 << Spans {{1, 1, 2, 1, 2, 2}};
        QTest::newRow("one column") << Points {{0, 4}, {50, -2}, {100, 6}} << 1 << Spans {{0, -2, 6, 4, 6, 3}};
    }
    void minMax()
    {
        QFETCH(Points, points);
        QFETCH(int, columns);
        QFETCH(Spans, expected);
        const auto spans = decimateMinMax(points, 0, 100, columns);
        QCOMPARE(int(spans.size()), int(expected.size()));
        for (int i = 0; i < expected.size(); ++i) {
            const auto& e = expected[i];
            const auto& s = spans[std::size_t(i)];
            QCOMPARE(s.column, int(e[0]));
            QCOMPARE(s.min, e[1]);
            QCOMPARE(s.max, e[2]);
            QCOMPARE(s.first, e[3]);
            QCOMPARE(s.last, e[4]);
            QCOMPARE(int(s.count), int(e[5]));
        }
    }

    void seriesMatchesVector_data()
    {
        QTest::addColumn<qint64>("t0");
        QTest::addColumn<qint64>("t1");
        QTest::addColumn<int>("columns");
        // Ring of 1000 points after 2,500 pushes every 10 ms: retained 15,000..24,990, storage wrapped,
        // and the oldest block partly trimmed. Few columns use block summaries, many use raw points.
        QTest::newRow("all retained, 300 columns") << qint64(15000) << qint64(24990) << 300;
        QTest::newRow("all retained, 7 columns") << qint64(15000) << qint64(24990) << 7;
        QTest::newRow("wider than data, 3 columns") << qint64(0) << qint64(30000) << 3;
        QTest::newRow("one column") << qint64(0) << qint64(30000) << 1;
        QTest::newRow("inside, odd edges, 5 columns") << qint64(16333) << qint64(23777) << 5;
        QTest::newRow("narrow, 300 columns") << qint64(20000) << qint64(21000) << 300;
    }
    void seriesMatchesVector()
    {
        // Decimating the ring in place (binary search, wrap-around, block summaries) gives exactly what
        // decimating a copy of its points gives.
        QFETCH(qint64, t0);
        QFETCH(qint64, t1);
        QFETCH(int, columns);
        RingSeries ring(1'000'000, 1000);
        Points copy;
        for (int i = 0; i < 2500; ++i) {
            double v = std::sin(i * 0.05) * 10 + (i % 97 == 0 ? 50 : 0);
            if (i % 131 == 0)
                v = std::nan("");
            ring.push(i * 10, v);
        }
        for (std::size_t i = 0; i < ring.size(); ++i)
            copy.push_back(ring.at(i));
        const auto a = decimateSeries(ring, t0, t1, columns);
        const auto b = decimateMinMax(copy, t0, t1, columns);
        QCOMPARE(a.size(), b.size());
        QVERIFY(!a.empty());
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].column, b[i].column);
            QCOMPARE(a[i].min, b[i].min);
            QCOMPARE(a[i].max, b[i].max);
            QCOMPARE(a[i].first, b[i].first);
            QCOMPARE(a[i].last, b[i].last);
            QCOMPARE(a[i].count, b[i].count);
        }
    }

    void millionPointsBecomeColumns()
    {
        RingSeries ring(1'000'000'000, 1'000'000);
        for (int i = 0; i < 1'000'000; ++i)
            ring.push(i * 100, i % 2 ? 1.0 : -1.0);
        const auto spans = decimateSeries(ring, 0, 99'999'900, 1000);
        QCOMPARE(int(spans.size()), 1000);
        std::size_t total = 0;
        for (const auto& s : spans) {
            QCOMPARE(s.min, -1.0);
            QCOMPARE(s.max, 1.0);
            total += s.count;
        }
        QCOMPARE(total, std::size_t(1'000'000));
    }

    void valueRange_data()
    {
        QTest::addColumn<Spans>("spans");
        QTest::addColumn<bool>("floorAtZero");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::newRow("nothing") << Spans {} << false << 0.0 << 1.0;
        QTest::newRow("padded 5%") << Spans {{0, 0, 100, 0, 0, 1}} << false << -5.0 << 105.0;
        QTest::newRow("floored") << Spans {{0, 0, 100, 0, 0, 1}} << true << 0.0 << 105.0;
        QTest::newRow("flat zero") << Spans {{0, 0, 0, 0, 0, 1}} << false << -1.0 << 1.0;
        QTest::newRow("flat value") << Spans {{0, 200, 200, 0, 0, 1}} << false << 190.0 << 210.0;
        QTest::newRow("negative kept") << Spans {{0, -10, 10, 0, 0, 1}} << false << -11.0 << 11.0;
    }
    void valueRange()
    {
        QFETCH(Spans, spans);
        QFETCH(bool, floorAtZero);
        QFETCH(double, min);
        QFETCH(double, max);
        std::vector<ColumnSpan> series;
        for (const auto& e : spans)
            series.push_back({int(e[0]), e[1], e[2], e[3], e[4], std::size_t(e[5])});
        const auto r = valueRangeOf({series}, floorAtZero);
        QCOMPARE(r.min, min);
        QCOMPARE(r.max, max);
    }
};

QTEST_GUILESS_MAIN(TestDecimation)
#include "tst_decimation.moc"
