// The topology view's content (core/perf/link_matrix.h) and how a recorded run is judged beside a snapshot
// (core/perf/recorded_run.h), on the runs recorded on 2x H200 (tests/fixtures/bandwidth/h200x2-20261127).
#include "core/perf/link_matrix.h"
#include "core/perf/perf_json.h"
#include "core/perf/recorded_run.h"
#include "core/perf/suite_run.h"
#include "core/snapshot/snapshot_json.h"
#include "tests/common/bandwidth_fixture.h"

#include <QtTest>

#include <fstream>
#include <set>

using namespace stackscope;
using namespace stackscope::perf;

namespace {

Snapshot machine()
{
    return test::bandwidthMachine();
}

SuiteRun recorded(const QString& file)
{
    return suiteRunFromJson(test::bandwidthFixture(file.toStdString()));
}

// The cell of `from` -> `to` ("host" or a GPU index as text).
const LinkCell& cellOf(const LinkMatrix& m, const QString& from, const QString& to)
{
    auto slot = [&m](const QString& node) {
        if (node == QLatin1String("host"))
            return m.hostIndex();
        return int(std::find(m.gpus.begin(), m.gpus.end(), node.toInt()) - m.gpus.begin());
    };
    return m.at(slot(from), slot(to));
}

QStringList lines(const LinkCell& c)
{
    QStringList out;
    for (const auto& f : c.figures)
        out << QString::fromStdString(cellLine(f));
    return out;
}

} // namespace

