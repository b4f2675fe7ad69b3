// A loaded snapshot (another machine) and probe results measured here are never combined without a
// label: the Probes page says whose results they are, the report and its summary card leave them out.
#include "core/inspect/inspector.h"
#include "core/probes/probe_runner.h"
#include "ui/main_window.h"
#include "ui/probes/probe_grid_model.h"
#include "ui/probes/probes_page.h"
#include "ui/report/report_page.h"
#include "ui/report/summary_card.h"
#include "ui/system/snapshot_banner.h"

#include <QLabel>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {
SnapshotPtr h100()
{
    InspectOptions o;
    o.root = STACKSCOPE_TEST_FIXTURES "/roots/ubuntu2404-h100";
    return std::make_shared<const Snapshot>(inspectMachine(o));
}

ProbeRecord cpuRecord()
{
    ProbeRecord r;
    r.outcome.probeId = "matmul_fp32";
    r.outcome.device = "cpu";
    r.outcome.outcome = ProbeResult::Ok;
    r.seconds = 0.01;
    return r;
}
} // namespace

class TestMachineLabel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loadedSnapshotAndLocalResults()
    {
        MainWindow window;
        window.show();
        window.probesPage()->gridModel()->addRecord(cpuRecord()); // as a run on this machine delivers it
        window.snapshots()->setSnapshot(h100(), QStringLiteral("h100-snapshot.json"));
        QVERIFY(!window.probesPage()->resultsMatchSnapshot());
        auto* label = window.probesPage()->findChild<QLabel*>(QStringLiteral("probesMachine"));
        QVERIFY(label && label->isVisibleTo(window.probesPage()));
        QVERIFY(label->text().contains(QStringLiteral("from this machine")));
        // The System page's own line for the machine it shows, then whose the findings and the results are.
        QVERIFY2(label->text().startsWith(notThisMachineText(*window.snapshots()->snapshot(), QStringLiteral("h100-snapshot.json"))),
                 qPrintable(label->text()));
        QVERIFY(label->text().contains(QStringLiteral("The findings are that machine's")));

        const ReportRequest request = window.reportPage()->request();
        QVERIFY(request.probes.empty());
        const auto document = ReportExporter::buildDocument(request);
        const SummaryCardData card = summaryCardData(report::reportSummary(document));
        QVERIFY(!card.probesRun);
        // The card says why (it said "not run in this session" after a run on this machine).
        QVERIFY2(card.probesNote.contains(QStringLiteral("run on this machine")), qPrintable(card.probesNote));
        QVERIFY(!card.probesNote.contains(QStringLiteral("not run in this session")));
        QCOMPARE(int(card.gpus.size()), 1);
        QVERIFY(card.gpus[0].name.contains(QStringLiteral("H100")));
        QVERIFY(!card.gpus[0].arch.contains(QLatin1Char('?')));
    }

    void thisMachineKeepsResults()
    {
        MainWindow window;
        Snapshot here; // an inspection of this machine: no origin, no recorded root
        window.snapshots()->setSnapshot(std::make_shared<const Snapshot>(here), QString());
        window.probesPage()->gridModel()->addRecord(cpuRecord());
        QVERIFY(window.probesPage()->resultsMatchSnapshot());
        QCOMPARE(int(window.reportPage()->request().probes.size()), 1);
    }
};

QTEST_MAIN(TestMachineLabel)
#include "tst_machine_label.moc"
