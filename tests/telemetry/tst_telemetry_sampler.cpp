// Sources and sampler with stub sources: merge rules, N/A reasons, the torch feed, the thread, events, listeners.
#include "core/telemetry/sampler.h"

#include <QtTest/QtTest>

#include <atomic>
#include <chrono>
#include <thread>

using namespace stackscope::telemetry;

namespace {

// A stub that reports one GPU with a fixed set of readings; `reads` counts calls.
class StubSource : public TelemetrySource {
public:
    StubSource(std::string name, std::string vendor, std::map<Quantity, Reading> readings)
        : m_name(std::move(name))
        , m_vendor(std::move(vendor))
        , m_readings(std::move(readings))
    {
    }
    std::string name() const override { return m_name; }
    SourceStatus status() const override { return {m_name, true, MissingReason::Present, "stub"}; }
    void read(std::vector<GpuReadings>& gpus, TimeMs) override
    {
        ++reads;
        GpuReadings& g = findOrAddGpu(gpus, m_vendor, 0);
        g.name = "Stub GPU";
        for (const auto& [q, r] : m_readings)
            g.offer(q, r);
    }
    std::atomic<int> reads {0};

private:
    std::string m_name, m_vendor;
    std::map<Quantity, Reading> m_readings;
};

} // namespace

