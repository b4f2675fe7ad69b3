// Live-snapshot facts of issue 22 read from machine trees: Secure Boot, DKMS builds, kernel command line,
// WSL, amdgpu kernel log lines (core/inspect/host_extras_reader.h); and the rules that use them.
#include "core/diagnosis/diagnosis.h"
#include "core/inspect/file_facts.h"
#include "core/inspect/host_extras_reader.h"
#include "core/inspect/inspector.h"
#include "core/snapshot/pcie_links.h"
#include "core/snapshot/snapshot_json.h"

#include <QtTest>

using namespace stackscope;

namespace {

const std::string kRoots = STACKSCOPE_TEST_FIXTURES "/roots";

Snapshot inspectRoot(const std::string& name)
{
    InspectOptions o;
    o.root = kRoots + "/" + name;
    return inspectMachine(o);
}

bool raises(const Snapshot& s, const std::string& rule, Severity* severity = nullptr)
{
    DiagnosisInput in;
    in.snapshot = &s;
    for (const auto& f : diagnose(in)) {
        if (f.id == rule) {
            if (severity)
                *severity = f.severity;
            return true;
        }
    }
    return false;
}

PcieLink link(const char* device, const char* speed, int width, const char* maxSpeed, int maxWidth)
{
    PcieLink l;
    l.device = device;
    l.currentSpeed = speed;
    l.currentWidth = width;
    l.maxSpeed = maxSpeed;
    l.maxWidth = maxWidth;
    return l;
}

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

    // The host facts are part of the snapshot: inspect stores them, the JSON keeps them, diagnose reads them there.
    void snapshotCarriesHostExtras()
    {
        const Snapshot s = inspectRoot("ubuntu2404-secureboot-dkms");
        QCOMPARE(s.hostExtras.secureBoot, std::optional<bool>(true));
        QCOMPARE(s.hostExtras.dkms.size(), std::size_t(2));
        QCOMPARE(s.hostExtras.kernelLogSource, std::optional<std::string>("/var/log/kern.log"));
        const Snapshot back = parseSnapshot(toJson(s).dump(), "memory");
        QCOMPARE(back.hostExtras.secureBoot, std::optional<bool>(true));
        QCOMPARE(back.hostExtras.kernelLogGpuLines, s.hostExtras.kernelLogGpuLines);
        QCOMPARE(QString::fromStdString(back.hostExtras.dkms[1].kernel), QString("6.8.0-45-generic"));
        QVERIFY(raises(back, "SECURE_BOOT_DKMS")); // from the loaded file, no live reads
    }

    void kernelLogUnreadableIsSaid()
    {
        const Snapshot s = inspectRoot("debian12-nogpu");
        QVERIFY(!s.hostExtras.kernelLogSource);
        QVERIFY(s.hostExtras.kernelLogNote && s.hostExtras.kernelLogNote->find("kern.log") != std::string::npos);
    }

    void firmwareFromSysfs()
    {
        const Snapshot s = inspectRoot("ubuntu2204-2x7900xt");
        int withFirmware = 0;
        for (const auto& g : s.gpus) {
            if (g.pciBus == std::optional<std::string>("0000:03:00.0") || g.pciBus == std::optional<std::string>("0000:07:00.0")) {
                QCOMPARE(QString::fromStdString(g.firmware.at("mec")), QString("0x00000210"));
                ++withFirmware;
            } else {
                QVERIFY(g.firmware.empty()); // the iGPU's recording has no fw_version folder
            }
        }
        QCOMPARE(withFirmware, 2);
    }

    // The RX 9070 XT root: card1/device links into /sys/devices; the GPU function reports its on-card link
    // (32 GT/s x16), the card's switch upstream port the slot's (16 GT/s x8 of x16): nokyan/resources#512.
    void pcieLinksUpTheTree()
    {
        const Snapshot s = inspectRoot("ubuntu2404-rocm7");
        QCOMPARE(s.gpus.size(), std::size_t(1));
        const auto& links = s.gpus[0].pcieLinks;
        QCOMPARE(links.size(), std::size_t(2)); // 0000:02:00.0 and the root port have no link files there
        QCOMPARE(QString::fromStdString(links[0].device), QString("0000:03:00.0"));
        QCOMPARE(links[0].currentWidth, std::optional<int>(16));
        QCOMPARE(QString::fromStdString(links[1].device), QString("0000:01:00.0"));
        QCOMPARE(links[1].currentWidth, std::optional<int>(8));
        QCOMPARE(links[1].maxSpeed, std::optional<std::string>("32.0 GT/s PCIe"));
        Severity sev = Severity::Info;
        QVERIFY(raises(s, "PCIE_LINK_NARROW", &sev));
        QCOMPARE(sev, Severity::Warning);
        QCOMPARE(narrowPcieLinks(s).size(), std::size_t(1));
        QVERIFY(narrowPcieLinks(s)[0].find("0000:01:00.0 runs 16.0 GT/s PCIe x8 (max 32.0 GT/s PCIe x16)") != std::string::npos);
    }

