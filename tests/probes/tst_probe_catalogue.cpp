// Tests of the probe catalogue, the variants built from the diagnosis rules, the A/B view and the protocol.
#include "core/probes/probe_catalogue.h"
#include "core/probes/probe_protocol.h"
#include "core/probes/probe_runner.h"
#include "core/probes/probe_variants.h"

#include <QtTest>

#include <algorithm>
#include <optional>
#include <set>

using namespace stackscope;

class TestProbeCatalogue : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The GPU's Alone worker (bandwidths and fills) first, then longest first: the CPU column's torch.compile in a
    // worker of its own, a worker per group of the GPU column (compile, distributed, shared), the CPU's rest, last a
    // worker per probe that starts rank processes.
    void cellPlan_data()
    {
        QTest::addColumn<bool>("python");
        QTest::addColumn<QStringList>("probes"); // empty: the whole catalogue
        // device:first probe:count per worker, in start order ("!": alone on the GPU, "*": compiles in its process)
        QTest::addColumn<QStringList>("expected");
        const auto n = [](const std::string& device, bool python, std::optional<GpuWorkerGroup> group = {}) {
            auto ids = probesForDevice(device, {}, python);
            return std::count_if(ids.begin(), ids.end(), [&](const std::string& id) {
                return !group || gpuWorkerGroup(id) == *group;
            });
        };
        using G = GpuWorkerGroup;
        QTest::newRow("python, cpu + gpu 0")
            << true << QStringList {}
            << QStringList {QStringLiteral("0!alloc_empty_1gib:4"), QStringLiteral("cpu:torch_compile_fn:2"), QStringLiteral("0*torch_compile_fn:2"),
                            QStringLiteral("0:all_reduce:%1").arg(n("0", true, G::Distributed) - 3),
                            QStringLiteral("0:device_info:%1").arg(n("0", true, G::Shared)),
                            QStringLiteral("cpu:device_info:%1").arg(n("cpu", true) - 3),
                            QStringLiteral("cpu:dist_gloo:1"), QStringLiteral("0:dist_gloo:1"),
                            QStringLiteral("0:dist_nccl:1"), QStringLiteral("0:fsdp_step:1")};
        QTest::newRow("libtorch, cpu + gpu 0")
            << false << QStringList {}
            << QStringList {QStringLiteral("0!alloc_empty_1gib:4"), QStringLiteral("0:all_reduce:3"),
                            QStringLiteral("0:device_info:%1").arg(n("0", false, G::Shared)),
                            QStringLiteral("cpu:device_info:%1").arg(n("cpu", false))};
        QTest::newRow("python, no compile probe asked")
            << true << QStringList {QStringLiteral("matmul_bf16"), QStringLiteral("sdpa")}
            << QStringList {QStringLiteral("0:matmul_bf16:2"), QStringLiteral("cpu:matmul_bf16:2")};
        QTest::newRow("python, only the compile probes")
            << true << QStringList {QStringLiteral("torch_compile_mlp")}
            << QStringList {QStringLiteral("cpu:torch_compile_mlp:1"), QStringLiteral("0*torch_compile_mlp:1")};
        QTest::newRow("libtorch, only a copy")
            << false << QStringList {QStringLiteral("copy_d2h")}
            << QStringList {QStringLiteral("0!copy_d2h:1"), QStringLiteral("cpu:copy_d2h:1")};
        // The groups cover the catalogue: every probe of a GPU column runs in exactly one worker.
        QVERIFY(n("0", true, G::Shared) + n("0", true, G::Compile) + n("0", true, G::Distributed) + n("0", true, G::Alone)
                == n("0", true));
    }

    void cellPlan()
    {
        QFETCH(bool, python);
        QFETCH(QStringList, probes);
        QFETCH(QStringList, expected);
        std::vector<std::string> ids;
        for (const auto& p : probes)
            ids.push_back(p.toStdString());
        const std::vector<ProbeVariant> variants {ProbeVariant {}};
        const std::vector<ProbeDevice> devices {{"cpu", "CPU"}, {"0", "GPU"}};
        QStringList got;
        for (const auto& c : planProbeCells(variants, devices, ids, python))
            got << QStringLiteral("%1%2%3:%4").arg(QString::fromStdString(c.device), QString::fromLatin1(c.gpuAlone ? "!" : c.compileInProcess ? "*" : ":"),
                                                   QString::fromStdString(c.probes.front()))
                       .arg(c.probes.size());
        QCOMPARE(got, expected);
    }

    void catalogueIsConsistent()
    {
        std::set<std::string> ids;
        for (const auto& p : probeCatalogue()) {
            QVERIFY2(ids.insert(p.id).second, p.id.c_str());
            QVERIFY2(findErrorModel(p.model), (p.id + ": no error model " + p.model).c_str());
            QVERIFY(!p.checks.empty());
        }
        // The seed user's checks are in the grid.
        for (const char* id : {"alloc_zeros", "matmul_fp32", "conv2d", "batch_norm", "memory_stats"})
            QVERIFY(findProbe(id));
        QVERIFY(!findProbe("no_such_probe"));
    }

    void devicesGetTheirProbes_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<bool>("hasPeerCopy");
        QTest::newRow("cpu") << "cpu" << false;
        QTest::newRow("gpu 0") << "0" << true;
        QTest::newRow("gpu 3") << "3" << true;
    }
    void devicesGetTheirProbes()
    {
        QFETCH(QString, device);
        QFETCH(bool, hasPeerCopy);
        const auto ids = probesForDevice(device.toStdString());
        QCOMPARE(std::count(ids.begin(), ids.end(), "peer_copy") == 1, hasPeerCopy);
        // The collectives run through c10d on every column: NCCL over the GPUs (one included), Gloo on the CPU.
        QCOMPARE(std::count(ids.begin(), ids.end(), "all_reduce"), 1);
        QCOMPARE(ids.front(), std::string("device_info"));
        QCOMPARE(probesForDevice(device.toStdString(), {"softmax", "conv2d"}), (std::vector<std::string> {"conv2d", "softmax"}));
    }

    // StackScope's kernel runs in the libtorch worker only; torch.compile, SDPA and torch.distributed only in Python.
    void runtimesGetTheirProbes()
    {
        const auto libtorch = probesForDevice("0");
        const auto python = probesForDevice("0", {}, true);
        const auto has = [](const std::vector<std::string>& ids, const char* id) {
            return std::count(ids.begin(), ids.end(), id) == 1;
        };
        QVERIFY(has(libtorch, "stackscope_kernel") && !has(python, "stackscope_kernel"));
        for (const char* id : {"torch_compile_fn", "torch_compile_mlp", "sdpa", "data_parallel", "dist_nccl", "fsdp_step"}) {
            QVERIFY2(has(python, id) && !has(libtorch, id), id);
        }
        QVERIFY(has(python, "matmul_bf16") && has(libtorch, "matmul_bf16"));
        const auto cpu = probesForDevice("cpu", {}, true);
        QVERIFY(has(cpu, "dist_gloo") && !has(cpu, "dist_nccl") && !has(cpu, "data_parallel"));
        // The slow-when-healthy probes get their own limit, never less than the run's.
        QCOMPARE(probeTimeout("torch_compile_fn", std::chrono::seconds(30)), std::chrono::milliseconds(300000));
        QCOMPARE(probeTimeout("matmul_fp32", std::chrono::seconds(30)), std::chrono::milliseconds(30000));
        QCOMPARE(probeTimeout("dist_gloo", std::chrono::seconds(600)), std::chrono::milliseconds(600000));
    }

    // Every probe the Python worker is asked for is in its table (resources/python/stackscope_probe_worker.py).
    void pythonWorkerHasEveryPythonProbe()
    {
        QFile script(QStringLiteral(STACKSCOPE_TEST_FIXTURES "/../../resources/python/stackscope_probe_worker.py"));
        QVERIFY(script.open(QIODevice::ReadOnly));
        const QByteArray text = script.readAll();
        for (const auto& p : probeCatalogue()) {
            if (p.runtime == ProbeRuntime::LibtorchOnly)
                continue;
            QVERIFY2(text.contains(QByteArray("\"") + p.id.c_str() + "\": "), p.id.c_str());
        }
    }

    void envSpecs_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("name"); // empty: invalid
        QTest::newRow("one") << "TORCH_BLAS_PREFER_HIPBLASLT=0" << "TORCH_BLAS_PREFER_HIPBLASLT=0";
        QTest::newRow("two, sorted") << "B=2,A=1" << "A=1,B=2";
        QTest::newRow("unset") << "-HSA_OVERRIDE_GFX_VERSION" << "unset HSA_OVERRIDE_GFX_VERSION";
        QTest::newRow("value with =") << "X=a=b" << "X=a=b";
        QTest::newRow("bare name") << "FOO" << "";
        QTest::newRow("empty value") << "FOO=" << "";
        QTest::newRow("no name") << "=1" << "";
        QTest::newRow("empty") << "" << "";
    }
    void envSpecs()
    {
        QFETCH(QString, spec);
        QFETCH(QString, name);
        if (name.isEmpty()) {
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, variantFromEnvSpec(spec.toStdString()));
            return;
        }
        QCOMPARE(QString::fromStdString(variantFromEnvSpec(spec.toStdString()).name), name);
    }

    void variantsFromRules_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QStringList>("mustHave");
        QTest::addColumn<QStringList>("mustNotHave");
        QTest::newRow("rocm gfx1100") << "rocm" << "gfx1100"
                                      << QStringList {"TORCH_BLAS_PREFER_HIPBLASLT=0", "DISABLE_ADDMM_CUDA_LT=1", "AMD_SERIALIZE_KERNEL=3"}
                                      << QStringList {"HSA_OVERRIDE_GFX_VERSION=10.3.0", "TORCH_BLAS_PREFER_CUBLASLT=0"};
        QTest::newRow("rocm gfx1031") << "rocm" << "gfx1031" << QStringList {"HSA_OVERRIDE_GFX_VERSION=10.3.0"}
                                      << QStringList {"HSA_OVERRIDE_GFX_VERSION=11.0.0"};
        QTest::newRow("cuda sm_90") << "cuda" << "sm_90"
                                    << QStringList {"TORCH_BLAS_PREFER_CUBLASLT=0", "TORCH_BLAS_PREFER_CUBLASLT=1", "DISABLE_ADDMM_CUDA_LT=1"}
                                    << QStringList {"TORCH_BLAS_PREFER_HIPBLASLT=0", "HSA_OVERRIDE_GFX_VERSION=10.3.0"};
    }
    void variantsFromRules()
    {
        QFETCH(QString, backend);
        QFETCH(QString, arch);
        QFETCH(QStringList, mustHave);
        QFETCH(QStringList, mustNotHave);
        Snapshot s;
        s.torch.backend = backend.toStdString();
        GpuInfo g;
        g.arch = arch.toStdString();
        g.vendor = backend == QLatin1String("cuda") ? "nvidia" : "amd";
        s.gpus.push_back(g);
        QStringList names;
        for (const auto& v : candidateVariants(s, DiagnosisRules::builtIn())) {
            names << QString::fromStdString(v.name);
            QVERIFY2(!v.ruleIds.empty(), v.name.c_str());
        }
        for (const auto& n : mustHave)
            QVERIFY2(names.contains(n), qPrintable(n + QLatin1String(" missing from ") + names.join(QLatin1Char(' '))));
        for (const auto& n : mustNotHave)
            QVERIFY2(!names.contains(n), qPrintable(n));
        QCOMPARE(names.removeDuplicates(), qsizetype(0));
    }

    void abComparison()
    {
        auto rec = [](const char* probe, const char* variant, ProbeResult r) {
            ProbeRecord x;
            x.outcome.probeId = probe;
            x.outcome.device = "0";
            x.outcome.variant = variant;
            x.outcome.outcome = r;
            return x;
        };
        const std::vector<ProbeRecord> records {
            rec("matmul_fp16", "baseline", ProbeResult::Error), rec("softmax", "baseline", ProbeResult::Ok),
            rec("matmul_fp16", "V=1", ProbeResult::Ok), rec("softmax", "V=1", ProbeResult::Ok)};
        const auto changes = compareVariants(records, "baseline", "V=1");
        QCOMPARE(changes.size(), std::size_t(1));
        QCOMPARE(changes[0].probeId, std::string("matmul_fp16"));
        QCOMPARE(changes[0].before, ProbeResult::Error);
        QCOMPARE(changes[0].after, ProbeResult::Ok);
        QVERIFY(compareVariants(records, "baseline", "other").empty());
        QVERIFY(isFailure(ProbeResult::Hang));
        QVERIFY(!isFailure(ProbeResult::Unsupported));
    }

    void protocolLines_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("type"); // empty: not a protocol line
        QTest::newRow("start") << R"({"type":"start","probe":"x"})" << "start";
        QTest::newRow("result") << R"({"type":"result","probe":"x","outcome":"ok"})" << "result";
        QTest::newRow("stray text") << "Warning: something" << "";
        QTest::newRow("json without type") << R"({"probe":"x"})" << "";
        QTest::newRow("broken json") << R"({"type":"start")" << "";
        QTest::newRow("array") << "[1,2]" << "";
    }
    void protocolLines()
    {
        QFETCH(QString, line);
        QFETCH(QString, type);
        const auto msg = parseWorkerLine(line.toStdString());
        QCOMPARE(msg.has_value(), !type.isEmpty());
        if (msg)
            QCOMPARE(QString::fromStdString(msg->type), type);
        const auto round = parseWorkerLine(workerLine({{"type", "result"}, {"message", "two\nlines"}}));
        QVERIFY(round);
        QCOMPARE(round->body.value("message", std::string()), std::string("two\nlines"));
    }
};

QTEST_GUILESS_MAIN(TestProbeCatalogue)
#include "tst_probe_catalogue.moc"
