// RingSeries: hard bound, trimming by time, clamped time steps, binary search, a 24-hour run at 20 Hz.
#include "core/telemetry/telemetry_store.h"
#include "core/telemetry/time_series.h"

#include <QtTest/QtTest>

using namespace stackscope::telemetry;

class TestRingSeries : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void trimming_data()
    {
        QTest::addColumn<qint64>("window");
        QTest::addColumn<int>("capacity");
        QTest::addColumn<int>("pushes");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<int>("expectedSize");
        QTest::addColumn<qint64>("expectedFront");
        // window 1000 ms, 100 ms steps: points at t-1000..t survive (11 of them).
        QTest::newRow("by time") << qint64(1000) << 100 << 50 << qint64(100) << 11 << qint64(3900);
        // the hard limit wins when the window would hold more.
        QTest::newRow("by count") << qint64(1000000) << 8 << 50 << qint64(100) << 8 << qint64(4200);
        QTest::newRow("under both") << qint64(10000) << 100 << 5 << qint64(100) << 5 << qint64(0);
        QTest::newRow("one point") << qint64(10) << 1 << 3 << qint64(1) << 1 << qint64(2);
        // 1 s steps with a 500 ms window: only the newest point remains.
        QTest::newRow("sparse") << qint64(500) << 100 << 10 << qint64(1000) << 1 << qint64(9000);
    }
    void trimming()
    {
        QFETCH(qint64, window);
        QFETCH(int, capacity);
        QFETCH(int, pushes);
        QFETCH(qint64, step);
        QFETCH(int, expectedSize);
        QFETCH(qint64, expectedFront);
        RingSeries s(window, capacity);
        for (int i = 0; i < pushes; ++i)
            s.push(i * step, i);
        QCOMPARE(int(s.size()), expectedSize);
        QCOMPARE(s.front().t, expectedFront);
        QCOMPARE(s.back().t, (pushes - 1) * step);
        QCOMPARE(s.back().v, double(pushes - 1));
        for (std::size_t i = 1; i < s.size(); ++i)
            QVERIFY(s.at(i - 1).t <= s.at(i).t);
    }

    void badArguments()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RingSeries(1000, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RingSeries(0, 10));
        RingSeries s(1000, 4);
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, s.at(0));
    }

    void timeGoingBackwardsIsClamped()
    {
        RingSeries s(10000, 10);
        s.push(1000, 1);
        s.push(900, 2); // a system clock step back
        QCOMPARE(int(s.size()), 2);
        QCOMPARE(s.back().t, qint64(1000));
        QCOMPARE(s.back().v, 2.0);
    }

    void lowerBound_data()
    {
        QTest::addColumn<qint64>("t");
        QTest::addColumn<int>("expected");
        QTest::newRow("before all") << qint64(-5) << 0;
        QTest::newRow("exact first") << qint64(300) << 0;
        QTest::newRow("between") << qint64(450) << 2;
        QTest::newRow("exact") << qint64(500) << 2;
        QTest::newRow("last") << qint64(1000) << 7;
        QTest::newRow("after all") << qint64(1001) << 8;
    }
    void lowerBound()
    {
        QFETCH(qint64, t);
        QFETCH(int, expected);
        // Capacity 8 after 11 pushes: the data wraps around the end of the storage.
        RingSeries s(100000, 8);
        for (int i = 0; i <= 10; ++i)
            s.push(i * 100, i);
        QCOMPARE(s.front().t, qint64(300));
        QCOMPARE(int(s.lowerBound(t)), expected);
    }

    void twentyFourHoursAtTwentyHz()
    {
        // The store's sizing: a one-hour window at 20 Hz. 24 hours of samples at 20 Hz (1,728,000 pushes)
        // must never grow the buffer, and trimming by time (not the hard limit) must be what drops points.
        StoreLimits limits;
        limits.window = 3600 * 1000;
        limits.maxRateHz = 20;
        RingSeries s(limits.window, limits.seriesCapacity());
        const std::size_t bytesBefore = s.bytes();
        const qint64 start = 1'700'000'000'000;
        std::size_t largest = 0;
        for (qint64 i = 0; i < 24LL * 3600 * 20; ++i) {
            s.push(start + i * 50, double(i % 1000));
            largest = std::max(largest, s.size());
        }
        QCOMPARE(s.bytes(), bytesBefore);
        QVERIFY(largest <= s.capacity());
        QCOMPARE(int(s.size()), 3600 * 20 + 1); // [newest - 1 h, newest] at 50 ms
        QCOMPARE(s.back().t - s.front().t, limits.window);
    }

    void storeOverTwentyFourHours()
    {
        // Through the store: two GPUs x 4 quantities, 24 h at 20 Hz with a 10-minute window, plus an
        // event a second; memory must stay what the first window needed.
        StoreLimits limits;
        limits.window = 10 * 60 * 1000;
        limits.maxRateHz = 20;
        limits.maxEvents = 1000;
        TelemetryStore store(limits);
        const qint64 start = 1'700'000'000'000;
        std::size_t bytesAfterFirstWindow = 0;
        for (qint64 i = 0; i < 24LL * 3600 * 20; ++i) {
            TelemetrySample s;
            s.timeMs = start + i * 50;
            for (int g = 0; g < 2; ++g) {
                GpuReadings r;
                r.vendor = "synthetic";
                r.index = g;
                for (Quantity q : {Quantity::VramUsed, Quantity::Utilisation, Quantity::Temperature, Quantity::Power})
                    r.at(q) = Reading::of(double(i % 100), "stub");
                s.gpus.push_back(r);
            }
            store.append(s);
            if (i % 20 == 0)
                store.addEvent({s.timeMs, EventKind::EpochEnd, "epoch"});
            if (i == 2 * limits.window / 50)
                bytesAfterFirstWindow = store.bytes();
        }
        QCOMPARE(store.keys().size(), std::size_t(8));
        QCOMPARE(store.pointCount(), std::size_t(8 * (10 * 60 * 20 + 1)));
        QVERIFY(store.allEvents().size() <= limits.maxEvents);
        QVERIFY(store.bytes() <= bytesAfterFirstWindow + 64 * 1024); // event text may vary a little
        QCOMPARE(*store.newestTime() - *store.oldestTime(), limits.window);
    }
};

QTEST_GUILESS_MAIN(TestRingSeries)
#include "tst_ring_series.moc"