    void pcieShortfalls_data()
    {
        QTest::addColumn<QString>("speed");
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("maxSpeed");
        QTest::addColumn<int>("maxWidth");
        QTest::addColumn<QString>("portMaxSpeed"); // the port above; "" when not listed
        QTest::addColumn<int>("portMaxWidth");
        QTest::addColumn<bool>("narrow");
        QTest::addColumn<bool>("slow");
        QTest::newRow("full x16 gen4") << "16.0 GT/s PCIe" << 16 << "16.0 GT/s PCIe" << 16 << "" << 0 << false << false;
        QTest::newRow("x4 of x16") << "16.0 GT/s PCIe" << 4 << "16.0 GT/s PCIe" << 16 << "" << 0 << true << false;
        QTest::newRow("x4 slot (port max x4)") << "8.0 GT/s PCIe" << 4 << "8.0 GT/s PCIe" << 16 << "8.0 GT/s PCIe" << 4 << true << false;
        QTest::newRow("2.5 GT/s idle of 16") << "2.5 GT/s PCIe" << 16 << "16.0 GT/s PCIe" << 16 << "16.0 GT/s PCIe" << 16 << false << true;
        QTest::newRow("2.5 GT/s, port unknown") << "2.5 GT/s PCIe" << 16 << "16.0 GT/s PCIe" << 16 << "" << 0 << false << false;
        QTest::newRow("gen4 card, gen3 board") << "8.0 GT/s PCIe" << 16 << "16.0 GT/s PCIe" << 16 << "8.0 GT/s PCIe" << 16 << false << false;
        QTest::newRow("old kernel speed text") << "5 GT/s" << 16 << "8 GT/s" << 16 << "8 GT/s" << 16 << false << true;
        QTest::newRow("unknown speed") << "Unknown" << 16 << "16.0 GT/s PCIe" << 16 << "16.0 GT/s PCIe" << 16 << false << false;
    }
    void pcieShortfalls()
    {
        QFETCH(QString, speed);
        QFETCH(int, width);
        QFETCH(QString, maxSpeed);
        QFETCH(int, maxWidth);
        QFETCH(QString, portMaxSpeed);
        QFETCH(int, portMaxWidth);
        QFETCH(bool, narrow);
        QFETCH(bool, slow);
        Snapshot s;
        GpuInfo g;
        g.vendor = "amd";
        g.name = "GPU";
        g.pcieLinks.push_back(link("0000:03:00.0", qPrintable(speed), width, qPrintable(maxSpeed), maxWidth));
        if (!portMaxSpeed.isEmpty())
            g.pcieLinks.push_back(link("0000:00:01.1", qPrintable(portMaxSpeed), portMaxWidth, qPrintable(portMaxSpeed), portMaxWidth));
        s.gpus.push_back(g);
        QCOMPARE(!narrowPcieLinks(s).empty(), narrow);
        QCOMPARE(!slowPcieLinks(s).empty(), slow);
        QCOMPARE(raises(s, "PCIE_LINK_NARROW"), narrow);
        QCOMPARE(raises(s, "PCIE_LINK_SLOW"), slow);
    }

    void nvidiaFirmware()
    {
        // /proc/driver/nvidia/gpus/<bus>/information as recorded on the H100 machine (ubuntu2404-h100 root).
        const Snapshot s = inspectRoot("ubuntu2404-h100");
        QCOMPARE(s.gpus.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(s.gpus[0].firmware.at("vbios")), QString("96.00.da.00.0c"));
        QCOMPARE(QString::fromStdString(s.gpus[0].firmware.at("gsp")), QString("580.159.04"));
        QVERIFY(readNvidiaFirmware(nvidiaInformationFields("Video BIOS: \t ??.??.??.??.??\n")).empty()); // the driver could not read it
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
        HostExtras& h = s.hostExtras;
        h.secureBoot = secureBoot;
        if (dkms)
            h.dkms = {{"amdgpu", "6.8.5", "6.8.0-45-generic", "built"}};
        DiagnosisInput in;
        in.snapshot = &s;
        const auto findings = diagnose(in);
        const bool found = std::any_of(findings.begin(), findings.end(), [](const auto& f) { return f.id == "SECURE_BOOT_DKMS"; });
        QCOMPARE(found, raised);
        // Once the module is loaded, Secure Boot did not block it.
        s.rocm.amdgpuDriverVersion = "6.8.5";
        const auto loaded = diagnose(in);
        QVERIFY(std::none_of(loaded.begin(), loaded.end(), [](const auto& f) { return f.id == "SECURE_BOOT_DKMS"; }));
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
        HostExtras& h = s.hostExtras;
        DiagnosisInput in;
        in.snapshot = &s;
        auto has = [&] {
            const auto f = diagnose(in);
            return std::any_of(f.begin(), f.end(), [](const auto& x) { return x.id == "RCCL_MULTI_GPU_HANG"; });
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
