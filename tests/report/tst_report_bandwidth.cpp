// The support report carries the bandwidth run (issue 33): built with the run recorded on 2x H200 and that machine's
// snapshot, it is judged again (healthy: every link as expected), listed in the Markdown and HTML with expected and
// verdict, written, read back by the loader with its figures, redacted like the rest; `report --bandwidth FILE` through
// the CLI; a damaged run is refused with the key.
#include "core/perf/link_matrix.h"
#include "core/perf/perf_json.h"
#include "core/perf/recorded_run.h"
#include "core/report/redactor.h"
#include "core/report/report.h"
#include "core/report/report_loader.h"
#include "core/report/report_writer.h"
#include "core/snapshot/snapshot_json.h"
#include "tests/common/cli_process.h"
#include "tests/common/bandwidth_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace stackscope;
using namespace stackscope::report;

namespace {

const QString kDir = QString::fromStdString(test::kBandwidthFixtures);

ReportInputs inputs(const QString& run)
{
    ReportInputs in;
    in.snapshot = snapshotFromJson(test::bandwidthFixture("inspect.json"));
    in.bandwidth = perf::suiteRunFromJson(test::bandwidthFixture(run.toStdString()));
    return in;
}

QString verdictOf(const perf::SuiteRun& run, const QString& key)
{
    for (const auto& f : run.figures)
        if (perf::figureKey(f) == key.toStdString())
            return QString::fromLatin1(perf::verdictId(f.verdict));
    return QStringLiteral("missing");
}

} // namespace

