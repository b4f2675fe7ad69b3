// TrainingRunBar: which of Start, Stop and Resume can be pressed while idle, running, after Stop, and when the last
// run can be resumed; it says when Resume's state changed (the window's Run > Resume training follows it).
#include "ui/training/training_run_bar.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace stackscope::ui;

class TestTrainingRunBar : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void states_data()
    {
        QTest::addColumn<bool>("running");
        QTest::addColumn<bool>("resumable");
        QTest::addColumn<bool>("start");
        QTest::addColumn<bool>("stop");
        QTest::addColumn<bool>("resume");
        QTest::newRow("idle") << false << false << true << false << false;
        QTest::newRow("idle, a stopped run with a checkpoint") << false << true << true << false << true;
        QTest::newRow("running") << true << false << false << true << false;
        QTest::newRow("running, resumable before") << true << true << false << true << false;
    }
    void states()
    {
        QFETCH(bool, running);
        QFETCH(bool, resumable);
        QFETCH(bool, start);
        QFETCH(bool, stop);
        QFETCH(bool, resume);
        TrainingRunBar bar;
        bar.setRunning(false, false);
        const bool changed = bar.setRunning(running, resumable);
        QCOMPARE(bar.canStart(), start);
        QCOMPARE(bar.canStop(), stop);
        QCOMPARE(bar.canResume(), resume);
        QCOMPARE(changed, resume); // Resume was off before
        QCOMPARE(bar.setRunning(running, resumable), false); // the same state again changes nothing
        QCOMPARE(bar.findChild<QPushButton*>(QStringLiteral("trainingStop"))->isEnabled(), stop);
    }

    void stopOnce()
    {
        TrainingRunBar bar;
        bar.setRunning(true, false);
        bar.stopRequested();
        QVERIFY(!bar.canStop());
        QVERIFY(!bar.canStart()); // the run goes on until it ends
    }

    void buttonsSayWhichWasPressed_data()
    {
        QTest::addColumn<QString>("button");
        QTest::addColumn<int>("which"); // 0 start, 1 stop, 2 resume
        QTest::newRow("Start") << "trainingStart" << 0;
        QTest::newRow("Stop") << "trainingStop" << 1;
        QTest::newRow("Resume") << "trainingResumeButton" << 2;
    }
    void buttonsSayWhichWasPressed()
    {
        QFETCH(QString, button);
        QFETCH(int, which);
        TrainingRunBar bar;
        QSignalSpy start(&bar, &TrainingRunBar::startClicked);
        QSignalSpy stop(&bar, &TrainingRunBar::stopClicked);
        QSignalSpy resume(&bar, &TrainingRunBar::resumeClicked);
        auto* b = bar.findChild<QPushButton*>(button);
        QVERIFY(b);
        b->setEnabled(true);
        b->click();
        QCOMPARE(start.size(), which == 0 ? 1 : 0);
        QCOMPARE(stop.size(), which == 1 ? 1 : 0);
        QCOMPARE(resume.size(), which == 2 ? 1 : 0);
    }
};

QTEST_MAIN(TestTrainingRunBar)
#include "tst_training_run_bar.moc"
