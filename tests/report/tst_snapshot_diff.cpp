// Snapshot diff: each fact that matters gives one row; capture time, host names and unrelated variables give none; a
// value one side does not know (not recorded, not read, not queried, not scanned) reads "unknown: <why>" and is not
// counted (third walkthrough 2026-11-27, problem 2), a value really absent reads "(none)" or "missing" and is.
#include "core/report/snapshot_diff.h"

#include <QtTest>

#include <algorithm>
#include <functional>

using namespace stackscope;
using namespace stackscope::report;

Q_DECLARE_METATYPE(std::function<void(Snapshot&)>)

namespace {

// The base snapshot has every fact known; these are how a side comes not to know one, or to really lack it.
using Change = std::function<void(Snapshot&)>;

void recorded(Snapshot& s)
{
    s.root = "/recorded/machine";
}

LibraryStatus* library(Snapshot& s, const std::string& component)
{
    for (auto& l : s.libraries)
        if (l.component == component)
            return &l;
    return nullptr;
}

void forget(Snapshot& s, const std::string& component)
{
    s.libraries.erase(std::remove_if(s.libraries.begin(), s.libraries.end(),
                                     [&](const LibraryStatus& l) { return l.component == component; }),
                      s.libraries.end());
}

struct UnknownCase {
    const char* name;
    const char* area;
    const char* item;
    const char* knownText; // what base() reads
    Change makeUnknown;
    const char* unknownText;
    Change makeAbsent;
    const char* absentText;
};

std::vector<UnknownCase> unknownCases()
{
    const char* kfdUnrecorded = "exists; unknown: mode and group not recorded (.stackscope/dev-stat)";
    const char* kfdKnown = "exists, read-write yes, group render, mode 0660";
    const char* kfdNoUser = "exists, group render, mode 0660; unknown: read-write, the user was not recorded (.stackscope/id)";
    return {
        {"VRAM", "gpus", "GPU 0 VRAM", "20.0 GiB", [](Snapshot& s) { s.gpus[0].vramTotalBytes.reset(); }, "unknown: could not be read",
         [](Snapshot& s) { s.gpus.clear(); }, "(none)"},
        {"GPU driver", "gpus", "GPU 0 driver", "6.8.5", [](Snapshot& s) { recorded(s); s.gpus[0].driverVersion.reset(); },
         "unknown: not in the recorded files", [](Snapshot& s) { s.gpus.clear(); }, "(none)"},
        {"GPU arch", "gpus", "GPU 0 arch", "gfx1100", [](Snapshot& s) { s.gpus[0].arch.reset(); }, "unknown: could not be read",
         [](Snapshot& s) { s.gpus.clear(); }, "(none)"},
        {"GPU name", "gpus", "GPU 0 name", "Radeon RX 7900 XTX", [](Snapshot& s) { s.gpus[0].name.clear(); }, "unknown: could not be read",
         [](Snapshot& s) { s.gpus.clear(); }, "(none)"},
        {"user groups", "access", "user groups", "video render", [](Snapshot& s) { recorded(s); s.access.user.reset(); s.access.userGroups.clear(); },
         "unknown: not recorded (.stackscope/id)", [](Snapshot& s) { s.access.userGroups.clear(); }, "(none)"},
        {"kfd mode and group", "access", "/dev/kfd", kfdKnown,
         [](Snapshot& s) { recorded(s); s.access.kfd.mode.reset(); s.access.kfd.group.reset(); s.access.kfd.readWrite.reset(); },
         kfdUnrecorded, [](Snapshot& s) { s.access.kfd = DeviceNode {"/dev/kfd", false, {}, {}, {}}; }, "missing"},
        {"kfd read-write", "access", "/dev/kfd", kfdKnown,
         [](Snapshot& s) { recorded(s); s.access.user.reset(); s.access.kfd.readWrite.reset(); }, kfdNoUser,
         [](Snapshot& s) { s.access.kfd.readWrite = false; }, "exists, read-write no, group render, mode 0660"},
        {"OS", "host", "OS", "Ubuntu 24.04", [](Snapshot& s) { recorded(s); s.host.os.reset(); }, "unknown: not in the recorded files",
         [](Snapshot& s) { s.host.os.reset(); }, "(none)"},
        {"kernel", "host", "kernel", "6.8.0-45-generic", [](Snapshot& s) { recorded(s); s.host.kernel.reset(); }, "unknown: not in the recorded files",
         [](Snapshot& s) { s.host.kernel.reset(); }, "(none)"},
        {"amdgpu driver", "versions", "amdgpu driver", "6.8.5", [](Snapshot& s) { s.rocm.amdgpuDriverVersion.reset(); },
         "unknown: an AMD GPU is listed but /sys/module/amdgpu gives no version",
         [](Snapshot& s) { s.rocm.amdgpuDriverVersion.reset(); s.gpus.clear(); }, "(none)"},
        {"ROCm install version", "versions", "ROCm /opt/rocm-6.2.4", "6.2.4", [](Snapshot& s) { s.rocm.installs[0].version.reset(); },
         "unknown: no version could be read (.info/version, dpkg)", [](Snapshot& s) { s.rocm.installs.clear(); }, "(none)"},
        {"HIP runtime version", "versions", "HIP runtime", "6.2.41134",
         [](Snapshot& s) { recorded(s); forget(s, "HIP runtime"); s.rocm.hipRuntimeVersion.reset(); }, kNotQueried,
         [](Snapshot& s) { library(s, "HIP runtime")->loaded = false; s.rocm.hipRuntimeVersion.reset(); }, "(none)"},
        {"HIP runtime library", "libraries", "HIP runtime", "loaded /opt/rocm-6.2.4/lib/libamdhip64.so", [](Snapshot& s) { forget(s, "HIP runtime"); },
         "unknown: not queried (the snapshot has no record of loading HIP runtime)",
         [](Snapshot& s) { *library(s, "HIP runtime") = LibraryStatus {"HIP runtime", false, {}, {{"libamdhip64.so", "not found"}}, {}}; },
         "not loaded: not found"},
        {"torch version", "versions", "torch version", "2.5.1+rocm6.2", [](Snapshot& s) { recorded(s); forget(s, "libtorch module"); s.torch = {}; },
         kNotQueried, [](Snapshot& s) { library(s, "libtorch module")->loaded = false; s.torch = {}; }, "(none)"},
        {"coverage", "coverage", "/opt/rocm/lib/librocblas.so on 0", "yes", [](Snapshot& s) { s.archCoverage.reset(); },
         "unknown: the kernel coverage was not scanned", [](Snapshot& s) { s.archCoverage->libraries.clear(); }, "(none)"},
    };
}

Snapshot base()
{
    Snapshot s;
    s.capturedAt = "2026-11-21T12:00:00Z";
    s.host.hostname = "a";
    s.host.os = "Ubuntu 24.04";
    s.host.kernel = "6.8.0-45-generic";
    s.rocm.amdgpuDriverVersion = "6.8.5";
    s.rocm.hipRuntimeVersion = "6.2.41134";
    s.rocm.installs = {{"/opt/rocm-6.2.4", "6.2.4", ".info/version"}};
    s.torch.version = "2.5.1+rocm6.2";
    s.torch.archList = std::vector<std::string> {"gfx90a", "gfx1100"};
    GpuInfo g;
    g.index = 0;
    g.vendor = "amd";
    g.name = "Radeon RX 7900 XTX";
    g.arch = "gfx1100";
    g.vramTotalBytes = 20ull << 30;
    g.driverVersion = "6.8.5";
    s.gpus = {g};
    s.env = {{"HSA_OVERRIDE_GFX_VERSION", "11.0.0"}, {"DISPLAY", ":0"}};
    s.access.kfd = {"/dev/kfd", true, true, "render", "0660"};
    s.access.user = "ada";
    s.access.userGroups = {"video", "render"};
    LibraryStatus l;
    l.component = "HIP runtime";
    l.loaded = true;
    l.path = "/opt/rocm-6.2.4/lib/libamdhip64.so";
    LibraryStatus torch;
    torch.component = "libtorch module";
    torch.loaded = true;
    torch.path = "/usr/lib/stackscope/libstackscope_torch.so";
    s.libraries = {l, torch};
    archscan::LibraryScan rocblas;
    rocblas.path = "/opt/rocm/lib/librocblas.so";
    archscan::ScannedTarget target;
    target.id = "hipv4-amdgcn-amd-amdhsa--gfx1100";
    target.arch = "gfx1100";
    rocblas.targets = {target};
    rocblas.covers["0"] = {archscan::Coverage::Yes, ""};
    s.archCoverage = archscan::ArchCoverage {};
    s.archCoverage->libraries = {rocblas};
    return s;
}

} // namespace

