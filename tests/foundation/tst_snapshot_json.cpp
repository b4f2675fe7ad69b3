// Snapshot JSON: round trip, tolerance of unknown keys, clear errors for malformed input.
#include "core/archscan/arch_scan.h"
#include "core/inspect/inspector.h"
#include "core/snapshot/snapshot_json.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace stackscope;

Q_DECLARE_METATYPE(stackscope::archscan::ArchCoverage)

namespace {

// A scan with every field set to something other than its default.
archscan::ArchCoverage fullCoverage()
{
    using namespace archscan;
    ArchCoverage c;
    LibraryScan hip;
    hip.path = "/opt/rocm/lib/libtorch_hip.so";
    hip.kind = LibraryKind::Hip;
    hip.targets = {{"gfx90a:sramecc+:xnack-", "gfx90a", {{"sramecc", "+"}, {"xnack", "-"}}, CodeFormat::CodeObject, true,
                    "hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"},
                   {"gfx11-generic", "gfx11-generic", {}, CodeFormat::CodeObject, false, ""}};
    hip.containers = 7;
    hip.errors = {"bundle 3: truncated"};
    hip.errorsNotKept = 2;
    hip.targetsNotKept = 1;
    hip.unreadable = true;
    hip.covers = {{"gfx1101", {Coverage::Generic, "only through gfx11-generic"}}, {"gfx90a", {Coverage::Yes, ""}},
                  {"gfx1036", {Coverage::No, "no code object for gfx1036"}}};
    LibraryScan cuda;
    cuda.path = "/x/libtorch_cuda.so";
    cuda.kind = LibraryKind::Cuda;
    cuda.targets = {{"sm_80", "sm_80", {}, CodeFormat::Sass, false, ""}, {"compute_80", "compute_80", {}, CodeFormat::Ptx, false, ""}};
    cuda.covers = {{"sm_90", {Coverage::Ptx, "PTX JIT on first use"}}};
    LibraryScan tensile;
    tensile.path = "/opt/rocm/lib/rocblas/library";
    tensile.kind = LibraryKind::Tensile;
    LibraryScan miopen;
    miopen.path = "/opt/rocm/share/miopen/db";
    miopen.kind = LibraryKind::Miopen;
    c.libraries = {hip, cuda, tensile, miopen};
    c.devices = {"gfx1101", "gfx90a", "gfx1036", "sm_90"};
    c.overrides = {{"gfx1101", "11.0.0", "gfx1100", true, {"/opt/rocm/lib/libtorch_hip.so"}},
                   {"gfx1036", "10.3.0", "gfx1030", false, {}}};
    c.notes = {"hipBLASLt: not found"};
    return c;
}

std::string fixturePath(const char* name)
{
    return std::string(STACKSCOPE_TEST_FIXTURES "/snapshots/") + name;
}

} // namespace

