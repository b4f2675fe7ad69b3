// Snapshot JSON: round trip, tolerance of unknown keys, clear errors for malformed input.
#include "core/inspect/inspector.h"
#include "core/snapshot/snapshot_json.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace stackscope;

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
            QVERIFY(QString::fromStdString(e.what()).contains(QStringLiteral("cannot open")));
        }
    }
};

QTEST_GUILESS_MAIN(TestSnapshotJson)
#include "tst_snapshot_json.moc"