class TestLinkMatrix : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Each cell of the matrix, judged again against the machine's snapshot: what it holds and its verdict.
    void cells_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<QString>("verdict");
        const QString healthy = QStringLiteral("bw-healthy.json"), noP2p = QStringLiteral("bw-p2p-disabled.json");
        const QStringList peer {QStringLiteral("copy engine"), QStringLiteral("kernel"), QStringLiteral("both ways")};
        QTest::newRow("healthy GPU 0 -> GPU 1") << healthy << "0" << "1" << peer << "as_expected";
        QTest::newRow("healthy GPU 1 -> GPU 0") << healthy << "1" << "0" << peer << "as_expected";
        QTest::newRow("healthy GPU 0 device copy") << healthy << "0" << "0" << QStringList {"device copy"} << "as_expected";
        QTest::newRow("healthy GPU 1 device copy") << healthy << "1" << "1" << QStringList {"device copy"} << "as_expected";
        QTest::newRow("healthy GPU 0 -> host") << healthy << "0" << "host" << QStringList {"pinned"} << "as_expected";
        QTest::newRow("healthy host -> GPU 1") << healthy << "host" << "1" << QStringList {"pinned"} << "as_expected";
        QTest::newRow("healthy host memcpy: a reference") << healthy << "host" << "host" << QStringList {"memcpy"} << "unknown";
        QTest::newRow("P2P off: copies still fine") << noP2p << "0" << "1" << QStringList {"copy engine", "kernel"} << "as_expected";
        QTest::newRow("P2P off: no device copy measured") << noP2p << "0" << "0" << QStringList {} << "unknown";
    }
    void cells()
    {
        QFETCH(QString, file);
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QStringList, labels);
        QFETCH(QString, verdict);
        const auto s = machine();
        const auto judged = judgeRecordedRun(recorded(file), &s, "the snapshot");
        QVERIFY2(judged.rejudged, judged.note.c_str());
        const auto m = linkMatrix(judged.run.figures);
        QCOMPARE(m.gpus, (std::vector<int> {0, 1}));
        QCOMPARE(m.size(), 3);
        const auto& c = cellOf(m, from, to);
        QStringList got;
        for (const auto& f : c.figures)
            got << QString::fromStdString(cellLabel(f));
        QCOMPARE(got, labels);
        QCOMPARE(QString(verdictId(c.verdict)), verdict);
        for (const auto& line : lines(c)) // value, expected and ratio on each line, with its marker
            QVERIFY2(line.startsWith(QString::fromUtf8(verdictMarker(verdictFromId(verdict.toStdString()).value()))) ||
                         c.verdict == Verdict::Unknown,
                     qPrintable(line));
    }

    // Collectives come first beside the matrix: as expected on the healthy machine, degraded with P2P off.
    void collectives_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("expected"); // "test verdict" of the first figures beside the matrix
        QTest::newRow("healthy") << "bw-healthy.json"
                                 << QStringList {"all_reduce as_expected", "all_gather as_expected", "reduce_scatter as_expected"};
        QTest::newRow("NCCL_P2P_DISABLE=1") << "bw-p2p-disabled.json"
                                            << QStringList {"all_reduce degraded", "all_gather degraded", "reduce_scatter degraded"};
    }
    void collectives()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, expected);
        const auto s = machine();
        const auto m = linkMatrix(judgeRecordedRun(recorded(file), &s, "the snapshot").run.figures);
        QStringList got;
        for (const auto& f : m.others)
            if (isCollective(f.test))
                got << QStringLiteral("%1 %2").arg(info(f.test).id, verdictId(f.verdict));
        QCOMPARE(got, expected);
        QVERIFY(isCollective(m.others.front().test));
    }

    // The healthy run: every link cell as expected, every figure shown somewhere.
    void healthyLinksAllAsExpected()
    {
        const auto s = machine();
        const auto run = judgeRecordedRun(recorded("bw-healthy.json"), &s, "the snapshot").run;
        const auto m = linkMatrix(run.figures);
        std::set<std::string> shown;
        for (const auto& f : m.others)
            shown.insert(figureKey(f));
        for (int r = 0; r < m.size(); ++r)
            for (int c = 0; c < m.size(); ++c) {
                const auto& cell = m.at(r, c);
                for (const auto& f : cell.figures)
                    shown.insert(figureKey(f));
                if (r == m.hostIndex() && c == m.hostIndex())
                    continue;
                QVERIFY2(cell.verdict == Verdict::AsExpected, qPrintable(lines(cell).join(QLatin1Char('\n'))));
            }
        QCOMPARE(shown.size(), run.figures.size());
    }

    void texts_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("line");
        QTest::newRow("peer copy engine") << "peer_ce GPU 0 -> GPU 1" << QString::fromUtf8("\u2713 copy engine 393.4 of 450.0 GB/s \u00b7 0.87");
        QTest::newRow("h2d") << "h2d_pinned GPU 0" << QString::fromUtf8("\u2713 pinned 55.2 of 57.6 GB/s \u00b7 0.96");
        QTest::newRow("reference") << "host_memcpy host" << QStringLiteral("? memcpy 9.9 GB/s, a reference");
        QTest::newRow("not judged") << "h2d_pageable GPU 0" << QStringLiteral("? h2d_pageable 7.8 GB/s, no expected value");
    }
    void texts()
    {
        QFETCH(QString, key);
        QFETCH(QString, line);
        const auto s = machine();
        const auto run = judgeRecordedRun(recorded("bw-healthy.json"), &s, "the snapshot").run;
        const auto it = std::find_if(run.figures.begin(), run.figures.end(),
                                     [&](const Figure& f) { return figureKey(f) == key.toStdString(); });
        QVERIFY(it != run.figures.end());
        QCOMPARE(QString::fromStdString(cellLine(*it)), line);
        const auto details = QString::fromStdString(figureDetails(*it));
        QVERIFY2(details.contains(QStringLiteral("verdict: ")), qPrintable(details));
        if (it->expected)
            QVERIFY2(details.contains(QStringLiteral("https://")), qPrintable(details)); // its sources
    }

    void ruleNamesItsSource()
    {
        const auto rule = QString::fromStdString(verdictRuleText());
        QVERIFY(rule.contains(QStringLiteral("0.75")));
        QVERIFY(rule.contains(QStringLiteral("https://github.com/NVIDIA/DCGM")));
    }

    // Judged again only beside its own machine; otherwise the recorded verdicts stay and the note says why.
    void judgedOnlyBesideItsMachine_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<bool>("rejudged");
        QTest::addColumn<QString>("note");
        QTest::newRow("its machine") << "" << true << "judged against";
        QTest::newRow("no GPU here") << "nogpu" << false << "lists 0 GPUs";
        QTest::newRow("another GPU model") << "name" << false << "was 'NVIDIA H200'";
        QTest::newRow("another host") << "host" << false << "host 'vm'";
        QTest::newRow("no snapshot") << "null" << false << "no snapshot";
        // Recorded before runs named their machine: taken to be the snapshot's, and said so.
        QTest::newRow("a run that does not name its machine") << "unnamed" << true << "does not name its machine";
    }
    void judgedOnlyBesideItsMachine()
    {
        QFETCH(QString, change);
        QFETCH(bool, rejudged);
        QFETCH(QString, note);
        auto s = machine();
        auto run = recorded("bw-healthy.json");
        run.host = "vm";
        run.gpuNames = {"NVIDIA H200", "NVIDIA H200"};
        if (change == QLatin1String("nogpu"))
            s.gpus.clear();
        else if (change == QLatin1String("name"))
            s.gpus[1].name = "NVIDIA A100-SXM4-80GB";
        else if (change == QLatin1String("host"))
            s.host.hostname = "other";
        else if (change == QLatin1String("unnamed")) {
            run.host.clear();
            run.gpuNames.clear();
        }
        const auto recordedVerdict = run.figures.back().verdict; // reduce_scatter: degraded by the recording's model
        const auto judged = judgeRecordedRun(run, change == QLatin1String("null") ? nullptr : &s, "the snapshot shown");
        QCOMPARE(judged.rejudged, rejudged);
        QVERIFY2(QString::fromStdString(judged.note).contains(note), judged.note.c_str());
        QCOMPARE(judged.run.figures.back().verdict, rejudged ? Verdict::AsExpected : recordedVerdict);
    }

    // The machine a run was measured on goes through the JSON both ways; runs recorded before have none.
    void machineRoundTrip()
    {
        auto run = recorded("bw-healthy.json");
        QVERIFY(run.host.empty() && run.gpuNames.empty());
        run.host = "node7";
        run.gpuNames = {"NVIDIA H200", "NVIDIA H200"};
        const auto back = suiteRunFromJson(toJson(run));
        QCOMPARE(back.host, std::string("node7"));
        QCOMPARE(back.gpuNames, run.gpuNames);
        QCOMPARE(back.figures.size(), run.figures.size());
        auto bad = toJson(run);
        bad["machine"] = "node7";
        QVERIFY_THROWS_EXCEPTION(PerfJsonError, suiteRunFromJson(bad));
    }
};

QTEST_GUILESS_MAIN(TestLinkMatrix)
#include "tst_link_matrix.moc"
