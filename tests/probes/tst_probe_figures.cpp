// The copy probes' GB/s judged by core/perf against the recorded 2x H200 snapshot (tests/fixtures/bandwidth): the
// figures `probe` measured on that machine (tests/fixtures/bandwidth/h200x2-20261127/bandwidth.txt, "healthy probe
// grid") get their expected value, ratio, verdict and rule, through `probe --json`'s document and back; `inspect
// --json`'s link expectations come from the same model.
#include "core/perf/expectation.h"
#include "core/perf/link_matrix.h"
#include "core/probes/probe_document.h"
#include "core/probes/probe_figures.h"
#include "core/snapshot/snapshot_json.h"

#include <QtTest>

#include <fstream>

using namespace stackscope;

namespace {

Snapshot machine()
{
    std::ifstream in(std::string(STACKSCOPE_TEST_FIXTURES) + "/bandwidth/h200x2-20261127/inspect.json");
    return snapshotFromJson(nlohmann::json::parse(in));
}

ProbeRecord record(const QString& probe, const QString& device, double gbs, nlohmann::json details = nlohmann::json::object())
{
    ProbeRecord r;
    r.outcome.probeId = probe.toStdString();
    r.outcome.device = device.toStdString();
    r.outcome.outcome = ProbeResult::Ok;
    details["gb_per_s"] = gbs;
    r.details = std::move(details);
    return r;
}

} // namespace

class TestProbeFigures : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void judged_data()
    {
        QTest::addColumn<QString>("probe");
        QTest::addColumn<QString>("device");
        QTest::addColumn<double>("gbs");
        QTest::addColumn<int>("peer");     // -1: none in the details
        QTest::addColumn<qint64>("bytes"); // 0: none in the details (a record written before the peer probe said)
        QTest::addColumn<double>("expected");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("rule"); // a piece of the rule
        // The healthy grid on the 2x H200 machine (bandwidth.txt).
        QTest::newRow("copy_h2d GPU 0") << "copy_h2d" << "0" << 53.9 << -1 << qint64(256) * 1048576 << 57.6 << "as_expected" << "DCGM";
        QTest::newRow("copy_d2h GPU 1") << "copy_d2h" << "1" << 54.3 << -1 << qint64(256) * 1048576 << 57.6 << "as_expected" << "0.94 of the expected";
        QTest::newRow("peer_copy 0 -> 1: 64 MiB, not judged") << "peer_copy" << "0" << 298.0 << 1 << qint64(64) * 1048576 << 450.0 << "unknown" << "one copy of 64 MiB";
        QTest::newRow("peer_copy, older record without bytes") << "peer_copy" << "1" << 339.3 << 0 << qint64(0) << 450.0 << "unknown" << "one copy of 64 MiB";
        // The numbers before the copies were warm: a pinned device-to-host copy at 2.7 GB/s is degraded.
        QTest::newRow("copy_d2h 2.7 GB/s: degraded") << "copy_d2h" << "0" << 2.7 << -1 << qint64(256) * 1048576 << 57.6 << "degraded" << "below 0.75";
    }
    void judged()
    {
        QFETCH(QString, probe);
        QFETCH(QString, device);
        QFETCH(double, gbs);
        QFETCH(int, peer);
        QFETCH(qint64, bytes);
        QFETCH(double, expected);
        QFETCH(QString, verdict);
        QFETCH(QString, rule);
        nlohmann::json details = nlohmann::json::object();
        if (peer >= 0)
            details["peer"] = peer;
        if (bytes > 0)
            details["bytes"] = bytes;
        std::vector<ProbeRecord> records {record(probe, device, gbs, details)};
        QCOMPARE(judgeCopyProbes(records, machine()), 1);
        // Through `probe --json`'s document and back, as a report or a script reads it.
        const auto doc = probeRunDocument(records, {{"0", "NVIDIA H200"}, {"1", "NVIDIA H200"}}, {ProbeVariant {}});
        const auto& figure = doc["results"][0]["details"][kProbeFigureKey];
        QCOMPARE(QString::fromStdString(figure["verdict"].get<std::string>()), verdict);
        QVERIFY(std::abs(figure["expected"]["value"].get<double>() - expected) < 0.1);
        QVERIFY(std::abs(figure["ratio"].get<double>() - gbs / figure["expected"]["value"].get<double>()) < 1e-9);
        QVERIFY2(QString::fromStdString(figure["rule"].get<std::string>()).contains(rule), figure["rule"].get<std::string>().c_str());
        QVERIFY(figure["expected"]["sources"].size() >= 1);
        const auto back = probeRecordsFromDocument(doc);
        const auto f = judgedFigure(back.at(0));
        QVERIFY(f);
        QCOMPARE(QString(perf::verdictId(f->verdict)), verdict);
        const auto text = QString::fromStdString(probeFigureText(back[0], *f));
        QVERIFY2(text.contains(QString::fromStdString(perf::valueText(*f))) && text.contains(QString(perf::verdictText(f->verdict))),
                 qPrintable(text));
    }

    // Only a copy probe that ended ok on a GPU has a figure.
    void noFigure_data()
    {
        QTest::addColumn<QString>("probe");
        QTest::addColumn<QString>("device");
        QTest::addColumn<bool>("ok");
        QTest::newRow("the CPU's host copy") << "copy_h2d" << "cpu" << true;
        QTest::newRow("a copy that failed") << "copy_d2h" << "0" << false;
        QTest::newRow("another probe") << "matmul_fp32" << "0" << true;
        QTest::newRow("peer copy without its peer") << "peer_copy" << "0" << true;
    }
    void noFigure()
    {
        QFETCH(QString, probe);
        QFETCH(QString, device);
        QFETCH(bool, ok);
        std::vector<ProbeRecord> records {record(probe, device, 50.0)};
        if (!ok)
            records[0].outcome.outcome = ProbeResult::Error;
        QCOMPARE(judgeCopyProbes(records, machine()), 0);
        QVERIFY(!records[0].details.contains(kProbeFigureKey));
        QVERIFY(!judgedFigure(records[0]));
    }

    // inspect --json: what each link of the recorded machine should carry, from the same model.
    void linkExpectations_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("expected");
        QTest::newRow("host -> GPU 0: PCIe Gen5 x16") << "h2d_pinned GPU 0" << 57.6;
        QTest::newRow("GPU 1 -> host") << "d2h_pinned GPU 1" << 57.6;
        QTest::newRow("GPU 0 -> GPU 1: NVLink 4 x18") << "peer_ce GPU 0 -> GPU 1" << 450.0;
        QTest::newRow("GPU 1 -> GPU 0") << "peer_ce GPU 1 -> GPU 0" << 450.0;
    }
    void linkExpectations()
    {
        QFETCH(QString, key);
        QFETCH(double, expected);
        const auto links = perf::linkExpectations(machine());
        QCOMPARE(links.size(), std::size_t(6));
        const auto it = std::find_if(links.begin(), links.end(), [&](const perf::Figure& f) { return perf::figureKey(f) == key.toStdString(); });
        QVERIFY(it != links.end());
        QVERIFY(it->expected && std::abs(it->expected->value - expected) < 0.1);
        QVERIFY(it->skipped); // not measured: unknown, never "ok"
        QCOMPARE(it->verdict, perf::Verdict::Unknown);
    }
};

QTEST_GUILESS_MAIN(TestProbeFigures)
#include "tst_probe_figures.moc"
