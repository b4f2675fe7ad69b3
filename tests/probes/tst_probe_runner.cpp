// Tests of the probe runner with the real worker (stackscope-cli probe-worker): injected faults,
// timeouts, crash signals, restart after a fault, stderr capture, cancel, and the CPU column.
#include "core/probes/probe_catalogue.h"
#include "core/probes/probe_runner.h"
#include "core/probes/probe_variants.h"

#include <QtTest>

#include <chrono>
#include <thread>

using namespace stackscope;
using namespace std::chrono_literals;

namespace {

std::string worker()
{
    return qEnvironmentVariable("STACKSCOPE_CLI").toStdString();
}

const ProbeRecord* find(const std::vector<ProbeRecord>& records, const std::string& probe)
{
    for (const auto& r : records) {
        if (r.outcome.probeId == probe)
            return &r;
    }
    return nullptr;
}

} // namespace

class TestProbeRunner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (worker().empty())
            QSKIP("STACKSCOPE_CLI is not set; run through ctest");
        std::string error, backend;
        const auto devices = listProbeDevices(worker(), 20s, &error, &backend);
        if (!error.empty())
            QSKIP(qPrintable(QStringLiteral("the torch module is not usable here: ") + QString::fromStdString(error)));
        QVERIFY(!devices.empty());
        QCOMPARE(devices.front().id, std::string("cpu"));
    }

    void injectedFaults_data()
    {
        QTest::addColumn<QString>("inject");
        QTest::addColumn<int>("expected");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("crash") << "crash" << int(ProbeResult::Crash) << "SIGSEGV";
        QTest::newRow("abort") << "abort" << int(ProbeResult::Crash) << "SIGABRT";
        QTest::newRow("hang") << "hang" << int(ProbeResult::Hang) << "no result after";
        QTest::newRow("wrong") << "wrong" << int(ProbeResult::Wrong) << "max error";
        QTest::newRow("oom") << "oom" << int(ProbeResult::Error) << "memory";
    }
    void injectedFaults()
    {
        QFETCH(QString, inject);
        QFETCH(int, expected);
        QFETCH(QString, messagePart);
        ProbeRunOptions o;
        o.workerProgram = worker();
        o.devices = {"cpu"};
        o.probeIds = {"elementwise", "softmax", "alloc_zeros"};
        o.inject = inject.toStdString();
        o.injectProbe = "softmax";
        // Short only where the fault is a hang: on a loaded machine a first op may take a second or more.
        o.timeout = inject == QLatin1String("hang") ? 3000ms : 30000ms;
        int callbacks = 0;
        const auto t0 = std::chrono::steady_clock::now();
        const auto records = ProbeRunner(o).run([&](const ProbeRecord&) { ++callbacks; });
        const auto wall = std::chrono::steady_clock::now() - t0;
        QCOMPARE(records.size(), std::size_t(3));
        QCOMPARE(callbacks, 3);
        const auto* faulty = find(records, "softmax");
        QVERIFY(faulty);
        QCOMPARE(int(faulty->outcome.outcome), expected);
        QVERIFY2(QString::fromStdString(faulty->outcome.message).contains(messagePart, Qt::CaseInsensitive),
                 faulty->outcome.message.c_str());
        // The probes before and after the fault still ran (the worker is restarted after a crash).
        for (const char* other : {"elementwise", "alloc_zeros"})
            QVERIFY2(find(records, other)->outcome.outcome == ProbeResult::Ok, find(records, other)->outcome.message.c_str());
        // Grid (catalogue) order, not the order asked for or of arrival.
        QCOMPARE(records.front().outcome.probeId, std::string("alloc_zeros"));
        QCOMPARE(records.back().outcome.probeId, std::string("softmax"));
        if (inject == QLatin1String("crash") || inject == QLatin1String("abort"))
            QVERIFY2(faulty->outcome.capturedStderr.find("injected") != std::string::npos, faulty->outcome.capturedStderr.c_str());
        if (inject == QLatin1String("hang")) {
            QVERIFY(faulty->seconds >= 2.9);
            QVERIFY(wall < 20s);
        }
    }

    void cpuColumnIsAllOk()
    {
        ProbeRunOptions o;
        o.workerProgram = worker();
        o.devices = {"cpu"};
        o.timeout = 60s;
        const auto records = ProbeRunner(o).run();
        QCOMPARE(records.size(), probesForDevice("cpu").size());
        for (const auto& r : records) {
            // Debian's libtorch 1.13 has no float16 matmul on the CPU: that cell says so instead of failing.
            if (r.outcome.outcome == ProbeResult::Unsupported) {
                QVERIFY2(r.outcome.message.find("no CPU kernel") != std::string::npos, r.outcome.message.c_str());
                continue;
            }
            QVERIFY2(r.outcome.outcome == ProbeResult::Ok,
                     (r.outcome.probeId + ": " + probeResultName(r.outcome.outcome) + " " + r.outcome.message).c_str());
            QCOMPARE(r.outcome.device, std::string("cpu"));
            QCOMPARE(r.outcome.variant, std::string("baseline"));
            QVERIFY(r.seconds >= 0.0);
            if (r.tolerance)
                QVERIFY2(r.maxError && *r.maxError <= *r.tolerance, r.outcome.probeId.c_str());
        }
        QVERIFY(find(records, "matmul_fp32")->maxError.has_value());
    }

    void variantEnvironmentReachesTheChild()
    {
        ProbeRunOptions o;
        o.workerProgram = worker();
        o.devices = {"cpu"};
        o.probeIds = {"alloc_zeros"};
        o.variants = {ProbeVariant {}, variantFromEnvSpec("TORCH_BLAS_PREFER_HIPBLASLT=0")};
        const auto records = ProbeRunner(o).run();
        QCOMPARE(records.size(), std::size_t(2));
        QCOMPARE(records[0].outcome.variant, std::string("baseline"));
        QCOMPARE(records[0].outcome.env.count("TORCH_BLAS_PREFER_HIPBLASLT"), std::size_t(0));
        QCOMPARE(records[1].outcome.env.at("TORCH_BLAS_PREFER_HIPBLASLT"), std::string("0"));
    }

    void brokenModuleIsAnErrorPerProbe()
    {
        ProbeRunOptions o;
        o.workerProgram = worker();
        o.devices = {"cpu"};
        o.probeIds = {"alloc_zeros", "softmax"};
        o.variants = {variantFromEnvSpec("STACKSCOPE_TORCH_MODULE=/nonexistent/libstackscope_torch.so")};
        const auto records = ProbeRunner(o).run();
        QCOMPARE(records.size(), std::size_t(2));
        for (const auto& r : records) {
            QCOMPARE(r.outcome.outcome, ProbeResult::Error);
            QVERIFY2(r.outcome.message.find("/nonexistent/libstackscope_torch.so") != std::string::npos, r.outcome.message.c_str());
        }
    }

    void missingWorkerIsAnError()
    {
        ProbeRunOptions o;
        o.workerProgram = "/nonexistent/stackscope-cli";
        o.devices = {"cpu"};
        o.probeIds = {"alloc_zeros"};
        const auto records = ProbeRunner(o).run();
        QCOMPARE(records.size(), std::size_t(1));
        QCOMPARE(records[0].outcome.outcome, ProbeResult::Error);
        QVERIFY(records[0].outcome.message.find("cannot start the probe worker") != std::string::npos);
    }

    void cancelWithinASecond()
    {
        ProbeRunOptions o;
        o.workerProgram = worker();
        o.devices = {"cpu"};
        o.probeIds = {"alloc_zeros", "softmax"};
        o.inject = "hang";
        o.timeout = 60s;
        ProbeRunner runner(o);
        std::vector<ProbeRecord> records;
        std::thread t([&] { records = runner.run(); });
        std::this_thread::sleep_for(1500ms); // the worker is in the hang by now
        const auto t0 = std::chrono::steady_clock::now();
        runner.cancel();
        t.join();
        QVERIFY(std::chrono::steady_clock::now() - t0 < 1s);
        QVERIFY(runner.isCancelled());
        QVERIFY(!find(records, "softmax")); // never reached
    }
};

QTEST_GUILESS_MAIN(TestProbeRunner)
#include "tst_probe_runner.moc"