class TestTelemetrySampler : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void offerRules_data()
    {
        QTest::addColumn<int>("firstReason");  // -1: a value
        QTest::addColumn<int>("secondReason"); // -1: a value
        QTest::addColumn<QString>("expectedSource");
        QTest::addColumn<bool>("expectedPresent");
        const int value = -1;
        const int notSupported = int(MissingReason::NotSupported);
        const int permission = int(MissingReason::Permission);
        QTest::newRow("value beats later missing") << value << notSupported << "first" << true;
        QTest::newRow("later value beats missing") << notSupported << value << "second" << true;
        QTest::newRow("first value wins") << value << value << "first" << true;
        QTest::newRow("first reason wins") << permission << notSupported << "first" << false;
    }
    void offerRules()
    {
        QFETCH(int, firstReason);
        QFETCH(int, secondReason);
        QFETCH(QString, expectedSource);
        QFETCH(bool, expectedPresent);
        auto make = [](int reason, const char* source) {
            return reason < 0 ? Reading::of(1, source) : Reading::missing(MissingReason(reason), source, "why");
        };
        GpuReadings g;
        g.offer(Quantity::Power, make(firstReason, "first"));
        g.offer(Quantity::Power, make(secondReason, "second"));
        QCOMPARE(QString::fromStdString(g.at(Quantity::Power).source), expectedSource);
        QCOMPARE(g.at(Quantity::Power).present(), expectedPresent);
    }

    void missingReasons()
    {
        std::vector<std::unique_ptr<TelemetrySource>> sources;
        sources.push_back(std::make_unique<StubSource>(
            "stub", "nvidia",
            std::map<Quantity, Reading> {
                {Quantity::VramUsed, Reading::of(1e9, "stub")},
                {Quantity::Temperature, Reading::missing(MissingReason::Permission, "stub", "no permission")},
                {Quantity::SmClock, Reading::missing(MissingReason::NotSupported, "stub", "not supported by this GPU")},
            }));
        sources.push_back(makeTorchAllocatorSource(nullptr));
        TelemetrySampler sampler(std::move(sources), std::make_shared<TelemetryStore>());
        const auto s = sampler.sampleOnce(1000);
        QCOMPARE(int(s.gpus.size()), 1);
        const auto& g = s.gpus[0];
        QCOMPARE(*g.at(Quantity::VramUsed).value, 1e9);
        QCOMPARE(g.at(Quantity::Temperature).reason, MissingReason::Permission);
        QCOMPARE(g.at(Quantity::SmClock).reason, MissingReason::NotSupported);
        // Nobody spoke about power: the sampler says so, naming the quantity and vendor.
        QCOMPARE(g.at(Quantity::Power).reason, MissingReason::NotSupported);
        QVERIFY(g.at(Quantity::Power).detail.find("power") != std::string::npos);
        QVERIFY(g.at(Quantity::Power).detail.find("nvidia") != std::string::npos);
        // No feed (the CLI): not reported, with the reason that only the training process can see it.
        QCOMPARE(g.at(Quantity::TorchAllocated).reason, MissingReason::NotReported);
        QVERIFY(g.at(Quantity::TorchAllocated).detail.find("training") != std::string::npos);
        for (Quantity q : kAllQuantities)
            QVERIFY2(g.at(q).present() || !g.at(q).detail.empty(), quantityKey(q));
        QCOMPARE(int(s.sources.size()), 2);
    }

    void libraryNotLoaded_data()
    {
        QTest::addColumn<QByteArray>("variable");
        QTest::addColumn<int>("which");
        QTest::newRow("NVML") << QByteArray("STACKSCOPE_NVML_LIBRARY") << 0;
        QTest::newRow("rocm_smi") << QByteArray("STACKSCOPE_ROCM_SMI_LIBRARY") << 1;
    }
    void libraryNotLoaded()
    {
        QFETCH(QByteArray, variable);
        QFETCH(int, which);
        // The explicit setting is tried first; a bad path shows up in the detail with the loader's message.
        qputenv(variable.constData(), "/nonexistent/stackscope-test-lib.so");
        auto src = which == 0 ? makeNvmlTelemetrySource() : makeRocmSmiTelemetrySource();
        qunsetenv(variable.constData());
        const SourceStatus st = src->status();
        if (st.available)
            QSKIP("the vendor library loaded from the system path; this machine has the GPU stack");
        if (st.detail.find("/nonexistent/stackscope-test-lib.so") != std::string::npos) {
            // Nothing loaded: every path tried is listed with the loader's message, and the setting to use.
            QCOMPARE(st.reason, MissingReason::LibraryNotLoaded);
            QVERIFY2(st.detail.find(which == 0 ? "STACKSCOPE_NVML_LIBRARY" : "STACKSCOPE_ROCM_SMI_LIBRARY") !=
                         std::string::npos,
                     st.detail.c_str());
        } else {
            // A system copy loaded (librocm-smi-dev here) but cannot initialise without the driver.
            QVERIFY2(st.reason == MissingReason::LibraryNotLoaded || st.reason == MissingReason::Permission,
                     st.detail.c_str());
            QVERIFY2(st.detail.find(which == 0 ? "nvmlInit_v2 failed" : "rsmi_init failed") != std::string::npos,
                     st.detail.c_str());
        }
        std::vector<GpuReadings> gpus;
        src->read(gpus, 0);
        QVERIFY(gpus.empty());
    }

    void torchFeed_data()
    {
        QTest::addColumn<qint64>("age");
        QTest::addColumn<bool>("present");
        QTest::newRow("fresh") << qint64(500) << true;
        QTest::newRow("at the limit") << qint64(TorchAllocatorFeed::kStaleAfterMs) << true;
        QTest::newRow("stale") << qint64(TorchAllocatorFeed::kStaleAfterMs + 1) << false;
    }
    void torchFeed()
    {
        QFETCH(qint64, age);
        QFETCH(bool, present);
        auto feed = std::make_shared<TorchAllocatorFeed>();
        feed->push("nvidia", 1, 100, 200, 150, 1'000'000);
        auto src = makeTorchAllocatorSource(feed);
        std::vector<GpuReadings> gpus;
        findOrAddGpu(gpus, "nvidia", 0);
        src->read(gpus, 1'000'000 + age);
        QCOMPARE(int(gpus.size()), 2);
        const GpuReadings& pushed = findOrAddGpu(gpus, "nvidia", 1);
        QCOMPARE(pushed.at(Quantity::TorchReserved).present(), present);
        if (present) {
            QCOMPARE(*pushed.at(Quantity::TorchAllocated).value, 100.0);
            QCOMPARE(*pushed.at(Quantity::TorchReserved).value, 200.0);
            QCOMPARE(*pushed.at(Quantity::TorchPeak).value, 150.0);
        } else {
            QCOMPARE(pushed.at(Quantity::TorchReserved).reason, MissingReason::NotReported);
            QVERIFY(pushed.at(Quantity::TorchReserved).detail.find("stopped") != std::string::npos);
        }
        const GpuReadings& other = findOrAddGpu(gpus, "nvidia", 0);
        QCOMPARE(other.at(Quantity::TorchAllocated).reason, MissingReason::NotReported);
    }

    void intervalLimits_data()
    {
        QTest::addColumn<int>("ms");
        QTest::addColumn<bool>("ok");
        QTest::newRow("20 Hz") << 50 << true;
        QTest::newRow("1 Hz") << 1000 << true;
        QTest::newRow("too fast") << 49 << false;
        QTest::newRow("too slow") << 1001 << false;
    }
    void intervalLimits()
    {
        QFETCH(int, ms);
        QFETCH(bool, ok);
        TelemetrySampler sampler({}, std::make_shared<TelemetryStore>());
        QCOMPARE(sampler.intervalMs(), 250);
        if (ok) {
            sampler.setIntervalMs(ms);
            QCOMPARE(sampler.intervalMs(), ms);
        } else {
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sampler.setIntervalMs(ms));
        }
    }

    void threadSamplesIntoStoreAndStopsPromptly()
    {
        auto store = std::make_shared<TelemetryStore>();
        std::atomic<int> notified {0};
        const int listener = store->addListener([&notified] { ++notified; });
        std::vector<std::unique_ptr<TelemetrySource>> sources;
        sources.push_back(makeSyntheticSource(2));
        TelemetrySampler sampler(std::move(sources), store);
        sampler.setIntervalMs(50);
        sampler.start();
        QVERIFY(sampler.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(store->pointCount() >= 5 * 2 * 6, 5000);
        sampler.setIntervalMs(1000);
        // The wait between samples is interrupted: stop() must not wait out the 1 s interval.
        const auto t0 = std::chrono::steady_clock::now();
        sampler.stop();
        const auto waited = std::chrono::steady_clock::now() - t0;
        QVERIFY(waited < std::chrono::milliseconds(900));
        QVERIFY(!sampler.isRunning());
        store->removeListener(listener);
        QVERIFY(notified.load() >= 5);
        const auto keys = store->keys();
        QVERIFY(std::find(keys.begin(), keys.end(), SeriesKey {"synthetic:1", Quantity::Power}) != keys.end());
        QVERIFY(store->latest().has_value());
        QCOMPARE(int(store->latest()->gpus.size()), 2);
    }

    void eventsSortedAndTrimmed()
    {
        StoreLimits limits;
        limits.window = 1000;
        limits.maxEvents = 3;
        TelemetryStore store(limits);
        store.addEvent({100, EventKind::RunStarted, "run"});
        store.addEvent({300, EventKind::EpochEnd, "epoch 1"});
        store.addEvent({200, EventKind::ProbeFailure, "probe matmul crashed"}); // arrives late from another thread
        auto all = store.allEvents();
        QCOMPARE(int(all.size()), 3);
        QCOMPARE(all[1].kind, EventKind::ProbeFailure);
        store.addEvent({400, EventKind::VariantChange, "HSA_OVERRIDE_GFX_VERSION=11.0.0"});
        all = store.allEvents();
        QCOMPARE(int(all.size()), 3); // count limit dropped the oldest
        QCOMPARE(all.front().timeMs, qint64(200));
        store.addEvent({1350, EventKind::RunStopped, "done"}); // window: events before 350 go
        all = store.allEvents();
        QCOMPARE(int(all.size()), 2);
        QCOMPARE(all.front().kind, EventKind::VariantChange);
        QCOMPARE(int(store.events(1000, 2000).size()), 1);
    }
};

QTEST_GUILESS_MAIN(TestTelemetrySampler)
#include "tst_telemetry_sampler.moc"
