// Live-snapshot facts of issue 22 read from machine trees: Secure Boot, DKMS builds, kernel command line,
// WSL, amdgpu kernel log lines (core/inspect/host_extras_reader.h); and the rules that use them.
#include "core/diagnosis/diagnosis.h"
#include "core/inspect/host_extras_reader.h"

#include <QtTest>

using namespace stackscope;

namespace {

const std::string kRoots = STACKSCOPE_TEST_FIXTURES "/roots";

} // namespace

class TestHostFacts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void secureBootDkmsRoot()
    {
        const SystemRoot root(kRoots + "/ubuntu2404-secureboot-dkms");
        const auto h = readHostExtras(root);
        QCOMPARE(h.secureBoot, std::optional<bool>(true));
        QCOMPARE(h.wsl, std::optional<bool>(false));
        QVERIFY(h.kernelCmdline && h.kernelCmdline->find("root=UUID=") != std::string::npos);
        QCOMPARE(h.kernelLogGpuLines.size(), std::size_t(1));
        QVERIFY(h.kernelLogGpuLines[0].find("amdgpu: module verification failed") != std::string::npos);
        const auto dkms = readDkmsModules(root);
        QCOMPARE(dkms.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(dkms[0].version), QString("6.7.0-1756574.24.04"));
        QCOMPARE(QString::fromStdString(dkms[0].status), QString("broken (no dkms.conf)"));
        QCOMPARE(QString::fromStdString(dkms[1].kernel), QString("6.8.0-45-generic"));
        QCOMPARE(QString::fromStdString(dkms[1].status), QString("built"));
    }

    void wslRoot()
    {
        const SystemRoot root(kRoots + "/wsl2-ubuntu2204");
        QCOMPARE(readWsl(root), std::optional<bool>(true));
        QCOMPARE(readSecureBoot(root), std::optional<bool>(false)); // no /sys/firmware/efi: legacy boot view
        QVERIFY(readDkmsModules(root).empty());
    }

    void recordedRootWithoutTheFilesSaysUnknown()
    {
        const SystemRoot root(kRoots + "/debian12-nogpu");
        const auto h = readHostExtras(root);
        QVERIFY(h.kernelLogGpuLines.empty());
        QVERIFY(readDkmsModules(root).empty());
    }

    void rulesUseTheLiveFacts_data()
    {
        QTest::addColumn<bool>("secureBoot");
        QTest::addColumn<bool>("dkms");
        QTest::addColumn<bool>("raised");
        QTest::newRow("secure boot + dkms, module not loaded") << true << true << true;
        QTest::newRow("secure boot, in-tree driver") << true << false << false;
        QTest::newRow("dkms, secure boot off") << false << true << false;
    }
    void rulesUseTheLiveFacts()
    {
        QFETCH(bool, secureBoot);
        QFETCH(bool, dkms);
        QFETCH(bool, raised);
        Snapshot s;
        HostExtras h;
        h.secureBoot = secureBoot;
        if (dkms)
            h.dkms = {{"amdgpu", "6.8.5", "6.8.0-45-generic", "built"}};
        DiagnosisInput in;
        in.snapshot = &s;
        in.host = &h;
        const auto findings = diagnose(in);
        const bool found = std::any_of(findings.begin(), findings.end(), [](const auto& f) { return f.ruleId == "SECURE_BOOT_DKMS"; });
        QCOMPARE(found, raised);
        // Once the module is loaded, Secure Boot did not block it.
        s.rocm.amdgpuDriverVersion = "6.8.5";
        const auto loaded = diagnose(in);
        QVERIFY(std::none_of(loaded.begin(), loaded.end(), [](const auto& f) { return f.ruleId == "SECURE_BOOT_DKMS"; }));
    }

    void iommuRuleNeedsTwoGpusAndAKnownCmdline()
    {
        Snapshot s;
        for (int i = 0; i < 2; ++i) {
            GpuInfo g;
            g.index = i;
            g.vendor = "amd";
            g.arch = "gfx1100";
            s.gpus.push_back(g);
        }
        HostExtras h;
        DiagnosisInput in;
        in.snapshot = &s;
        in.host = &h;
        auto has = [&] {
            const auto f = diagnose(in);
            return std::any_of(f.begin(), f.end(), [](const auto& x) { return x.ruleId == "RCCL_MULTI_GPU_HANG"; });
        };
        QVERIFY(!has()); // command line unknown
        h.kernelCmdline = "BOOT_IMAGE=/vmlinuz ro quiet";
        QVERIFY(has());
        h.kernelCmdline = "BOOT_IMAGE=/vmlinuz ro iommu=pt";
        QVERIFY(!has());
    }
};

QTEST_GUILESS_MAIN(TestHostFacts)
#include "tst_host_facts.moc"
