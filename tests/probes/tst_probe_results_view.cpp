// The Probes page's results view: the text under the grid for a cell, the fixes offered for a finding ("Try this
// fix" only where one can be tried and no run goes on), the columns of unchecked environments hidden.
#include "ui/probes/probe_results_view.h"

#include "tests/probes/probe_test_records.h"
#include "ui/models/findings_model.h"
#include "ui/probes/probe_grid_model.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;
using stackscope::test::findingWithFix;
using stackscope::test::probeRecord;

namespace {

QTableView* viewOf(ProbeResultsView& view, QAbstractItemModel* model)
{
    for (auto* t : view.findChildren<QTableView*>())
        if (t->model() == model)
            return t;
    return nullptr;
}

QPushButton* tryFixButton(ProbeResultsView& view)
{
    for (auto* b : view.findChildren<QPushButton*>())
        if (b->text() == QLatin1String("Try this fix"))
            return b;
    return nullptr;
}

} // namespace

class TestProbeResultsView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cellText_data()
    {
        QTest::addColumn<ProbeRecord>("record");
        QTest::addColumn<QString>("expected");
        ProbeRecord ok = probeRecord("zeros", "cpu", ProbeResult::Ok);
        QTest::newRow("ok") << ok << QStringLiteral("zeros on cpu (baseline): ok in 0.500 s\nzeros message");
        ProbeRecord wrong = probeRecord("matmul_fp16", "0", ProbeResult::Wrong, "HSA_X=1");
        wrong.maxError = 0.5;
        wrong.tolerance = 0.01;
        wrong.errorRatio = 50;
        QTest::newRow("wrong, against its bound")
            << wrong
            << QStringLiteral("matmul_fp16 on 0 (HSA_X=1): wrong in 0.500 s\nmatmul_fp16 message\n"
                              "worst element off by 0.5, error model allows 0.01 (50 of the bound)");
        wrong.errorRatio.reset();
        QTest::newRow("ratio unknown") << wrong
                                       << QStringLiteral("matmul_fp16 on 0 (HSA_X=1): wrong in 0.500 s\nmatmul_fp16 message\n"
                                                         "worst element off by 0.5, error model allows 0.01 (? of the bound)");
        ProbeRecord crash = probeRecord("randn", "1", ProbeResult::Crash);
        crash.outcome.capturedStderr = "Memory access fault by GPU node-1";
        QTest::newRow("crash with stderr")
            << crash << QStringLiteral("randn on 1 (baseline): crash in 0.500 s\nrandn message\n\nstderr:\nMemory access fault by GPU node-1");
    }
    void cellText()
    {
        QFETCH(ProbeRecord, record);
        QFETCH(QString, expected);
        QCOMPARE(probeCellText(record), expected);
    }

    // An empty grid says how to fill it; the hint goes with the first result and comes back when the grid empties
    // (walkthrough 2026-11-27 third, problem 10: only a "Probe" header).
    void emptyGridHint()
    {
        ProbeGridModel grid;
        FindingsModel findings;
        ProbeResultsView view(&grid, &findings);
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* hint = view.findChild<QLabel*>(QStringLiteral("probeGridHint"));
        QVERIFY(hint);
        QVERIFY(hint->isVisible());
        QVERIFY(hint->text().contains(QStringLiteral("Run all probes")));
        QVERIFY(hint->width() <= viewOf(view, &grid)->viewport()->width());
        grid.addRecord(probeRecord("zeros", "cpu", ProbeResult::Ok));
        QVERIFY(!hint->isVisible());
        grid.clear();
        QVERIFY(hint->isVisible());
    }

    void fixesOffered_data()
    {
        QTest::addColumn<bool>("diagnosticFirst");
        QTest::addColumn<int>("applies"); // -1 unknown, 0 no, 1 yes
        QTest::addColumn<bool>("running");
        QTest::addColumn<int>("offered");
        QTest::addColumn<int>("fixIndex"); // the finding's fix the first entry stands for
        QTest::addColumn<bool>("canTry");
        QTest::newRow("an env fix") << false << -1 << false << 1 << 0 << true;
        QTest::newRow("after a diagnostic step") << true << 1 << false << 1 << 1 << true;
        QTest::newRow("not for these GPUs") << false << 0 << false << 0 << 0 << false;
        QTest::newRow("while a run goes on") << false << 1 << true << 1 << 0 << false;
    }
    void fixesOffered()
    {
        QFETCH(bool, diagnosticFirst);
        QFETCH(int, applies);
        QFETCH(bool, running);
        QFETCH(int, offered);
        QFETCH(int, fixIndex);
        QFETCH(bool, canTry);
        ProbeGridModel grid;
        FindingsModel findings;
        ProbeResultsView view(&grid, &findings);
        findings.setFindings({findingWithFix(diagnosticFirst, applies < 0 ? std::nullopt : std::optional<bool>(applies == 1))});
        view.setRunning(running);
        QVERIFY(!view.currentFinding());
        QVERIFY(!tryFixButton(view)->isEnabled()); // nothing selected
        viewOf(view, &findings)->selectRow(0);
        QVERIFY(view.currentFinding());
        auto* fixes = view.findChild<QComboBox*>();
        QCOMPARE(fixes->count(), offered);
        if (offered > 0) {
            QCOMPARE(view.currentFixIndex(), fixIndex);
            QVERIFY2(fixes->itemText(0).startsWith(QStringLiteral("TORCH_BLAS_PREFER_HIPBLASLT=0  [")),
                     qPrintable(fixes->itemText(0)));
        }
        QCOMPARE(tryFixButton(view)->isEnabled(), canTry);
        QSignalSpy clicked(&view, &ProbeResultsView::tryFixClicked);
        tryFixButton(view)->click();
        QCOMPARE(clicked.size(), canTry ? 1 : 0);
        // The finding's id and severity head its text.
        bool headed = false;
        for (auto* label : view.findChildren<QLabel*>())
            headed = headed || label->text().startsWith(QStringLiteral("HIPBLASLT_UNSUPPORTED \u00b7 error"));
        QVERIFY(headed);
    }

    void environmentsHidden_data()
    {
        QTest::addColumn<QStringList>("checked");
        QTest::addColumn<bool>("hide");
        QTest::addColumn<QList<bool>>("hidden"); // per cell column: libtorch cpu, python cpu
        QTest::newRow("both checked") << QStringList {"libtorch", "python:/usr/bin/python3"} << true
                                      << QList<bool> {false, false};
        QTest::newRow("python unchecked") << QStringList {"libtorch"} << true << QList<bool> {false, true};
        QTest::newRow("a report's columns stay") << QStringList {"libtorch"} << false << QList<bool> {false, false};
        QTest::newRow("none checked") << QStringList {} << true << QList<bool> {true, true};
    }
    void environmentsHidden()
    {
        QFETCH(QStringList, checked);
        QFETCH(bool, hide);
        QFETCH(QList<bool>, hidden);
        ProbeGridModel grid;
        FindingsModel findings;
        ProbeResultsView view(&grid, &findings);
        grid.setEnvironmentOrder({"libtorch", "python:/usr/bin/python3"});
        grid.addRecord(probeRecord("zeros", "cpu", ProbeResult::Ok));
        grid.addRecord(probeRecord("zeros", "cpu", ProbeResult::Ok, "baseline", "python:/usr/bin/python3"));
        QCOMPARE(grid.cellColumns().size(), std::size_t(2));
        view.showEnvironments(checked, hide);
        auto* table = viewOf(view, &grid);
        QCOMPARE(table->isColumnHidden(ProbeGridModel::NUM_COLUMNS), hidden.at(0));
        QCOMPARE(table->isColumnHidden(ProbeGridModel::NUM_COLUMNS + 1), hidden.at(1));
        QVERIFY(!table->isColumnHidden(ProbeGridModel::ProbeColumn));
    }
};

QTEST_MAIN(TestProbeResultsView)
#include "tst_probe_results_view.moc"
