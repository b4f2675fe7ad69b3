// Small pure functions behind the file facts: gfx names, PCI addresses, GPU merging, version strings.
#include "core/inspect/file_facts.h"
#include "core/inspect/inspector.h"
#include "core/inspect/runtime_sources.h"
#include "core/snapshot/stack_environment.h"

#include <QtTest>

using namespace stackscope;

class TestFileFacts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void gfxName_data()
    {
        QTest::addColumn<qulonglong>("version");
        QTest::addColumn<QString>("name");
        QTest::newRow("gfx1100") << 110000ull << "gfx1100";
        QTest::newRow("gfx1101") << 110001ull << "gfx1101";
        QTest::newRow("gfx90a") << 90010ull << "gfx90a";
        QTest::newRow("gfx942") << 90402ull << "gfx942";
        QTest::newRow("gfx1030") << 100300ull << "gfx1030";
        QTest::newRow("gfx1036") << 100306ull << "gfx1036";
        QTest::newRow("gfx1201") << 120001ull << "gfx1201";
        QTest::newRow("gfx906") << 90006ull << "gfx906";
    }
    void gfxName()
    {
        QFETCH(qulonglong, version);
        QFETCH(QString, name);
        QCOMPARE(QString::fromStdString(gfxNameFromTargetVersion(version)), name);
    }

    void pciBus_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("nvml 8-digit domain") << "00000000:18:00.0" << "0000:18:00.0";
        QTest::newRow("upper case") << "0000:0A:00.1" << "0000:0a:00.1";
        QTest::newRow("no domain") << "03:00.0" << "0000:03:00.0";
        QTest::newRow("garbage kept") << "not-a-bus" << "not-a-bus";
    }
    void pciBus()
    {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QCOMPARE(QString::fromStdString(normalizePciBus(in.toStdString())), out);
    }

    void versions()
    {
        QCOMPARE(QString::fromStdString(hipVersionString(50221153)), QStringLiteral("5.2.21153"));
        QCOMPARE(QString::fromStdString(hipVersionString(60241133)), QStringLiteral("6.2.41133"));
        QCOMPARE(QString::fromStdString(cudaVersionString(13000)), QStringLiteral("13.0"));
        QCOMPARE(QString::fromStdString(cudaVersionString(12080)), QStringLiteral("12.8"));
    }

    void mergeByPciBus()
    {
        GpuInfo sysfs;
        sysfs.vendor = "amd";
        sysfs.name = "Navi 31 [Radeon RX 7900 XT/7900 XTX]";
        sysfs.arch = "gfx1100";
        sysfs.pciBus = "0000:03:00.0";
        sysfs.vramTotalBytes = 100;
        sysfs.source = "sysfs+kfd";
        GpuInfo second = sysfs;
        second.pciBus = "0000:07:00.0";
        GpuInfo hip;
        hip.vendor = "amd";
        hip.index = 1;
        hip.name = "Radeon RX 7900 XT";
        hip.pciBus = "0000:03:00.0";
        hip.vramTotalBytes = 200;
        hip.source = "HIP runtime";
        const auto merged = mergeGpus({sysfs, second, hip});
        QCOMPARE(merged.size(), size_t(2));
        QCOMPARE(merged[0].name, std::string("Radeon RX 7900 XT")); // runtime names win
        QCOMPARE(merged[0].arch.value_or(""), std::string("gfx1100")); // files keep the arch
        QCOMPARE(*merged[0].vramTotalBytes, std::uint64_t(200));
        QCOMPARE(merged[0].source, std::string("sysfs+kfd+HIP runtime"));
        QCOMPARE(merged[0].index, 1); // the runtime's numbering
        QCOMPARE(merged[1].index, 2); // next free index for the one no runtime saw
    }

    // NVML's facts (who holds memory, compute mode) survive the merge with /proc/driver/nvidia's entry (seen missing
    // on an H100 before this test: the NVML entry merged into the file's and its processes were dropped).
    void mergeKeepsDriverState()
    {
        GpuInfo proc;
        proc.vendor = "nvidia";
        proc.name = "NVIDIA H100 80GB HBM3";
        proc.pciBus = "0000:19:00.0";
        proc.source = "/proc/driver/nvidia";
        GpuInfo nvml = proc;
        nvml.source = "NVML";
        nvml.processesKnown = true;
        nvml.processes.push_back({1766, std::uint64_t(78) << 30, std::string("root"), std::string("python3")});
        nvml.computeMode = "default";
        nvml.persistenceMode = true;
        nvml.clockEventReasons = {"gpu_idle"};
        const auto merged = mergeGpus({proc, nvml});
        QCOMPARE(merged.size(), size_t(1));
        QVERIFY(merged[0].processesKnown);
        QCOMPARE(merged[0].processes.size(), size_t(1));
        QCOMPARE(merged[0].processes[0].pid, 1766u);
        QCOMPARE(merged[0].computeMode.value_or(""), std::string("default"));
        QCOMPARE(merged[0].persistenceMode, std::optional<bool>(true));
        QCOMPARE(merged[0].clockEventReasons, std::vector<std::string> {"gpu_idle"});
    }

    void stackEnvironmentVariables_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("recorded");
        for (const char* n : {"CUDA_VISIBLE_DEVICES", "NCCL_SOCKET_IFNAME", "HSA_OVERRIDE_GFX_VERSION", "PYTORCH_CUDA_ALLOC_CONF",
                              "TORCH_NCCL_BLOCKING_WAIT", "OMP_NUM_THREADS", "LD_PRELOAD", "MASTER_PORT", "RCCL_MSCCL_ENABLE"})
            QTest::newRow(n) << n << true;
        for (const char* n : {"HOME", "PATH", "HF_TOKEN", "NVIDIA_API_KEY", "TRITON_SECRET", "CUDA_", "RANKING", "AWS_SECRET_ACCESS_KEY"})
            QTest::newRow(n) << n << false;
    }
    void stackEnvironmentVariables()
    {
        QFETCH(QString, name);
        QFETCH(bool, recorded);
        QCOMPARE(isStackEnvironmentVariable(name.toStdString()), recorded);
    }

    void canonicalStaysInsideRoot()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("opt/rocm-6.2.0")));
        QVERIFY(QFile::link(QStringLiteral("/opt/rocm-6.2.0"), dir.filePath(QStringLiteral("opt/rocm"))));
        QVERIFY(QFile::link(QStringLiteral("../../.."), dir.filePath(QStringLiteral("opt/rocm-6.2.0/up"))));
        const SystemRoot root(dir.path().toStdString());
        QCOMPARE(QString::fromStdString(root.canonical("/opt/rocm")), QStringLiteral("/opt/rocm-6.2.0"));
        QCOMPARE(QString::fromStdString(root.canonical("/opt/rocm/up/etc")), QStringLiteral("/etc"));
    }
};

QTEST_GUILESS_MAIN(TestFileFacts)
#include "tst_file_facts.moc"
