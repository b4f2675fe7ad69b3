// The written report: folder and zip layout, no planted secret in any file or zip entry, --no-redact, round trip.
#include "core/report/redactor.h"
#include "core/report/report.h"
#include "core/report/report_loader.h"
#include "core/report/report_writer.h"
#include "core/report/telemetry_summary.h"
#include "core/snapshot/snapshot_json.h"
#include "core/snapshot/stack_rows.h"
#include "tests/report/report_test_util.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace stackscope;
using namespace stackscope::report;
using namespace stackscope::test;

namespace {

std::vector<std::string> readLines(const QString& path)
{
    std::ifstream in(path.toStdString());
    std::vector<std::string> lines;
    std::string l;
    while (std::getline(in, l))
        lines.push_back(l);
    return lines;
}

ReportInputs plantedInputs()
{
    ReportInputs in;
    in.snapshot = loadSnapshotFile((kReportFixtures + "/planted_snapshot.json").toStdString());
    in.logLines = readLines(kReportFixtures + "/planted.log");
    in.probes = {
        {"devices", {{{"id", "cpu"}, {"name", "cpu"}}, {{"id", "0"}, {"name", "NVIDIA H100 80GB HBM3"}}}},
        {"variants", {{{"name", "baseline"}, {"env", nlohmann::json::object()}, {"rules", nlohmann::json::array()}}}},
        {"results",
         {{{"probe", "matmul_fp16"}, {"device", "0"}, {"variant", "baseline"}, {"env", {{"HOME", "/home/zorbuser"}}},
           {"outcome", "error"},
           {"message", "HIP error: invalid device function (on zorb-workstation-7, GPU-5d3a8f1e-1c2b-4a5d-9e8f-0123456789ab)"},
           {"stderr", "peer 10.23.45.67 mac 3c:ec:ef:12:34:56"}, {"seconds", 0.5}},
          {{"probe", "matmul_fp32"}, {"device", "cpu"}, {"variant", "baseline"}, {"env", nlohmann::json::object()},
           {"outcome", "ok"}, {"message", ""}, {"stderr", ""}, {"seconds", 0.1}}}}};
    in.vpocRun = {{"backend", "cpu"}, {"options", {{"input", "/home/zorbuser/data/es.csv"}}}, {"rows", 10},
                  {"sessions", {{{"date", "2026-01-02"}, {"poc", 5000.25}, {"profile", {1, 2, 3}}}}}};
    in.trainingRun = {{"schema", "stackscope.training/1"}, {"status", "finished"},
                      {"config", {{"epochs", 2}, {"out", "/home/zorbuser/runs/a"}}},
                      {"data", {{"file", "/home/zorbuser/data/es.csv"}, {"sha256", std::string(64, 'a')}}},
                      {"devices", {"cuda:0 NVIDIA H100 80GB HBM3 GPU-5d3a8f1e-1c2b-4a5d-9e8f-0123456789ab"}},
                      {"epochs", {{{"epoch", 1}, {"train_loss", 0.5}, {"val_loss", 0.6}}}},
                      {"best_epoch", 1}, {"best_val_loss", 0.6}};
    in.telemetry = {{"available", false}, {"reason", "no NVML on zorb-workstation-7"}};
    return in;
}

std::vector<ReportImage> images()
{
    // Stand-ins for the GUI's screenshots (the GUI draws them from redacted data).
    return {{"system.png", "System page", std::string("\x89PNG\r\n\x1a\n fake", 13)},
            {"../evil name.png", "Summary card", std::string("\x89PNG\r\n\x1a\n card", 13)}};
}

QString leakIn(const std::vector<NamedBytes>& files, const QStringList& secrets)
{
    for (const auto& f : files) {
        for (const auto& s : secrets) {
            if (f.bytes.contains(s.toUtf8()))
                return f.name + " holds " + s;
        }
    }
    return {};
}

} // namespace

