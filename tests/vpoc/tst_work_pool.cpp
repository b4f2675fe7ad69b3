// WorkPool: every task runs once, in order on one thread, on every thread otherwise; the lowest task's exception
// comes back after every task ended; two callers at once and a call from inside a task both finish.
#include "core/vpoc/work_pool.h"

#include <QtTest/QtTest>

#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

using stackscope::vpoc::WorkPool;

class TstWorkPool : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyTaskOnce_data()
    {
        QTest::addColumn<unsigned>("threads");
        QTest::addColumn<int>("tasks");
        for (unsigned threads : {1u, 2u, 3u, 8u})
            for (int tasks : {0, 1, 2, 7, 1000})
                QTest::addRow("%u threads, %d tasks", threads, tasks) << threads << tasks;
    }
    void everyTaskOnce()
    {
        QFETCH(unsigned, threads);
        QFETCH(int, tasks);
        WorkPool pool(threads);
        QCOMPARE(pool.threads(), threads);
        std::vector<std::atomic<int>> ran(static_cast<size_t>(tasks));
        std::mutex m;
        std::set<std::thread::id> ids;
        pool.run(ran.size(), [&](size_t i) {
            ++ran[i];
            std::this_thread::sleep_for(std::chrono::microseconds(200)); // long enough for the workers to take some
            std::lock_guard<std::mutex> lock(m);
            ids.insert(std::this_thread::get_id());
        });
        for (const auto& r : ran)
            QCOMPARE(r.load(), 1);
        if (threads == 1 || tasks <= 1)
            QVERIFY(ids.size() <= 1);
        if (tasks == 1000 && threads > 1)
            QVERIFY2(ids.size() > 1, "1,000 tasks of 50 us ran on one thread: the workers took none");
    }

    void inOrderOnOneThread()
    {
        WorkPool pool(1);
        std::vector<size_t> order;
        pool.run(5, [&](size_t i) { order.push_back(i); });
        QCOMPARE(order, (std::vector<size_t> {0, 1, 2, 3, 4}));
    }

    void lowestExceptionAfterAllEnded_data()
    {
        QTest::addColumn<unsigned>("threads");
        QTest::newRow("1 thread") << 1u;
        QTest::newRow("4 threads") << 4u;
    }
    void lowestExceptionAfterAllEnded()
    {
        QFETCH(unsigned, threads);
        WorkPool pool(threads);
        std::atomic<int> ended {0};
        try {
            pool.run(64, [&](size_t i) {
                if (i == 60 || i == 5 || i == 30) {
                    ++ended;
                    throw std::runtime_error("task " + std::to_string(i));
                }
                std::this_thread::sleep_for(std::chrono::microseconds(100));
                ++ended;
            });
            QFAIL("no exception");
        } catch (const std::runtime_error& e) {
            // One thread stops at the first throw (in order, as a loop would); several run every task first.
            QCOMPARE(std::string(e.what()), std::string("task 5"));
            QCOMPARE(ended.load(), threads == 1 ? 6 : 64);
        }
        // The pool is still usable after a failed call.
        std::atomic<int> n {0};
        pool.run(10, [&](size_t) { ++n; });
        QCOMPARE(n.load(), 10);
    }

    void twoCallersAtOnce()
    {
        WorkPool pool(4);
        std::atomic<int> a {0}, b {0};
        std::thread other([&] {
            for (int k = 0; k < 50; ++k)
                pool.run(37, [&](size_t) { ++b; });
        });
        for (int k = 0; k < 50; ++k)
            pool.run(41, [&](size_t) { ++a; });
        other.join();
        QCOMPARE(a.load(), 50 * 41);
        QCOMPARE(b.load(), 50 * 37);
    }

    void callFromATask()
    {
        WorkPool pool(3);
        std::atomic<int> inner {0};
        pool.run(6, [&](size_t) { pool.run(5, [&](size_t) { ++inner; }); });
        QCOMPARE(inner.load(), 30);
    }
};

QTEST_GUILESS_MAIN(TstWorkPool)
#include "tst_work_pool.moc"
