// Snapshot diff: each fact that matters gives one row; capture time, host names and unrelated variables give none.
#include "core/report/snapshot_diff.h"

#include <QtTest>

#include <functional>

using namespace stackscope;
using namespace stackscope::report;

Q_DECLARE_METATYPE(std::function<void(Snapshot&)>)

namespace {

Snapshot base()
{
    Snapshot s;
    s.capturedAt = "2026-11-21T12:00:00Z";
    s.host.hostname = "a";
    s.host.os = "Ubuntu 24.04";
    s.rocm.installs = {{"/opt/rocm-6.2.4", "6.2.4", ".info/version"}};
    s.torch.version = "2.5.1+rocm6.2";
    s.torch.archList = std::vector<std::string> {"gfx90a", "gfx1100"};
    GpuInfo g;
    g.index = 0;
    g.vendor = "amd";
    g.name = "Radeon RX 7900 XTX";
    g.arch = "gfx1100";
    s.gpus = {g};
    s.env = {{"HSA_OVERRIDE_GFX_VERSION", "11.0.0"}, {"DISPLAY", ":0"}};
    s.access.kfd = {"/dev/kfd", true, true, "render", "0660"};
    s.access.userGroups = {"video", "render"};
    LibraryStatus l;
    l.component = "HIP runtime";
    l.loaded = true;
    l.path = "/opt/rocm-6.2.4/lib/libamdhip64.so";
    s.libraries = {l};
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
    // a machine inspected here that lacks a library still reads "(none)".
    void recordedMachineNotQueried_data()
    {
        QTest::addColumn<bool>("recorded");
        QTest::addColumn<QString>("library");
        QTest::addColumn<QString>("torch");
        QTest::newRow("recorded root") << true << QString::fromLatin1(kNotQueried) << QString::fromLatin1(kNotQueried);
        QTest::newRow("inspected here") << false << QString::fromLatin1(kNone) << QString::fromLatin1(kNone);
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
