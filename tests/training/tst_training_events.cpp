// RunObserver: the module's JSON events become typed progress values and a typed result, so no reader (the
// Training page, the main window's memory feed, the CLI) digs through the raw event by key.
#include "core/training/training_events.h"
#include "core/training/training_metadata.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
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

    // The trainer's note comparing the ranks with one GPU (core/torch/trainer.cpp, compareWithOneGpu) as the module
    // sends it: the sentence the CLI prints, and the figures as a typed value for the Training page.
    static nlohmann::json adviceEvent()
    {
        return {{"event", "note"},
                {"kind", "fewer_gpus_faster"},
                {"message", "2 processes run 508 steps/s; one GPU with the fused step kernel ran 11688 steps/s (GPU 0, "
                            "measured in this run): 23.0x faster. This model is too small to gain from several GPUs: "
                            "train it with --device gpu:0 (--device auto picks one GPU)"},
                {"processes", 2},
                {"ranks_steps_per_s", 508.0},
                {"one_gpu_steps_per_s", 11688.0},
                {"gpu", 0},
                {"suggested_device", "gpu:0"}};
    }

    void theOneGpuNoteBecomesAdvice()
    {
        std::vector<TrainingProgress> seen;
        RunObserver observer(nullptr, [&](const TrainingProgress& p) { seen.push_back(p); }, 3, {});
        observer.handle(adviceEvent().dump());
        QCOMPARE(seen.size(), std::size_t(1));
        const auto& p = seen[0];
        QVERIFY(p.kind == TrainingProgress::Kind::Note);
        QCOMPARE(p.message, adviceEvent()["message"].get<std::string>()); // what the CLI prints, unchanged
        QVERIFY(p.deviceAdvice);
        QVERIFY(p.deviceAdvice->kind == DeviceAdvice::Kind::FewerGpusFaster);
        QCOMPARE(p.deviceAdvice->processes, 2);
        QCOMPARE(p.deviceAdvice->ranksStepsPerS, 508.0);
        QCOMPARE(p.deviceAdvice->oneGpuStepsPerS, 11688.0);
        QCOMPARE(p.deviceAdvice->gpu, 0);
        QCOMPARE(p.deviceAdvice->suggestedDevice, std::string("gpu:0"));
        QCOMPARE(p.deviceAdvice->message, p.message);
        QVERIFY(observer.result().deviceAdvice);
        QCOMPARE(observer.result().deviceAdvice->suggestedDevice, std::string("gpu:0"));
        QCOMPARE(observer.result().notes, std::vector<std::string> {p.message});
    }

    // Only a whole advice is typed: a note without the figures (another note, an older module, a field of another
    // type) stays a sentence, and several GPUs being faster suggests no device.
    void adviceNeedsEveryFigure_data()
    {
        QTest::addColumn<QString>("event"); // JSON text
        QTest::addColumn<bool>("typed");
        QTest::addColumn<QString>("suggested");
        const auto row = [](const char* name, const nlohmann::json& e, bool typed, const char* suggested) {
            QTest::newRow(name) << QString::fromStdString(e.dump()) << typed << QString::fromLatin1(suggested);
        };
        row("one GPU faster", adviceEvent(), true, "gpu:0");
        auto onGpu3 = adviceEvent();
        onGpu3["gpu"] = 3;
        onGpu3["suggested_device"] = "gpu:3";
        row("rank 0 on GPU 3", onGpu3, true, "gpu:3");
        auto several = adviceEvent();
        several["kind"] = "several_gpus_faster";
        several.erase("suggested_device");
        row("several GPUs faster", several, true, "");
        row("a plain note", nlohmann::json {{"event", "note"}, {"message", "CUDA graph of the whole step"}}, false, "");
        auto older = adviceEvent(); // the module before the figures were typed: figures, no kind
        older.erase("kind");
        row("no kind", older, false, "");
        // The module's note when one GPU could not be timed (trainer_device_notes.h): the comparison was not made.
        row("one GPU not compared",
            nlohmann::json {{"event", "note"}, {"kind", "one_gpu_not_compared"}, {"processes", 2},
                            {"ranks_steps_per_s", 508.0},
                            {"message", "2 processes run 508 steps/s; whether one GPU would train this model faster is "
                                        "unknown; one GPU was not timed against them: no fused step kernel in this "
                                        "build (...)"}},
            false, "");
        auto unknown = adviceEvent();
        unknown["kind"] = "more_memory_faster";
        row("a kind this build does not know", unknown, false, "");
        for (const char* figure : {"ranks_steps_per_s", "one_gpu_steps_per_s", "processes", "gpu"}) {
            auto missing = adviceEvent();
            missing.erase(figure);
            row(qPrintable(QStringLiteral("no %1").arg(QLatin1String(figure))), missing, false, "");
        }
        auto text = adviceEvent();
        text["ranks_steps_per_s"] = "508";
        row("a figure as text", text, false, "");
        auto zero = adviceEvent();
        zero["one_gpu_steps_per_s"] = 0;
        row("no steps measured", zero, false, "");
        auto oneProcess = adviceEvent();
        oneProcess["processes"] = 1;
        row("one process", oneProcess, false, "");
        auto noDevice = adviceEvent();
        noDevice.erase("suggested_device");
        row("one GPU faster, no device", noDevice, false, "");
        auto twoGpus = adviceEvent();
        twoGpus["suggested_device"] = "gpu:0,1";
        row("a suggestion of two GPUs", twoGpus, false, "");
        auto cpu = adviceEvent();
        cpu["suggested_device"] = "cpu";
        row("a suggestion of the CPU", cpu, false, "");
    }
    void adviceNeedsEveryFigure()
    {
        QFETCH(QString, event);
        QFETCH(bool, typed);
        QFETCH(QString, suggested);
        TrainingProgress seen;
        RunObserver observer(nullptr, [&](const TrainingProgress& p) { seen = p; }, 1, {});
        observer.handle(event.toStdString());
        QVERIFY(seen.kind == TrainingProgress::Kind::Note);
        QCOMPARE(bool(seen.deviceAdvice), typed);
        QCOMPARE(bool(observer.result().deviceAdvice), typed);
        if (typed)
            QCOMPARE(QString::fromStdString(seen.deviceAdvice->suggestedDevice), suggested);
    }

    // model_metadata.json records the advice with the next epoch, so a replayed report shows it too; the record
    // reads back as the same value.
    void theMetadataRecordsTheAdvice()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("model_metadata.json")).toStdString();
        TrainingMetadata metadata(path, TrainingConfig {}, Dataset {}, Normalisation {}, 0, nlohmann::json());
        RunObserver observer(&metadata, {}, 2, {});
        observer.handle(R"j({"event":"started","devices":["NVIDIA H200"],"world_size":2,"dist_backend":"nccl"})j");
        observer.handle(adviceEvent().dump());
        observer.handle(R"j({"event":"epoch","epoch":1,"train_loss":0.5,"val_loss":0.25,"best_epoch":1})j");
        std::ifstream in(path);
        const auto written = nlohmann::json::parse(in);
        QVERIFY2(written.contains("device_advice"), written.dump().c_str());
        QCOMPARE(written["device_advice"]["kind"].get<std::string>(), std::string("fewer_gpus_faster"));
        QCOMPARE(written["device_advice"]["suggested_device"].get<std::string>(), std::string("gpu:0"));
        QVERIFY(!written["device_advice"].contains("event"));
        const auto run = recordedTrainingRun(written);
        QVERIFY(run.deviceAdvice);
        QCOMPARE(run.deviceAdvice->oneGpuStepsPerS, 11688.0);
        QCOMPARE(run.deviceAdvice->ranksStepsPerS, 508.0);
        QCOMPARE(run.deviceAdvice->processes, 2);
        QCOMPARE(run.deviceAdvice->suggestedDevice, std::string("gpu:0"));
        QCOMPARE(run.deviceAdvice->message, adviceEvent()["message"].get<std::string>());
        QVERIFY(!recordedTrainingRun(nlohmann::json {{"device_advice", "faster"}}).deviceAdvice);
        QVERIFY(!recordedTrainingRun(nlohmann::json::object()).deviceAdvice);
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