class TestSnapshotJson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("root");
        QTest::newRow("amd-2x7900xt") << "ubuntu2204-2x7900xt";
        QTest::newRow("rocm7") << "ubuntu2404-rocm7";
        QTest::newRow("nvidia-h100") << "ubuntu2404-h100";
        QTest::newRow("no-gpu") << "debian12-nogpu";
        QTest::newRow("secure boot + dkms (host_extras)") << "ubuntu2404-secureboot-dkms";
        QTest::newRow("kfd only (stand-in names, no environment)") << "kfd-only-2x7900xt";
    }
    void roundTrip()
    {
        QFETCH(QString, root);
        InspectOptions o;
        o.root = std::string(STACKSCOPE_TEST_FIXTURES "/roots/") + root.toStdString();
        const Snapshot s = inspectMachine(o);
        const auto first = toJson(s);
        const Snapshot back = parseSnapshot(first.dump(), "memory");
        QCOMPARE(QString::fromStdString(toJson(back).dump()), QString::fromStdString(first.dump()));
        QCOMPARE(first["schema"].get<std::string>(), std::string(kSnapshotSchema));

        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("snap.json")).toStdString();
        saveSnapshotFile(s, path);
        QCOMPARE(QString::fromStdString(toJson(loadSnapshotFile(path)).dump()), QString::fromStdString(first.dump()));
    }

    // A root seen only through KFD has stand-ins for the GPU names and no recorded environment: both unknown in the
    // snapshot and in its JSON (name_known false, env null), so Compare never counts them as differences; a recorded
    // environment stays an object, and a known name writes no name_known.
    void unknownNamesAndEnvironment_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<bool>("namesKnown");
        QTest::addColumn<bool>("envKnown");
        QTest::newRow("kfd only") << "kfd-only-2x7900xt" << false << false;
        QTest::newRow("2x7900xt") << "ubuntu2204-2x7900xt" << true << true;
    }
    void unknownNamesAndEnvironment()
    {
        QFETCH(QString, root);
        QFETCH(bool, namesKnown);
        QFETCH(bool, envKnown);
        InspectOptions o;
        o.root = std::string(STACKSCOPE_TEST_FIXTURES "/roots/") + root.toStdString();
        const Snapshot s = inspectMachine(o);
        QCOMPARE(s.gpus.size(), std::size_t(3));
        QCOMPARE(s.envKnown, envKnown);
        const auto j = toJson(s);
        QCOMPARE(j["env"].is_null(), !envKnown);
        const Snapshot back = parseSnapshot(j.dump(), "memory");
        QCOMPARE(back.envKnown, envKnown);
        for (std::size_t i = 0; i < s.gpus.size(); ++i) {
            QCOMPARE(s.gpus[i].nameKnown, namesKnown);
            QCOMPARE(back.gpus[i].nameKnown, namesKnown);
            QCOMPARE(j["gpus"][i].contains("name_known"), !namesKnown);
        }
    }

    void unknownKeysAndNulls()
    {
        const auto text = R"({"schema": "stackscope.snapshot/1", "captured_at": "2026-01-01T00:00:00Z",
            "future_section": {"x": [1, 2]}, "gpus": [{"index": 0, "vendor": "amd", "name": "X", "arch": null,
            "vram_total_bytes": null, "new_field": true}], "torch": {"version": null}, "env": {}})";
        const Snapshot s = parseSnapshot(text, "t");
        QCOMPARE(s.gpus.size(), size_t(1));
        QVERIFY(!s.gpus[0].arch);
        QVERIFY(!s.gpus[0].vramTotalBytes);
        QVERIFY(!s.torch.version);
        // Unknown values are written back as null, never invented.
        const auto j = toJson(s);
        QVERIFY(j["gpus"][0]["arch"].is_null());
        QVERIFY(j["torch"]["backend"].is_null());
    }

    void archCoverageRoundTrip_data()
    {
        QTest::addColumn<archscan::ArchCoverage>("coverage");
        QTest::newRow("nothing found") << archscan::ArchCoverage {};
        QTest::newRow("every field") << fullCoverage();
    }
    void archCoverageRoundTrip()
    {
        QFETCH(archscan::ArchCoverage, coverage);
        const auto j = archscan::toJson(coverage);
        QVERIFY(archscan::coverageFromJson(j) == coverage);
        QCOMPARE(QString::fromStdString(archscan::toJson(archscan::coverageFromJson(j)).dump()), QString::fromStdString(j.dump()));
        // Inside a snapshot: the section keeps its JSON shape and comes back the same.
        Snapshot s;
        s.archCoverage = coverage;
        const auto written = toJson(s);
        QCOMPARE(QString::fromStdString(written["arch_coverage"].dump()), QString::fromStdString(j.dump()));
        const Snapshot back = parseSnapshot(written.dump(), "memory");
        QVERIFY(back.archCoverage && *back.archCoverage == coverage);
        QVERIFY(!parseSnapshot(toJson(Snapshot {}).dump(), "memory").archCoverage); // not scanned stays null
    }

    // A snapshot written before the scan reported unreadable files and its caps still loads, as fully read.
    void oldArchCoverageLoads()
    {
        const Snapshot s = loadSnapshotFile(fixturePath("archcoverage-before-unreadable.json"));
        QVERIFY(s.archCoverage);
        const auto& c = *s.archCoverage;
        QCOMPARE(c.libraries.size(), size_t(2));
        QCOMPARE(c.devices, std::vector<std::string> {"gfx1101"});
        const auto& hip = c.libraries[0];
        QCOMPARE(hip.kind, archscan::LibraryKind::Hip);
        QCOMPARE(hip.targets.size(), size_t(3));
        QCOMPARE(hip.targets[2].features.at("xnack"), std::string("-"));
        QCOMPARE(hip.covers.at("gfx1101").coverage, archscan::Coverage::No);
        QVERIFY(hip.covers.at("gfx1101").explanation.find("invalid device function") != std::string::npos);
        QVERIFY(!hip.unreadable);
        QCOMPARE(hip.errorsNotKept, std::uint64_t(0));
        QCOMPARE(c.libraries[1].kind, archscan::LibraryKind::Tensile);
        QCOMPARE(c.libraries[1].errors.size(), size_t(1));
        QCOMPARE(c.libraries[1].covers.at("gfx1101").explanation, std::string());
        QCOMPARE(c.overrides.size(), size_t(1));
        QVERIFY(c.overrides[0].inEffect);
        QCOMPARE(c.overrides[0].reportedArch, std::string("gfx1100"));
        QVERIFY(c.anyUncovered());
        QVERIFY(!c.anyUnreadable());
        // Written again, it has today's keys and reads back the same.
        const auto again = toJson(s);
        QVERIFY(again["arch_coverage"]["libraries"][0]["unreadable"] == nlohmann::json(false));
        QVERIFY(parseSnapshot(again.dump(), "memory").archCoverage == s.archCoverage);
    }

    void malformed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected"); // a part of the error message
        QTest::newRow("not json") << "{ this is not json" << "not valid JSON";
        QTest::newRow("truncated") << R"({"schema": "stackscope.snapshot/1", "gpus": [)" << "not valid JSON";
        QTest::newRow("array") << "[1,2,3]" << "must be a JSON object";
        QTest::newRow("no schema") << R"({"gpus": []})" << "no \"schema\" key";
        QTest::newRow("wrong schema") << R"({"schema": "stackscope.snapshot/9"})" << "stackscope.snapshot/9";
        QTest::newRow("other tool") << R"({"schema": "collect_env"})" << "this StackScope reads";
        QTest::newRow("gpus not array") << R"({"schema": "stackscope.snapshot/1", "gpus": {"a": 1}})" << "'gpus' must be an array";
        QTest::newRow("vram string") << R"({"schema": "stackscope.snapshot/1", "gpus": [{"vram_total_bytes": "lots"}]})"
                                     << "gpus[0].vram_total_bytes";
        QTest::newRow("negative vram") << R"({"schema": "stackscope.snapshot/1", "gpus": [{"vram_total_bytes": -5}]})"
                                       << "gpus[0].vram_total_bytes";
        QTest::newRow("env number") << R"({"schema": "stackscope.snapshot/1", "env": {"HIP_VISIBLE_DEVICES": 1}})"
                                    << "env.HIP_VISIBLE_DEVICES";
        QTest::newRow("bad severity") << R"({"schema": "stackscope.snapshot/1", "findings": [{"id": "X", "severity": "fatal"}]})"
                                      << "severity 'fatal'";
        QTest::newRow("host not object") << R"({"schema": "stackscope.snapshot/1", "host": "box"})" << "'host' must be an object";
        QTest::newRow("secure_boot string") << R"({"schema": "stackscope.snapshot/1", "host_extras": {"secure_boot": "yes"}})"
                                            << "host_extras.secure_boot";
        QTest::newRow("dkms not objects") << R"({"schema": "stackscope.snapshot/1", "host_extras": {"dkms": ["amdgpu"]}})"
                                          << "host_extras.dkms[0]";
        QTest::newRow("link width text") << R"({"schema": "stackscope.snapshot/1", "gpus": [{"pcie_links": [{"current_width": "x8"}]}]})"
                                         << "gpus[0].pcie_links[0].current_width";
        QTest::newRow("firmware number") << R"({"schema": "stackscope.snapshot/1", "gpus": [{"firmware": {"mec": 528}}]})"
                                         << "gpus[0].firmware";
        QTest::newRow("coverage not object") << R"({"schema": "stackscope.snapshot/1", "arch_coverage": [1]})"
                                             << "'arch_coverage' must be an object";
        QTest::newRow("coverage verdict") << R"({"schema": "stackscope.snapshot/1", "arch_coverage": {"libraries": [{"covers": {"gfx1100": "maybe"}}]}})"
                                          << "'arch_coverage.libraries[0].covers.gfx1100' is \"maybe\"";
        QTest::newRow("coverage library") << R"({"schema": "stackscope.snapshot/1", "arch_coverage": {"libraries": [5]}})"
                                          << "'arch_coverage.libraries[0]' must be an object";
        QTest::newRow("coverage kind") << R"({"schema": "stackscope.snapshot/1", "arch_coverage": {"libraries": [{"kind": "rocm"}]}})"
                                       << "'arch_coverage.libraries[0].kind' is \"rocm\"";
        QTest::newRow("coverage target id") << R"({"schema": "stackscope.snapshot/1", "arch_coverage": {"libraries": [{"targets": [{"id": 3}]}]}})"
                                            << "'arch_coverage.libraries[0].targets[0].id' must be a string";
        QTest::newRow("coverage count") << R"({"schema": "stackscope.snapshot/1", "arch_coverage": {"libraries": [{"containers": -1}]}})"
                                        << "'arch_coverage.libraries[0].containers' must be a non-negative integer";
        QTest::newRow("coverage devices") << R"({"schema": "stackscope.snapshot/1", "arch_coverage": {"devices": [1, "gfx1100"]}})"
                                          << "'arch_coverage.devices[0]' must be a string";
        QTest::newRow("coverage schema") << R"({"schema": "stackscope.snapshot/1", "arch_coverage": {"schema": "stackscope.archscan/2"}})"
                                         << "'arch_coverage.schema' is \"stackscope.archscan/2\"";
        QTest::newRow("deep nesting") << QString(QStringLiteral("[")).repeated(100000) << "not valid JSON";
        // A number past a double's range is out_of_range in nlohmann, not a parse error: still a place to go to.
        QTest::newRow("number overflow") << "{\"schema\": \"stackscope.snapshot/1\",\n \"gpus\": [{\"vram_total_bytes\": 1e999999999}]}"
                                         << "line 2, column 32: not valid JSON: the number 1e999999999 is too large";
        QTest::newRow("parse error place") << "{\"schema\": \"stackscope.snapshot/1\",\n\n  \"gpus\": [}" << "line 3, column 12";
    }
    void malformed()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        try {
            parseSnapshot(text.toStdString(), "bad.json");
            QFAIL("a malformed snapshot was accepted");
        } catch (const SnapshotError& e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.startsWith(QStringLiteral("bad.json: ")), qPrintable(message));
            QVERIFY2(message.contains(expected), qPrintable(message));
        }
    }

    void missingFile()
    {
        try {
            loadSnapshotFile("/nonexistent/snap.json");
            QFAIL("no error for a missing file");
        } catch (const SnapshotError& e) {
            QVERIFY(QString::fromStdString(e.what()).contains(QStringLiteral("cannot be read")));
        }
    }
};

QTEST_GUILESS_MAIN(TestSnapshotJson)
#include "tst_snapshot_json.moc"
