// What the Probes page starts (ui/probes/probe_run_plan.h): a run per checked environment with the form's timeout,
// the variants, and "Try this fix" on the baseline's failing cells in the environments they failed in.
#include "ui/probes/probe_run_plan.h"

#include "core/diagnosis/diagnosis.h"
#include "core/probes/probe_variants.h"
#include "core/snapshot/snapshot.h"
#include "tests/probes/probe_test_records.h"

#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;
using stackscope::test::findingWithFix;
using stackscope::test::probeRecord;

namespace {

// "libtorch" for StackScope's libtorch, else the interpreter: one word per run, in order.
QStringList pythons(const std::vector<ProbeRunOptions>& runs)
{
    QStringList out;
    for (const auto& r : runs)
        out << (r.python.empty() ? QStringLiteral("libtorch") : QString::fromStdString(r.python));
    return out;
}

QStringList joined(const std::vector<std::string>& items)
{
    QStringList out;
    for (const auto& i : items)
        out << QString::fromStdString(i);
    return out;
}

} // namespace

class TestProbeRunPlan : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void environmentRuns_data()
    {
        QTest::addColumn<QStringList>("environments");
        QTest::addColumn<double>("timeout");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<long long>("timeoutMs");
        QTest::newRow("libtorch") << QStringList {"libtorch"} << 30.0 << QStringList {"libtorch"} << 30000LL;
        QTest::newRow("libtorch and a venv")
            << QStringList {"libtorch", "python:/home/u/.venv/bin/python3"} << 2.5
            << QStringList {"libtorch", "/home/u/.venv/bin/python3"} << 2500LL;
        QTest::newRow("python first, order kept")
            << QStringList {"python:/usr/bin/python3", "libtorch"} << 600.0 << QStringList {"/usr/bin/python3", "libtorch"}
            << 600000LL;
        QTest::newRow("none checked") << QStringList {} << 30.0 << QStringList {} << 0LL;
    }
    void environmentRuns()
    {
        QFETCH(QStringList, environments);
        QFETCH(double, timeout);
        QFETCH(QStringList, expected);
        QFETCH(long long, timeoutMs);
        const auto runs = ui::environmentRuns(environments, timeout);
        QCOMPARE(pythons(runs), expected);
        for (const auto& r : runs) {
            QCOMPARE(static_cast<long long>(r.timeout.count()), timeoutMs);
            QVERIFY(r.variants.empty());
            QVERIFY(r.devices.empty()); // every device the worker lists
            QVERIFY(r.probeIds.empty()); // the whole catalogue
        }
    }

    void gridVariants_data()
    {
        QTest::addColumn<bool>("ruleVariants");
        QTest::addColumn<bool>("inspected");
        QTest::newRow("baseline only") << false << true;
        QTest::newRow("rules asked, no inspection") << true << false;
        QTest::newRow("rules asked, inspected") << true << true;
        QTest::newRow("rules not asked, not inspected") << false << false;
    }
    void gridVariants()
    {
        QFETCH(bool, ruleVariants);
        QFETCH(bool, inspected);
        Snapshot snapshot;
        GpuInfo gpu;
        gpu.vendor = "amd";
        gpu.arch = "gfx1201";
        snapshot.gpus.push_back(gpu);
        const auto candidates = candidateVariants(snapshot, DiagnosisRules::builtIn());
        QVERIFY2(!candidates.empty(), "the rules propose no variant for gfx1201: the rows below would say nothing");
        QStringList expected {QStringLiteral("baseline")};
        if (ruleVariants && inspected) {
            for (const auto& v : candidates)
                expected << QString::fromStdString(v.name);
        }
        QStringList names;
        for (const auto& v : ui::gridVariants(ruleVariants, inspected ? &snapshot : nullptr))
            names << QString::fromStdString(v.name);
        QCOMPARE(names, expected);
    }

    void fixTrial_data()
    {
        QTest::addColumn<std::vector<ProbeRecord>>("records");
        QTest::addColumn<int>("fixIndex");
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("failingProbes");
        QTest::addColumn<QStringList>("runs");    // the interpreter of each run, "libtorch" for StackScope's
        QTest::addColumn<QStringList>("devices"); // the first run's
        QTest::addColumn<QStringList>("probes");  // the first run's
        const QString hipblaslt = QStringLiteral("TORCH_BLAS_PREFER_HIPBLASLT=0");
        QTest::newRow("nothing failed")
            << std::vector<ProbeRecord> {probeRecord("matmul_fp16", "0", ProbeResult::Ok),
                                         probeRecord("zeros", "cpu", ProbeResult::Unsupported)}
            << 0 << hipblaslt << 0 << QStringList {} << QStringList {} << QStringList {};
        QTest::newRow("failures on two GPUs, a variant's failure left out")
            << std::vector<ProbeRecord> {probeRecord("matmul_fp16", "0", ProbeResult::Error),
                                         probeRecord("matmul_fp16", "1", ProbeResult::Crash),
                                         probeRecord("matmul_bf16", "0", ProbeResult::Ok),
                                         probeRecord("matmul_bf16", "1", ProbeResult::Wrong, "HSA_X=1")}
            << 0 << hipblaslt << 1 << QStringList {"libtorch"} << QStringList {"0", "1"} << QStringList {"matmul_fp16"};
        QTest::newRow("each environment its own run")
            << std::vector<ProbeRecord> {probeRecord("randn", "0", ProbeResult::Hang, "baseline", "python:/opt/venv/bin/python"),
                                         probeRecord("zeros", "cpu", ProbeResult::Error)}
            << 0 << hipblaslt << 2 << QStringList {"libtorch", "/opt/venv/bin/python"} << QStringList {"cpu"}
            << QStringList {"zeros"};
        QTest::newRow("no such fix")
            << std::vector<ProbeRecord> {probeRecord("zeros", "cpu", ProbeResult::Error)} << 3 << QString() << 0
            << QStringList {} << QStringList {} << QStringList {};
        QTest::newRow("no fix chosen")
            << std::vector<ProbeRecord> {probeRecord("zeros", "cpu", ProbeResult::Error)} << -1 << QString() << 0
            << QStringList {} << QStringList {} << QStringList {};
    }
    void fixTrial()
    {
        QFETCH(std::vector<ProbeRecord>, records);
        QFETCH(int, fixIndex);
        QFETCH(QString, variant);
        QFETCH(int, failingProbes);
        QFETCH(QStringList, runs);
        QFETCH(QStringList, devices);
        QFETCH(QStringList, probes);
        const Finding finding = findingWithFix();
        const auto trial = ui::fixTrial(records, finding, fixIndex, 12);
        QCOMPARE(trial.variant, variant);
        QCOMPARE(static_cast<int>(trial.failingProbes), failingProbes);
        QCOMPARE(pythons(trial.runs), runs);
        if (trial.runs.empty())
            return;
        QCOMPARE(joined(trial.runs.front().devices), devices);
        QCOMPARE(joined(trial.runs.front().probeIds), probes);
        for (const auto& r : trial.runs) {
            QCOMPARE(static_cast<long long>(r.timeout.count()), 12000LL);
            QCOMPARE(r.variants.size(), std::size_t(1)); // the fix alone: the baseline failed already
            QCOMPARE(QString::fromStdString(r.variants.front().name), variant);
            QCOMPARE(r.variants.front().ruleIds, std::vector<std::string> {finding.id});
            QCOMPARE(r.variants.front().env, finding.fixes.front().env);
        }
    }
};

QTEST_MAIN(TestProbeRunPlan)
#include "tst_probe_run_plan.moc"
