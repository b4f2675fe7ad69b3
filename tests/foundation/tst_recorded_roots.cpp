// Recorded machines replayed with --root: GPUs, installs, drivers, access and findings.
#include "core/inspect/inspector.h"

#include "core/snapshot/gpu_sku.h"

#include <QtTest>

#include <algorithm>

using namespace stackscope;

namespace {

Snapshot inspectRoot(const QString& name)
{
    InspectOptions o;
    o.root = std::string(STACKSCOPE_TEST_FIXTURES "/roots/") + name.toStdString();
    return inspectMachine(o);
}

QStringList findingIds(const Snapshot& s)
{
    QStringList ids;
    for (const auto& f : s.findings)
        ids << QString::fromStdString(f.id);
    return ids;
}

} // namespace

class TestRecordedRoots : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void gpus_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QStringList>("archs");
        QTest::addColumn<QStringList>("buses");
        QTest::newRow("amd-2x7900xt") << "ubuntu2204-2x7900xt"
                                      << QStringList {"Navi 31 [Radeon RX 7900 XT/7900 XTX]", "Navi 31 [Radeon RX 7900 XT/7900 XTX]", "Raphael"}
                                      << QStringList {"gfx1100", "gfx1100", "gfx1036"}
                                      << QStringList {"0000:03:00.0", "0000:07:00.0", "0000:7a:00.0"};
        QTest::newRow("rocm7") << "ubuntu2404-rocm7" << QStringList {"AMD Radeon RX 9070 XT"} << QStringList {"gfx1201"}
                               << QStringList {"0000:03:00.0"};
        // No NVML on a recorded machine: the architecture from the name (source "procfs+name"), not "unknown".
        QTest::newRow("nvidia-h100") << "ubuntu2404-h100" << QStringList {"NVIDIA H100 80GB HBM3"} << QStringList {"sm_90"}
                                     << QStringList {"0000:00:06.0"};
        QTest::newRow("no-gpu") << "debian12-nogpu" << QStringList {} << QStringList {} << QStringList {};
    }
    void gpus()
    {
        QFETCH(QString, root);
        QFETCH(QStringList, names);
        QFETCH(QStringList, archs);
        QFETCH(QStringList, buses);
        const Snapshot s = inspectRoot(root);
        QCOMPARE(s.gpus.size(), size_t(names.size()));
        for (int i = 0; i < names.size(); ++i) {
            const GpuInfo& g = s.gpus[size_t(i)];
            QCOMPARE(g.index, i);
            QCOMPARE(QString::fromStdString(g.name), names[i]);
            QCOMPARE(QString::fromStdString(g.arch.value_or("")), archs[i]);
            QCOMPARE(QString::fromStdString(g.pciBus.value_or("")), buses[i]);
            QVERIFY(!g.source.empty());
        }
        // A recorded machine never gets run-time facts.
        QVERIFY(s.root);
        QVERIFY(!s.torch.version);
        QVERIFY(!s.rocm.hipRuntimeVersion);
        QVERIFY(s.libraries.empty());
    }

    // The name table: data-centre parts by their SKU word, GeForce/RTX by series, unknown names stay unknown.
    void nvidiaArchFromNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("arch");
        QTest::newRow("H100 SXM") << "NVIDIA H100 80GB HBM3" << "sm_90";
        QTest::newRow("H200") << "NVIDIA H200" << "sm_90";
        QTest::newRow("GH200") << "NVIDIA GH200 480GB" << "sm_90";
        QTest::newRow("A100 not A10") << "NVIDIA A100-SXM4-40GB" << "sm_80";
        QTest::newRow("A10G") << "NVIDIA A10G" << "sm_86";
        QTest::newRow("L40S") << "NVIDIA L40S" << "sm_89";
        QTest::newRow("T4") << "Tesla T4" << "sm_75";
        QTest::newRow("V100") << "Tesla V100-SXM2-16GB" << "sm_70";
        QTest::newRow("RTX 4090") << "NVIDIA GeForce RTX 4090" << "sm_89";
        QTest::newRow("RTX 3060 Ti") << "NVIDIA GeForce RTX 3060 Ti" << "sm_86";
        QTest::newRow("RTX A6000") << "NVIDIA RTX A6000" << "sm_86";
        QTest::newRow("RTX 6000 Ada") << "NVIDIA RTX 6000 Ada Generation" << "sm_89";
        QTest::newRow("unknown GTX 1080") << "NVIDIA GeForce GTX 1080" << "";
        QTest::newRow("generic") << "NVIDIA GPU" << "";
    }
    void nvidiaArchFromNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, arch);
        QCOMPARE(QString::fromStdString(nvidiaArchFromName(name.toStdString()).value_or("")), arch);
    }

    void amdDetails()
    {
        const Snapshot s = inspectRoot(QStringLiteral("ubuntu2204-2x7900xt"));
        QCOMPARE(*s.gpus[0].vramTotalBytes, std::uint64_t(21458059264));
        QCOMPARE(*s.gpus[1].vramUsedBytes, std::uint64_t(27000832));
        QCOMPARE(s.rocm.amdgpuDriverVersion.value_or(""), std::string("6.8.5"));
        QCOMPARE(s.host.os.value_or(""), std::string("Ubuntu 22.04.4 LTS"));
        QCOMPARE(s.host.kernel.value_or(""), std::string("6.8.0-45-generic"));
        QCOMPARE(s.env.at("HSA_OVERRIDE_GFX_VERSION"), std::string("11.0.0"));
        QVERIFY(s.access.kfd.exists);
        QCOMPARE(s.access.kfd.group.value_or(""), std::string("render"));
        QCOMPARE(s.access.kfd.readWrite, std::optional<bool>(false));
        QCOMPARE(s.access.renderNodes.size(), size_t(3));
    }

    void installs_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<QStringList>("installs"); // "path version"
        QTest::newRow("amd-2x7900xt") << "ubuntu2204-2x7900xt"
                                      << QStringList {"/opt/rocm-6.1.2 6.1.2-119", "/opt/rocm-6.2.0 6.2.0-66"};
        // /opt/rocm is a relative link to rocm-7.0.2: listed once.
        QTest::newRow("rocm7") << "ubuntu2404-rocm7" << QStringList {"/opt/rocm-7.0.2 7.0.2-56", "/opt/rocm-7.9.0 7.9.0"};
        QTest::newRow("nvidia-h100") << "ubuntu2404-h100" << QStringList {"/usr 5.7.1-3"};
        QTest::newRow("no-gpu") << "debian12-nogpu" << QStringList {"/usr 5.2.3-8"};
    }
    void installs()
    {
        QFETCH(QString, root);
        QFETCH(QStringList, installs);
        const Snapshot s = inspectRoot(root);
        QStringList got;
        for (const auto& i : s.rocm.installs)
            got << QString::fromStdString(i.path + " " + i.version.value_or("?"));
        QCOMPARE(got, installs);
    }

    void findings_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<QStringList>("present");
        QTest::addColumn<QStringList>("absent");
        QTest::newRow("amd-2x7900xt") << "ubuntu2204-2x7900xt"
                                      << QStringList {"KFD_PERMISSION", "RENDER_NODE_PERMISSION", "ROCM_MULTIPLE_INSTALLS",
                                                      "HSA_OVERRIDE_SET", "WRONG_DEVICE_IGPU"}
                                      << QStringList {"NO_GPU_VISIBLE", "KFD_MISSING", "KFD_ABSENT", "VERSION_STREAM"};
        QTest::newRow("rocm7") << "ubuntu2404-rocm7" << QStringList {"ROCM_MULTIPLE_INSTALLS", "VERSION_STREAM"}
                               << QStringList {"KFD_PERMISSION", "WRONG_DEVICE_IGPU", "HSA_OVERRIDE_SET", "NO_GPU_VISIBLE"};
        QTest::newRow("nvidia-h100") << "ubuntu2404-h100" << QStringList {"KFD_ABSENT"}
                                     << QStringList {"NO_GPU_VISIBLE", "KFD_MISSING", "ROCM_MULTIPLE_INSTALLS"};
        QTest::newRow("no-gpu") << "debian12-nogpu" << QStringList {"NO_GPU_VISIBLE", "KFD_ABSENT"}
                                << QStringList {"KFD_MISSING", "KFD_PERMISSION"};
    }
    void findings()
    {
        QFETCH(QString, root);
        QFETCH(QStringList, present);
        QFETCH(QStringList, absent);
        const Snapshot s = inspectRoot(root);
        const QStringList ids = findingIds(s);
        for (const auto& id : present)
            QVERIFY2(ids.contains(id), qPrintable(id + " missing from " + ids.join(QLatin1Char(','))));
        for (const auto& id : absent)
            QVERIFY2(!ids.contains(id), qPrintable(id + " should not be in " + ids.join(QLatin1Char(','))));
        for (const auto& f : s.findings) {
            QVERIFY2(!f.fix.empty() && !f.sources.empty() && !f.detail.empty(), f.id.c_str());
        }
    }

    // The iGPU check says what it knows: variables unset where the environment was recorded, unknown where it was not.
    void integratedGpuEnvironment_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<bool>("envKnown");
        QTest::newRow("recorded environment") << "ubuntu2204-2x7900xt" << true;
        QTest::newRow("no .stackscope/env") << "kfd-only-2x7900xt" << false;
    }
    void integratedGpuEnvironment()
    {
        QFETCH(QString, root);
        QFETCH(bool, envKnown);
        const Snapshot s = inspectRoot(root);
        QCOMPARE(s.envKnown, envKnown);
        const auto it = std::find_if(s.findings.begin(), s.findings.end(), [](const Finding& f) { return f.id == "WRONG_DEVICE_IGPU"; });
        QVERIFY(it != s.findings.end());
        QCOMPARE(it->detail.find("are unset") != std::string::npos, envKnown);
        QCOMPARE(it->detail.find("is unknown (the environment was not recorded)") != std::string::npos, !envKnown);
        QCOMPARE(it->confidence, envKnown ? Confidence::High : Confidence::Medium);
    }

    void kfdMissingWithAmdGpu()
    {
        // The AMD box without its /dev/kfd: the GPU is there but ROCm cannot use it.
        QTemporaryDir dir;
        const QString src = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/ubuntu2404-rocm7");
        QVERIFY(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-a"), src + QStringLiteral("/."), dir.path()}) == 0);
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("dev/kfd"))));
        InspectOptions o;
        o.root = dir.path().toStdString();
        const QStringList ids = findingIds(inspectMachine(o));
        QVERIFY(ids.contains(QStringLiteral("KFD_MISSING")));
        QVERIFY(!ids.contains(QStringLiteral("KFD_ABSENT")));
    }
};

QTEST_GUILESS_MAIN(TestRecordedRoots)
#include "tst_recorded_roots.moc"