class TestReportFiles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void folderName()
    {
        const auto t = std::chrono::system_clock::from_time_t(1763726592); // 2025-11-21 12:03:12 UTC
        QCOMPARE(QString::fromStdString(reportFolderName(t)), QStringLiteral("stackscope-report-20251121-120312"));
    }

    void redactedEverywhere_data()
    {
        QTest::addColumn<bool>("redact");
        QTest::newRow("redacted") << true;
        QTest::newRow("--no-redact") << false;
    }
    void redactedEverywhere()
    {
        QFETCH(bool, redact);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto in = plantedInputs();
        auto redactor = Redactor::forMachine(in.snapshot);
        const auto doc = buildReport(in, redact ? &redactor : nullptr);
        const auto written = writeReport(dir.path().toStdString(), doc, images(), std::chrono::system_clock::now());
        const auto folder = QString::fromStdString(written.folder);
        const auto zip = QString::fromStdString(written.zip);
        QVERIFY(QFileInfo(folder).fileName().startsWith("stackscope-report-"));
        QCOMPARE(zip, folder + ".zip");
        for (const char* f : {"report.json", "report.md", "report.html", "logs/recent.log", "screenshots/system.png",
                              "screenshots/evil_name.png"})
            QVERIFY2(QFileInfo::exists(folder + "/" + f), f);
        // Nothing else in the parent: no temporary folder or zip left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(), 2);

        const auto files = filesUnder(folder);
        const auto entries = zipEntries(zip);
        QCOMPARE(entries.size(), files.size() + 3); // plus the three folder entries
        for (const auto& e : entries)
            QVERIFY2(e.name.startsWith(QFileInfo(folder).fileName() + "/"), qPrintable(e.name));
        if (redact) {
            QVERIFY2(leakIn(files, plantedSecrets()).isEmpty(), qPrintable(leakIn(files, plantedSecrets())));
            QVERIFY2(leakIn(entries, plantedSecrets()).isEmpty(), qPrintable(leakIn(entries, plantedSecrets())));
            QVERIFY2(leakInAnyCase(files, plantedOtherForms()).isEmpty(), qPrintable(leakInAnyCase(files, plantedOtherForms())));
            QVERIFY2(leakInAnyCase(entries, plantedOtherForms()).isEmpty(), qPrintable(leakInAnyCase(entries, plantedOtherForms())));
            QVERIFY(doc["redaction"]["enabled"].get<bool>());
            QStringList kinds;
            for (const auto& e : doc["redaction"]["replaced"])
                kinds << QString::fromStdString(e["kind"].get<std::string>());
            for (const char* k : {"user", "host", "home", "ip", "mac", "gpu-uuid", "serial"})
                QVERIFY2(kinds.contains(k), k);
            // The same address has the same placeholder in the snapshot and in the logs.
            const auto ip = QString::fromStdString(doc["snapshot"]["env"]["NCCL_COMM_ID"].get<std::string>()).section(':', 0, 0);
            QVERIFY(ip.startsWith("<ip-"));
            QVERIFY(QString::fromStdString(doc["logs"].dump()).contains(ip));
            QVERIFY(QString::fromStdString(doc["probes"].dump()).contains(ip));
        } else {
            // Every planted value is still there in report.json, as given.
            const auto json = std::find_if(files.begin(), files.end(), [](const NamedBytes& f) { return f.name.endsWith("report.json"); });
            QVERIFY(json != files.end());
            for (const auto& s : plantedSecrets())
                QVERIFY2(json->bytes.contains(s.toUtf8()), qPrintable(s));
            QVERIFY(!doc["redaction"]["enabled"].get<bool>());
            QVERIFY(doc["redaction"]["replaced"].empty());
        }
        // The Markdown has the short sections a tracker needs.
        const auto md = std::find_if(files.begin(), files.end(), [](const NamedBytes& f) { return f.name.endsWith("report.md"); });
        for (const char* section : {"### GPUs", "### Stack", "### Failing probes", "### Findings", "matmul_fp16"})
            QVERIFY2(md->bytes.contains(section), section);
        // Its stack section is the System page's stack table (core/snapshot/stack_rows.h), row for row.
        for (const auto& row : stackscope::stackRows(stackscope::snapshotFromJson(doc["snapshot"])))
            QVERIFY2(md->bytes.contains(("- **" + row.component + "**: ").c_str()), row.component.c_str());
        // The HTML embeds the images.
        const auto html = std::find_if(files.begin(), files.end(), [](const NamedBytes& f) { return f.name.endsWith("report.html"); });
        QVERIFY(html->bytes.contains("data:image/png;base64,"));
        QVERIFY(!html->bytes.contains("src=\"screenshots/"));
    }

    // The renderings read the findings as the one Finding type and the probe results as records: today's keys, a
    // diagnosis finding written before issue 19 ("rule", "cause"), and what cannot be read said as such (no throw).
    void renderingsReadFindingsAndProbes_data()
    {
        QTest::addColumn<QByteArray>("findings");
        QTest::addColumn<QByteArray>("probes");
        QTest::addColumn<QStringList>("expected"); // in both the Markdown and the HTML
        const QByteArray probes = R"({"results": [{"probe": "matmul_fp16", "device": "0", "variant": "baseline",
            "outcome": "crash", "message": "SIGSEGV in rocblas", "seconds": 0.25}]})";
        QTest::newRow("today's keys") << QByteArray(R"([{"id": "GPU_HANG", "severity": "error", "title": "The GPU hung",
            "detail": "a ring timeout", "confidence": "high", "fixes": [{"text": "update the driver", "env": {}}]}])")
                                      << probes << QStringList {"GPU_HANG", "a ring timeout", "update the driver", "KFD_ABSENT", "SIGSEGV in rocblas"};
        QTest::newRow("before issue 19") << QByteArray(R"([{"rule": "GPU_HANG", "severity": "error", "title": "The GPU hung",
            "cause": "a ring timeout", "confidence": "high", "fixes": []}])")
                                         << probes << QStringList {"GPU_HANG", "a ring timeout", "KFD_ABSENT", "crash"};
        QTest::newRow("unreadable findings") << QByteArray(R"([{"id": "X", "severity": "fatal"}])") << probes
                                             << QStringList {"The findings cannot be read", "fatal", "SIGSEGV in rocblas"};
        QTest::newRow("unreadable probes") << QByteArray("[]") << QByteArray(R"({"results": [{"probe": "p", "outcome": "melted"}]})")
                                           << QStringList {"The probe results cannot be read", "probes.results[0]", "KFD_ABSENT"};
    }
    void renderingsReadFindingsAndProbes()
    {
        QFETCH(QByteArray, findings);
        QFETCH(QByteArray, probes);
        QFETCH(QStringList, expected);
        auto doc = buildReport(plantedInputs(), nullptr);
        doc["findings"] = nlohmann::json::parse(findings.toStdString());
        doc["probes"] = nlohmann::json::parse(probes.toStdString());
        const auto md = QString::fromStdString(reportMarkdown(doc));
        const auto html = QString::fromStdString(reportHtml(doc, {}));
        for (const auto& text : expected) {
            QVERIFY2(md.contains(text), qPrintable(text + QStringLiteral(" not in:\n") + md));
            QVERIFY2(html.contains(text.toHtmlEscaped()), qPrintable(text));
        }
    }

    void trimsRuns()
    {
        const auto doc = buildReport(plantedInputs(), nullptr);
        QVERIFY(!doc["vpoc"]["sessions"][0].contains("profile"));
        QCOMPARE(doc["vpoc"]["session_count"].get<int>(), 1);
        QCOMPARE(doc["training"]["best_epoch"].get<int>(), 1);
        QVERIFY(!doc["training"].contains("device_advice"));
        auto advised = plantedInputs(); // the trainer measured one GPU faster than the ranks: the report keeps it
        advised.trainingRun["device_advice"] = {{"kind", "fewer_gpus_faster"}, {"processes", 2},
                                                {"ranks_steps_per_s", 508.0}, {"one_gpu_steps_per_s", 11688.0},
                                                {"gpu", 0}, {"suggested_device", "gpu:0"}};
        const auto advisedDoc = buildReport(advised, nullptr);
        QCOMPARE(advisedDoc["training"]["device_advice"], advised.trainingRun["device_advice"]);
        QVERIFY(doc["findings"].is_array());
        // Findings are recomputed: the planted log's "invalid device function" is a rule's signature.
        QVERIFY2(QString::fromStdString(doc["findings"].dump()).contains("NO_CODE_OBJECT_FOR_GPU"),
                 qPrintable(QString::fromStdString(doc["findings"].dump()).left(400)));
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("which");
        QTest::newRow("folder") << "folder";
        QTest::newRow("zip") << "zip";
        QTest::newRow("report.json") << "json";
    }
    void roundTrip()
    {
        QFETCH(QString, which);
        QTemporaryDir dir;
        const auto in = plantedInputs();
        auto redactor = Redactor::forMachine(in.snapshot);
        const auto doc = buildReport(in, &redactor);
        const auto written = writeReport(dir.path().toStdString(), doc, images(), std::chrono::system_clock::now());
        const std::string path = which == "folder" ? written.folder
                                 : which == "zip"  ? written.zip
                                                   : written.folder + "/report.json";
        const auto loaded = loadReport(path);
        QVERIFY(!loaded.isSnapshotOnly);
        QCOMPARE(QString::fromStdString(loaded.source), QString::fromStdString(path));
        QCOMPARE(toJson(loaded.snapshot), doc["snapshot"]);
        QCOMPARE(loaded.report, doc);
        // What a replay needs: the same probe set.
        const auto set = probeSetOf(loaded.report["probes"]);
        QCOMPARE(set.probeIds, (std::vector<std::string> {"matmul_fp16", "matmul_fp32"}));
        QCOMPARE(set.devices, (std::vector<std::string> {"0", "cpu"}));
        QCOMPARE(set.variants.size(), std::size_t(1));
        const auto findings = recomputeFindings(loaded.snapshot, loaded.report["probes"], {});
        QVERIFY(findings.is_array());
    }

    void plainSnapshotLoads()
    {
        const auto loaded = loadReport((kReportFixtures + "/planted_snapshot.json").toStdString());
        QVERIFY(loaded.isSnapshotOnly);
        QCOMPARE(QString::fromStdString(*loaded.snapshot.host.hostname), QStringLiteral("zorb-workstation-7"));
        QCOMPARE(QString::fromStdString(loaded.report["schema"].get<std::string>()), QString::fromLatin1(kReportSchema));
    }

    void unwritableParentIsAnError()
    {
        QTemporaryDir dir;
        QFile blocker(dir.path() + "/file");
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        QVERIFY_THROWS_EXCEPTION(ReportError, writeReport((dir.path() + "/file/sub").toStdString(), buildReport(plantedInputs(), nullptr),
                                                           {}, std::chrono::system_clock::now()));
    }

    void telemetrySummaryShape()
    {
        const auto t = sampleTelemetrySummary(2, std::chrono::milliseconds(50));
        QVERIFY(t["sources"].is_array());
        QVERIFY(!t["sources"].empty());
        if (t["available"].get<bool>()) {
            // A GPU machine: every GPU has a quantity with min <= mean <= max.
            QVERIFY(!t["gpus"].empty());
            for (const auto& g : t["gpus"])
                for (const auto& [k, q] : g["quantities"].items())
                    QVERIFY2(q["min"].get<double>() <= q["mean"].get<double>() + 1e-9
                                 && q["mean"].get<double>() <= q["max"].get<double>() + 1e-9, k.c_str());
        } else {
            // No NVML or rocm_smi: the reason names the sources that failed.
            const auto reason = QString::fromStdString(t["reason"].get<std::string>());
            QVERIFY2(reason.contains("NVML") || reason.contains("no GPU"), qPrintable(reason));
        }
    }

    void secondReportSameSecond()
    {
        QTemporaryDir dir;
        const auto now = std::chrono::system_clock::now();
        const auto doc = buildReport(plantedInputs(), nullptr);
        const auto a = writeReport(dir.path().toStdString(), doc, {}, now);
        const auto b = writeReport(dir.path().toStdString(), doc, {}, now);
        QVERIFY(a.folder != b.folder);
        QVERIFY(QString::fromStdString(b.folder).endsWith("-2"));
    }
};

QTEST_GUILESS_MAIN(TestReportFiles)
#include "tst_report_files.moc"
