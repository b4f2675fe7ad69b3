// TaskRunner: forEach runs every task once, in order on one thread, on every thread otherwise, and the lowest task's
// exception comes back after every task ended (two callers at once and a call from inside a task both finish);
// together runs its tasks at the same time (tasks that wait for each other meet); start gives a value or an
// exception; post'ed tasks are waited for; CancelToken copies share one flag.
#include "core/util/cancel_token.h"
#include "core/util/task_runner.h"

#include <QtTest/QtTest>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

using stackscope::CancelToken;
using stackscope::TaskRunner;

class TstTaskRunner : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyTaskOnce_data()
    {
        QTest::addColumn<unsigned>("threads");
        QTest::addColumn<int>("tasks");
        for (unsigned threads : { 1u, 2u, 3u, 8u })
            for (int tasks : { 0, 1, 2, 7, 1000 })
                QTest::addRow("%u threads, %d tasks", threads, tasks) << threads << tasks;
    }
    void everyTaskOnce()
    {
        QFETCH(unsigned, threads);
        QFETCH(int, tasks);
        TaskRunner runner(threads);
        QCOMPARE(runner.threads(), threads);
        std::vector<std::atomic<int>> ran(static_cast<size_t>(tasks));
        std::mutex m;
        std::set<std::thread::id> ids;
        runner.forEach(ran.size(), [&](size_t i) {
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
            QVERIFY2(ids.size() > 1, "1,000 tasks of 200 us ran on one thread: the workers took none");
    }

    void inOrderOnOneThread()
    {
        TaskRunner runner(1);
        std::vector<size_t> order;
        runner.forEach(5, [&](size_t i) { order.push_back(i); });
        QCOMPARE(order, (std::vector<size_t> { 0, 1, 2, 3, 4 }));
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
        TaskRunner runner(threads);
        std::atomic<int> ended { 0 };
        try {
            runner.forEach(64, [&](size_t i) {
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
        // The runner is still usable after a failed call.
        std::atomic<int> n { 0 };
        runner.forEach(10, [&](size_t) { ++n; });
        QCOMPARE(n.load(), 10);
    }

    void twoCallersAtOnce()
    {
        TaskRunner runner(4);
        std::atomic<int> a { 0 }, b { 0 };
        auto other = runner.start([&] {
            for (int k = 0; k < 50; ++k)
                runner.forEach(37, [&](size_t) { ++b; });
        });
        for (int k = 0; k < 50; ++k)
            runner.forEach(41, [&](size_t) { ++a; });
        other.get();
        QCOMPARE(a.load(), 50 * 41);
        QCOMPARE(b.load(), 50 * 37);
    }

    void callFromATask()
    {
        TaskRunner runner(3);
        std::atomic<int> inner { 0 };
        runner.forEach(6, [&](size_t) { runner.forEach(5, [&](size_t) { ++inner; }); });
        QCOMPARE(inner.load(), 30);
    }

    // Tasks that wait for each other (the ranks of a collective) all run at once, however narrow the CPU lane.
    void togetherMeets_data()
    {
        QTest::addColumn<unsigned>("threads");
        QTest::addColumn<int>("tasks");
        QTest::newRow("1 thread, 1 task") << 1u << 1;
        QTest::newRow("1 thread, 6 tasks") << 1u << 6;
        QTest::newRow("2 threads, 12 tasks") << 2u << 12;
    }
    void togetherMeets()
    {
        QFETCH(unsigned, threads);
        QFETCH(int, tasks);
        TaskRunner runner(threads);
        std::mutex m;
        std::condition_variable cv;
        int arrived = 0;
        std::atomic<int> met { 0 };
        runner.together(static_cast<size_t>(tasks), [&](size_t) {
            std::unique_lock<std::mutex> lock(m);
            ++arrived;
            cv.notify_all();
            if (cv.wait_for(lock, std::chrono::seconds(10), [&] { return arrived == tasks; }))
                ++met;
        });
        QCOMPARE(met.load(), tasks);
    }

    void togetherLowestException()
    {
        TaskRunner runner(2);
        std::atomic<int> ended { 0 };
        try {
            runner.together(5, [&](size_t i) {
                std::this_thread::sleep_for(std::chrono::milliseconds(i == 4 ? 50 : 1));
                ++ended;
                if (i == 3 || i == 4)
                    throw std::runtime_error("task " + std::to_string(i));
            });
            QFAIL("no exception");
        } catch (const std::runtime_error& e) {
            QCOMPARE(std::string(e.what()), std::string("task 3"));
            QCOMPARE(ended.load(), 5); // thrown after every task ended
        }
    }

    void startGivesValueOrError()
    {
        TaskRunner runner(1);
        auto value = runner.start([] { return std::string("ready"); });
        auto error = runner.start([]() -> int { throw std::invalid_argument("bad input"); });
        QCOMPARE(value.get(), std::string("ready"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, error.get());
    }

    // An idle thread of the waiting lane takes the next task: tasks one after the other need one thread.
    void idleThreadReused()
    {
        TaskRunner runner(1);
        std::set<std::thread::id> ids;
        for (int i = 0; i < 5; ++i) {
            ids.insert(runner.start([] { return std::this_thread::get_id(); }).get());
            QVERIFY(runner.waitForDone(std::chrono::milliseconds(5000))); // its thread is idle again
        }
        QVERIFY2(ids.size() == 1, "five tasks one after the other started several threads: idle ones are not reused");
    }

    void postWaitedFor()
    {
        std::atomic<int> done { 0 };
        {
            TaskRunner runner(1);
            for (int i = 0; i < 3; ++i)
                runner.post([&] {
                    std::this_thread::sleep_for(std::chrono::milliseconds(30));
                    ++done;
                });
            QVERIFY(!runner.waitForDone(std::chrono::milliseconds(0)));
        } // the destructor waits for the posted tasks
        QCOMPARE(done.load(), 3);
    }

    void cancelTokenShared()
    {
        CancelToken token;
        const CancelToken copy = token;
        CancelToken other;
        QVERIFY(!copy.isCancelled());
        token.cancel();
        QVERIFY(copy.isCancelled());
        QVERIFY(token.isCancelled());
        QVERIFY(!other.isCancelled());
    }
};

QTEST_GUILESS_MAIN(TstTaskRunner)
#include "tst_task_runner.moc"
