// The one job helper: results arrive in the owner's thread; the latest job wins; cancel() drops a result,
// requestStop() stops the job and still delivers its result.
#include "ui/jobs/job_tracker.h"

#include <QTest>

#include <chrono>
#include <stdexcept>
#include <thread>

using stackscope::ui::JobControl;
using stackscope::ui::JobTracker;

namespace {

// Works until cancelled (or 5 s), then says how it ended.
QString workUntilCancelled(const JobControl& control)
{
    for (int i = 0; i < 500 && !control.isCancelled(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return control.isCancelled() ? QStringLiteral("stopped") : QStringLiteral("ran out");
}

// The failure handler of jobs that must not fail.
void unexpectedFailure(const QString& message)
{
    QFAIL(qPrintable(QStringLiteral("the job failed: ") + message));
}

} // namespace

class TestJobTracker : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void resultArrivesInTheOwnersThread()
    {
        QObject owner;
        JobTracker jobs(&owner);
        QThread* appliedIn = nullptr;
        int result = 0;
        jobs.run([](const JobControl&) { return 42; }, [&](int r) {
            result = r;
            appliedIn = QThread::currentThread();
        }, unexpectedFailure);
        QVERIFY(jobs.isRunning());
        QTRY_COMPARE(result, 42);
        QCOMPARE(appliedIn, owner.thread());
        QVERIFY(!jobs.isRunning());
    }

    void latestJobWins()
    {
        QObject owner;
        JobTracker jobs(&owner);
        QStringList applied;
        jobs.run(workUntilCancelled, [&](const QString& r) { applied << QStringLiteral("first ") + r; }, unexpectedFailure);
        jobs.run([](const JobControl&) { return QStringLiteral("done"); },
                 [&](const QString& r) { applied << QStringLiteral("second ") + r; }, unexpectedFailure);
        QTRY_COMPARE(applied, QStringList {QStringLiteral("second done")});
        QTest::qWait(100); // the first job has stopped by now; its result must never be applied
        QCOMPARE(applied, QStringList {QStringLiteral("second done")});
    }

    void cancelDropsTheResult()
    {
        QObject owner;
        JobTracker jobs(&owner);
        bool applied = false;
        jobs.run(workUntilCancelled, [&](const QString&) { applied = true; }, unexpectedFailure);
        jobs.cancel();
        QVERIFY(!jobs.isRunning());
        QTest::qWait(200);
        QVERIFY(!applied);
    }

    // A job that throws: its owner hears why, in its own thread, and the program goes on (before, the exception
    // left the thread pool's thread and std::terminate ended the program).
    void aThrowingJobReportsToItsOwner_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("std::exception") << 0 << QStringLiteral("disk full while reading /x");
        QTest::newRow("not a std::exception") << 1 << QStringLiteral("an error that is not a std::exception");
    }
    void aThrowingJobReportsToItsOwner()
    {
        QFETCH(int, kind);
        QFETCH(QString, expected);
        QObject owner;
        JobTracker jobs(&owner);
        bool applied = false;
        QString error;
        QThread* failedIn = nullptr;
        jobs.run(
            [kind](const JobControl&) -> int {
                if (kind == 0)
                    throw std::runtime_error("disk full while reading /x");
                throw 7;
            },
            [&](int) { applied = true; },
            [&](const QString& e) {
                error = e;
                failedIn = QThread::currentThread();
            });
        QTRY_VERIFY(!error.isEmpty());
        QVERIFY2(error.startsWith(expected), qPrintable(error));
        QCOMPARE(failedIn, owner.thread());
        QVERIFY(!applied);
        QVERIFY(!jobs.isRunning());
    }

    void requestStopKeepsTheResult()
    {
        QObject owner;
        JobTracker jobs(&owner);
        QString result;
        jobs.run(workUntilCancelled, [&](const QString& r) { result = r; }, unexpectedFailure);
        QVERIFY(!jobs.stopRequested());
        jobs.requestStop();
        QVERIFY(jobs.stopRequested());
        QVERIFY(jobs.isRunning()); // until the job has seen the request and its result is applied
        QTRY_COMPARE(result, QStringLiteral("stopped"));
        QVERIFY(!jobs.isRunning());
        QVERIFY(!jobs.stopRequested());
    }
};

QTEST_GUILESS_MAIN(TestJobTracker)
#include "tst_job_tracker.moc"
