// StallMeter: a blocked GUI thread shows up as the longest stall; an idle one does not invent one.
#include "ui/training/stall_meter.h"

#include <QElapsedTimer>
#include <QThread>
#include <QtTest>

using namespace stackscope::ui;

class TestStallMeter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void notRunningMeansNothing()
    {
        StallMeter meter;
        QVERIFY(!meter.isRunning());
        QCOMPARE(meter.longestStallMs(), 0.0);
        meter.stop(); // harmless when not running
        QCOMPARE(meter.ticks(), 0);
    }

    void blockedLoopIsMeasured_data()
    {
        QTest::addColumn<int>("blockMs");
        QTest::newRow("80 ms") << 80;
        QTest::newRow("250 ms") << 250;
    }
    void blockedLoopIsMeasured()
    {
        QFETCH(int, blockMs);
        StallMeter meter;
        meter.start();
        QVERIFY(meter.isRunning());
        QTest::qWait(30);
        QVERIFY(meter.ticks() > 0);
        // Block the event loop: no tick can fire until it returns, so that tick is at least this late
        // (minus the interval it was due after).
        QThread::msleep(static_cast<unsigned long>(blockMs));
        QTest::qWait(30);
        meter.stop();
        QVERIFY(!meter.isRunning());
        QVERIFY2(meter.longestStallMs() >= blockMs - meter.intervalMs() - 1,
                 qPrintable(QStringLiteral("blocked %1 ms, measured %2 ms").arg(blockMs).arg(meter.longestStallMs())));
        const int ticks = meter.ticks();
        QTest::qWait(20);
        QCOMPARE(meter.ticks(), ticks); // stopped means stopped
    }

    void restartResets()
    {
        StallMeter meter;
        meter.start();
        QThread::msleep(60);
        QTest::qWait(10);
        meter.stop();
        QVERIFY(meter.longestStallMs() >= 50);
        meter.start();
        QCOMPARE(meter.longestStallMs(), 0.0);
        QCOMPARE(meter.ticks(), 0);
        meter.stop();
    }
};

QTEST_GUILESS_MAIN(TestStallMeter)
#include "tst_stall_meter.moc"
