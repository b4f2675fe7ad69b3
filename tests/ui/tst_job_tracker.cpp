// The one job helper: results arrive in the owner's thread; the latest job wins; cancel() drops a result,
// requestStop() stops the job and still delivers its result.
#include "ui/jobs/job_tracker.h"

#include <QTest>

#include <chrono>
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
        });
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
        jobs.run(workUntilCancelled, [&](const QString& r) { applied << QStringLiteral("first ") + r; });
        jobs.run([](const JobControl&) { return QStringLiteral("done"); },
                 [&](const QString& r) { applied << QStringLiteral("second ") + r; });
        QTRY_COMPARE(applied, QStringList {QStringLiteral("second done")});
        QTest::qWait(100); // the first job has stopped by now; its result must never be applied
        QCOMPARE(applied, QStringList {QStringLiteral("second done")});
    }

    void cancelDropsTheResult()
    {
        QObject owner;
        JobTracker jobs(&owner);
        bool applied = false;
        jobs.run(workUntilCancelled, [&](const QString&) { applied = true; });
        jobs.cancel();
        QVERIFY(!jobs.isRunning());
        QTest::qWait(200);
        QVERIFY(!applied);
    }

    void requestStopKeepsTheResult()
    {
        QObject owner;
        JobTracker jobs(&owner);
        QString result;
        jobs.run(workUntilCancelled, [&](const QString& r) { result = r; });
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