class TestSnapshotDiff : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void oneRowPerChange_data()
    {
        QTest::addColumn<std::function<void(Snapshot&)>>("change");
        QTest::addColumn<QString>("area");
        QTest::addColumn<QString>("item");
        QTest::addColumn<QString>("b");
        using F = std::function<void(Snapshot&)>;
        QTest::newRow("rocm version") << F([](Snapshot& s) { s.rocm.installs[0].version = "6.3.0"; }) << "versions"
                                      << "ROCm /opt/rocm-6.2.4" << "6.3.0";
        QTest::newRow("torch version") << F([](Snapshot& s) { s.torch.version = "2.6.0"; }) << "versions" << "torch version" << "2.6.0";
        QTest::newRow("arch list") << F([](Snapshot& s) { s.torch.archList = std::vector<std::string> {"gfx90a"}; })
                                   << "versions" << "torch arch list" << "gfx90a";
        QTest::newRow("gpu arch") << F([](Snapshot& s) { s.gpus[0].arch = "gfx1101"; }) << "gpus" << "GPU 0 arch" << "gfx1101";
        QTest::newRow("library path") << F([](Snapshot& s) { s.libraries[0].path = "/usr/lib/libamdhip64.so"; }) << "libraries"
                                      << "HIP runtime" << "loaded /usr/lib/libamdhip64.so";
        QTest::newRow("env removed") << F([](Snapshot& s) { s.env.erase("HSA_OVERRIDE_GFX_VERSION"); }) << "environment"
                                     << "HSA_OVERRIDE_GFX_VERSION" << kNone;
        QTest::newRow("groups") << F([](Snapshot& s) { s.access.userGroups = {"video"}; }) << "access" << "user groups" << "video";
        QTest::newRow("kfd access") << F([](Snapshot& s) { s.access.kfd.readWrite = false; }) << "access" << "/dev/kfd"
                                    << "exists, read-write no, group render, mode 0660";
        QTest::newRow("coverage cell")
            << F([](Snapshot& s) { s.archCoverage->libraries[0].covers["0"].coverage = archscan::Coverage::No; })
            << "coverage" << "/opt/rocm/lib/librocblas.so on 0" << "no";
        QTest::newRow("coverage archs") << F([](Snapshot& s) { s.archCoverage->libraries[0].targets[0].arch = "gfx90a"; })
                                        << "coverage" << "/opt/rocm/lib/librocblas.so archs" << "gfx90a";
        QTest::newRow("coverage errors") << F([](Snapshot& s) { s.archCoverage->libraries[0].errors = {"truncated"}; })
                                         << "coverage" << "/opt/rocm/lib/librocblas.so errors" << "[\"truncated\"]";
    }
    // A recorded machine (inspect --root) loads no library and no torch: its side reads "not queried", not "(none)";
    // a machine inspected here with no record of a library did not query it either (the stack table's "not queried").
    void recordedMachineNotQueried_data()
    {
        QTest::addColumn<bool>("recorded");
        QTest::addColumn<QString>("library");
        QTest::addColumn<QString>("torch");
        QTest::newRow("recorded root") << true << QString::fromLatin1(kNotQueried) << QString::fromLatin1(kNotQueried);
        QTest::newRow("inspected here") << false
                                        << "unknown: not queried (the snapshot has no record of loading HIP runtime)"
                                        << "unknown: not queried (the snapshot has no record of loading libtorch module)";
    }
    void recordedMachineNotQueried()
    {
        QFETCH(bool, recorded);
        QFETCH(QString, library);
        QFETCH(QString, torch);
        Snapshot a = base();
        a.libraries.clear();
        a.torch = {};
        if (recorded)
            a.root = "/recorded/machine";
        const auto rows = diffSnapshots(a, base());
        auto valueOf = [&](const char* item) {
            for (const auto& r : rows)
                if (r.item == item)
                    return QString::fromStdString(r.a);
            return QStringLiteral("no row");
        };
        QCOMPARE(valueOf("HIP runtime"), library);
        QCOMPARE(valueOf("torch version"), torch);
        // Files still tell a recorded machine's ROCm install: that stays a real difference, not "not queried".
        QVERIFY(valueOf("GPU 0 name") != QString::fromLatin1(kNotQueried));
    }

    // Each fact the snapshot can leave unknown: unknown on A, on B (a row, "unknown: <why>", not counted), on both (no
    // row: nothing to compare), and really absent on B (a row that is counted).
    void unknownIsNotADifference_data()
    {
        QTest::addColumn<Change>("changeA");
        QTest::addColumn<Change>("changeB");
        QTest::addColumn<QString>("area");
        QTest::addColumn<QString>("item");
        QTest::addColumn<QString>("a"); // empty: no row for the item
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("matters");
        const Change none = [](Snapshot&) {};
        for (const auto& c : unknownCases()) {
            const QString unknownText = QString::fromLatin1(c.unknownText);
            const QString known = QString::fromLatin1(c.knownText);
            QTest::addRow("%s unknown on A", c.name) << c.makeUnknown << none << c.area << c.item << unknownText << known << false;
            QTest::addRow("%s unknown on B", c.name) << none << c.makeUnknown << c.area << c.item << known << unknownText << false;
            QTest::addRow("%s unknown on both", c.name) << c.makeUnknown << c.makeUnknown << c.area << c.item << QString() << QString()
                                                        << false;
            QTest::addRow("%s really absent", c.name) << none << c.makeAbsent << c.area << c.item << known
                                                      << QString::fromLatin1(c.absentText) << true;
        }
    }
    void unknownIsNotADifference()
    {
        QFETCH(Change, changeA);
        QFETCH(Change, changeB);
        QFETCH(QString, area);
        QFETCH(QString, item);
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, matters);
        Snapshot sa = base();
        Snapshot sb = base();
        changeA(sa);
        changeB(sb);
        const auto rows = diffSnapshots(sa, sb);
        const DiffRow* row = nullptr;
        for (const auto& r : rows)
            if (QString::fromStdString(r.area) == area && QString::fromStdString(r.item) == item)
                row = &r;
        if (a.isEmpty()) {
            QVERIFY2(!row, row ? (row->a + " | " + row->b).c_str() : "");
        } else {
            QVERIFY2(row, qPrintable(item));
            QCOMPARE(QString::fromStdString(row->a), a);
            QCOMPARE(QString::fromStdString(row->b), b);
            QCOMPARE(row->matters, matters);
            QCOMPARE(row->aUnknown, a.contains(QLatin1String(kUnknownPrefix)));
            QCOMPARE(row->bUnknown, b.contains(QLatin1String(kUnknownPrefix)));
            QCOMPARE(diffToJson(rows)[0].contains("matters"), true);
        }
        // Not knowing a value is never a difference that matters, on either side or both.
        if (!matters)
            QCOMPARE(countThatMatter(rows), std::size_t(0));
        // The rows that matter come first.
        QVERIFY(std::is_partitioned(rows.begin(), rows.end(), [](const DiffRow& r) { return r.matters; }));
    }

    void oneRowPerChange()
    {
        QFETCH(std::function<void(Snapshot&)>, change);
        QFETCH(QString, area);
        QFETCH(QString, item);
        QFETCH(QString, b);
        Snapshot a = base();
        Snapshot other = base();
        change(other);
        const auto rows = diffSnapshots(a, other);
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(rows[0].area), area);
        QCOMPARE(QString::fromStdString(rows[0].item), item);
        QCOMPARE(QString::fromStdString(rows[0].b), b);
        QVERIFY(rows[0].a != rows[0].b);
        const auto j = diffToJson(rows);
        QCOMPARE(QString::fromStdString(j[0]["area"].get<std::string>()), area);
    }

    void noiseIsNotADifference()
    {
        Snapshot a = base();
        Snapshot b = base();
        b.capturedAt = "2030-01-01T00:00:00Z";
        b.host.hostname = "b";
        b.env["DISPLAY"] = ":1";
        b.env["EDITOR"] = "vim";
        b.archCoverage->libraries[0].covers["0"].explanation = "a different wording";
        b.archCoverage->libraries[0].targets[0].id = "hip-amdgcn-amd-amdhsa--gfx1100"; // same arch
        b.root = "/somewhere";
        QVERIFY(diffSnapshots(a, b).empty());
        QVERIFY(diffSnapshots(a, a).empty());
    }
};

QTEST_GUILESS_MAIN(TestSnapshotDiff)
#include "tst_snapshot_diff.moc"
