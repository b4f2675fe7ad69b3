// RunObserver: the module's JSON events become typed progress values and a typed result, so no reader (the
// Training page, the main window's memory feed, the CLI) digs through the raw event by key.
#include "core/training/training_events.h"

#include <QTest>

#include <stdexcept>

using namespace stackscope::training;

class TestTrainingEvents : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eventsBecomeTypedValues()
    {
        std::vector<TrainingProgress> seen;
        RunObserver observer(nullptr, [&](const TrainingProgress& p) { seen.push_back(p); }, 5, {});
        observer.handle(R"j({"event":"started","first_epoch":3,"steps_per_epoch":40,"devices":["cuda:1"]})j");
        observer.handle(R"j({"event":"step","epoch":3,"step":20,"steps_per_epoch":40,"loss":0.5,"device":1,
                            "allocated_bytes":1024,"reserved_bytes":2048})j");
        observer.handle(R"j({"event":"epoch","epoch":3,"train_loss":0.5,"val_loss":0.25,"samples_per_s":900,
                            "seconds":1.5,"best_epoch":3,"improved":true})j");
        observer.handle(R"j({"event":"finished","status":"early_stopped","best_epoch":3,"best_val_loss":0.25,
                            "steps_per_s":12,"execution":"eager (CPU)"})j");
        QCOMPARE(seen.size(), std::size_t(4));
        QCOMPARE(seen[0].firstEpoch, 3);
        QCOMPARE(seen[0].stepsPerEpoch, int64_t(40));
        QCOMPARE(seen[0].message, std::string("cuda:1"));
        QCOMPARE(seen[1].device, 1);
        QCOMPARE(seen[1].allocatedBytes, 1024.0);
        QCOMPARE(seen[2].seconds, 1.5);
        QCOMPARE(seen[2].bestEpoch, 3);
        QVERIFY(seen[2].improved);
        QCOMPARE(seen[3].execution, std::string("eager (CPU)"));
        QVERIFY(observer.result().status == TrainingStatus::EarlyStopped);
        QCOMPARE(observer.result().epochs.size(), std::size_t(1));
        QCOMPARE(observer.result().epochs[0].seconds, 1.5);
    }

    // A run over several processes: rank 0's step carries every rank's memory (one all-reduce at the report point).
    void aStepCarriesEveryRanksMemory()
    {
        TrainingProgress seen;
        RunObserver observer(nullptr, [&](const TrainingProgress& p) { seen = p; }, 1, {});
        observer.handle(R"j({"event":"step","epoch":1,"step":5,"loss":0.5,"device":0,"device_used_bytes":3e9,
                            "ranks":[{"rank":0,"device":0,"device_used_bytes":3e9,"allocated_bytes":1e9,"reserved_bytes":2e9},
                                     {"rank":1,"device":1,"device_used_bytes":2.5e9,"allocated_bytes":-1,"reserved_bytes":-1}]})j");
        QCOMPARE(seen.ranks.size(), std::size_t(2));
        QCOMPARE(seen.ranks[1].rank, 1);
        QCOMPARE(seen.ranks[1].device, 1);
        QCOMPARE(seen.ranks[1].deviceUsedBytes, 2.5e9);
        QCOMPARE(seen.ranks[1].allocatedBytes, -1.0);
        observer.handle(R"j({"event":"step","epoch":1,"step":6,"loss":0.5})j");
        QVERIFY(seen.ranks.empty()); // one process: no ranks
    }

    void aStepWithoutADeviceIsTheCpu()
    {
        TrainingProgress seen;
        RunObserver observer(nullptr, [&](const TrainingProgress& p) { seen = p; }, 1, {});
        observer.handle(R"j({"event":"step","epoch":1,"step":1,"loss":0.5})j");
        QCOMPARE(seen.device, -1);
    }

    void statusNamesRoundTrip_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("name");
        QTest::newRow("finished") << int(TrainingStatus::Finished) << "finished";
        QTest::newRow("early_stopped") << int(TrainingStatus::EarlyStopped) << "early_stopped";
        QTest::newRow("stopped") << int(TrainingStatus::Stopped) << "stopped";
        QTest::newRow("failed") << int(TrainingStatus::Failed) << "failed";
    }
    // The metadata's status during a run has its name too (it is written through trainingStatusName).
    void runningHasAName()
    {
        QCOMPARE(QString::fromLatin1(trainingStatusName(TrainingStatus::Running)), QStringLiteral("running"));
    }
    void statusNamesRoundTrip()
    {
        QFETCH(int, status);
        QFETCH(QString, name);
        QCOMPARE(QString::fromLatin1(trainingStatusName(TrainingStatus(status))), name);
        QCOMPARE(int(trainingStatusFromName(name.toStdString())), status);
    }

    // The module's event callback never lets an exception out: it keeps it, tells the module to stop (non-zero),
    // and rethrowFailure() hands it to the host after the module returned.
    void theCallbackKeepsTheExceptionForTheHost()
    {
        RunObserver observer(nullptr, [](const TrainingProgress&) { throw std::runtime_error("disk full"); }, 1, {});
        QCOMPARE(RunObserver::onEvent(&observer, R"j({"event":"note","message":"x"})j"), 1);
        QString rethrown;
        try {
            observer.rethrowFailure();
        } catch (const std::exception& e) {
            rethrown = QString::fromUtf8(e.what());
        }
        QCOMPARE(rethrown, QStringLiteral("disk full"));
        RunObserver badJson(nullptr, {}, 1, {});
        QCOMPARE(RunObserver::onEvent(&badJson, "not json"), 1);
        QVERIFY_THROWS_EXCEPTION(std::exception, badJson.rethrowFailure());
        observer.rethrowFailure(); // once only
        RunObserver quiet(nullptr, {}, 1, {});
        QCOMPARE(RunObserver::onEvent(&quiet, R"j({"event":"note","message":"x"})j"), 0);
        quiet.rethrowFailure(); // nothing kept: no throw
    }

    // A module of another build that ends with a status this program does not know: said, with what to do.
    // "running" is model_metadata.json's status during a run, never how a run ends.
    void anUnknownStatusIsAnError_data()
    {
        QTest::addColumn<QString>("status");
        QTest::newRow("unknown") << "paused";
        QTest::newRow("running is no end") << "running";
    }
    void anUnknownStatusIsAnError()
    {
        QFETCH(QString, status);
        RunObserver observer(nullptr, {}, 1, {});
        try {
            observer.handle("{\"event\":\"finished\",\"status\":\"" + status.toStdString() + "\"}");
            QFAIL("no error for an unknown status");
        } catch (const std::runtime_error& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.contains(QStringLiteral("'%1'").arg(status)) && what.contains(QLatin1String("same build")), e.what());
        }
    }
};

QTEST_MAIN(TestTrainingEvents)
#include "tst_training_events.moc"