class TestReportBandwidth : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Written and read back: the run's figures, judged against the report's snapshot, come back typed.
    void roundTrip_data()
    {
        QTest::addColumn<QString>("run");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("markdown"); // a line of the Markdown table
        QTest::newRow("healthy peer copy") << "bw-healthy.json" << "peer_ce GPU 0 -> GPU 1" << "as_expected"
                                           << QString::fromUtf8("| peer_ce | GPU 0 -> GPU 1 | 393.4 GB/s | 450.0 GB/s | 0.87 | \u2713 as expected |");
        QTest::newRow("healthy all_gather (judged again)") << "bw-healthy.json" << "all_gather GPUs 0-1" << "as_expected"
                                                           << QString::fromUtf8("| all_gather | GPUs 0-1 | 265.3 GB/s | 321.0 GB/s | 0.83 | \u2713 as expected |");
        QTest::newRow("P2P off: all_reduce degraded") << "bw-p2p-disabled.json" << "all_reduce GPUs 0-1" << "degraded"
                                                      << QString::fromUtf8("| all_reduce | GPUs 0-1 | 26.9 GB/s | 370.7 GB/s | 0.07 | \u25bc degraded |");
    }
    void roundTrip()
    {
        QFETCH(QString, run);
        QFETCH(QString, key);
        QFETCH(QString, verdict);
        QFETCH(QString, markdown);
        const auto in = inputs(run);
        auto redactor = Redactor::forMachine(in.snapshot);
        const auto doc = buildReport(in, &redactor);
        QVERIFY(doc["bandwidth"].is_object());
        QVERIFY2(QString::fromStdString(doc["bandwidth_note"].get<std::string>()).startsWith(QStringLiteral("judged against")),
                 doc["bandwidth_note"].dump().c_str());
        const auto md = QString::fromStdString(reportMarkdown(doc));
        QVERIFY2(md.contains(QStringLiteral("### Links and bandwidth")), qPrintable(md));
        QVERIFY2(md.contains(markdown), qPrintable(md));
        const auto html = QString::fromStdString(reportHtml(doc, {}));
        QVERIFY(html.contains(QStringLiteral("<h2>Links and bandwidth</h2>")));
        QTemporaryDir dir;
        const auto written = writeReport(dir.path().toStdString(), doc, {}, std::chrono::system_clock::now());
        const auto loaded = loadReport(written.folder);
        QVERIFY(loaded.bandwidth);
        QCOMPARE(loaded.bandwidth->figures.size(), in.bandwidth->figures.size());
        QCOMPARE(verdictOf(*loaded.bandwidth, key), verdict);
        // Loaded and built again (the GUI's replay exporting once more): the same figures and verdicts.
        ReportInputs again;
        again.snapshot = loaded.snapshot;
        again.bandwidth = loaded.bandwidth;
        const auto doc2 = buildReport(again, nullptr);
        QCOMPARE(doc2["bandwidth"]["figures"], doc["bandwidth"]["figures"]);
    }

    // The run's host name is private like the snapshot's: replaced everywhere in a redacted report.
    void hostIsRedacted()
    {
        auto in = inputs(QStringLiteral("bw-healthy.json"));
        in.snapshot.host.hostname = "zorb-workstation-7";
        in.bandwidth->host = "zorb-workstation-7";
        in.bandwidth->gpuNames = {"NVIDIA H200", "NVIDIA H200"};
        auto redactor = Redactor::forMachine(in.snapshot);
        const auto doc = buildReport(in, &redactor);
        QVERIFY(doc["bandwidth"]["machine"].is_object());
        QVERIFY(doc.dump().find("zorb-workstation-7") == std::string::npos);
        // Redacted the same way on both sides, it is still the machine that ran it.
        QVERIFY2(doc["bandwidth_note"].get<std::string>().rfind("judged against", 0) == 0, doc["bandwidth_note"].dump().c_str());
        const auto loaded = loadReportText(doc.dump(), "report.json");
        QVERIFY(loaded.bandwidth);
        QCOMPARE(perf::judgeRecordedRun(*loaded.bandwidth, &loaded.snapshot, "x").rejudged, true);
    }

    void withoutRunSaysWhy()
    {
        ReportInputs in;
        in.snapshot = snapshotFromJson(test::bandwidthFixture("inspect.json"));
        const auto doc = buildReport(in, nullptr);
        QVERIFY(doc["bandwidth"].is_null());
        QVERIFY(doc["bandwidth_note"].get<std::string>().find("bench bandwidth") != std::string::npos);
        QVERIFY(QString::fromStdString(reportMarkdown(doc)).contains(QStringLiteral("not measured")));
        QVERIFY(!loadReportText(doc.dump(), "report.json").bandwidth);
    }

    // A damaged run is refused with the key, not half read.
    void damagedRunIsRefused_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("message");
        QTest::newRow("not an object") << "string" << "'bandwidth' must be an object";
        QTest::newRow("another schema") << "schema" << "not a bandwidth run";
        QTest::newRow("unknown test") << "test" << "not a test of this StackScope";
        QTest::newRow("bytes out of range") << "bytes" << "not a whole number in range";
        QTest::newRow("gpu_count a float") << "gpu_count" << "must be a whole number";
    }
    void damagedRunIsRefused()
    {
        QFETCH(QString, change);
        QFETCH(QString, message);
        auto doc = buildReport(inputs(QStringLiteral("bw-healthy.json")), nullptr);
        auto& b = doc["bandwidth"];
        if (change == QLatin1String("string"))
            b = "fast";
        else if (change == QLatin1String("schema"))
            b["schema"] = "stackscope.bandwidth/9";
        else if (change == QLatin1String("test"))
            b["figures"][0]["test"] = "warp_drive";
        else if (change == QLatin1String("bytes"))
            b["figures"][1]["bytes"] = 1e300;
        else
            b["gpu_count"] = 2.5;
        try {
            loadReportText(doc.dump(), "report.json");
            QFAIL("loaded");
        } catch (const ReportError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        }
    }

    void cliReportCarriesTheRun()
    {
        if (qEnvironmentVariableIsEmpty("STACKSCOPE_CLI"))
            QSKIP("STACKSCOPE_CLI is not set (run through ctest)");
        QTemporaryDir dir;
        const auto r = test::runCli({"report", "--out", dir.path(), "--snapshot", kDir + "inspect.json", "--bandwidth",
                                     kDir + "bw-p2p-disabled.json", "--no-telemetry", "--no-archscan", "--run-dir",
                                     dir.path() + "/none"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("bandwidth: 4 as expected, 3 degraded; judged against"), r.out.constData());
        const auto bad = test::runCli({"report", "--out", dir.path(), "--snapshot", kDir + "inspect.json", "--bandwidth",
                                       kDir + "inspect.json", "--no-telemetry", "--run-dir", dir.path() + "/none"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--bandwidth") && bad.err.contains("bench bandwidth --json"), bad.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestReportBandwidth)
#include "tst_report_bandwidth.moc"
