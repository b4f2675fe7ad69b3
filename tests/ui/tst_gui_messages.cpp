// What the GUI says: CLI flags worded as the GUI's controls, one line with the rest behind Details,
// probe cells that say why they have no result, plurals, and the dialogs' errors (open a non-report,
// Compare after an error, Export's start folder).
#include "core/probes/probe_runner.h"
#include "ui/main_window.h"
#include "ui/probes/probe_grid_model.h"
#include "ui/probes/probes_page.h"
#include "ui/report/compare_dialog.h"
#include "ui/report/diff_model.h"
#include "ui/report/report_page.h"
#include "ui/report/report_replay.h"
#include "tests/common/open_report.h"
#include "ui/widgets/gui_message.h"

#include <QAbstractItemModelTester>
#include <QPlainTextEdit>
#include <QTableView>
#include <QSignalSpy>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {
QString cellText(const ProbeGridModel& m, const char* probe, const char* device, int role = Qt::DisplayRole)
{
    for (int r = 0; r < m.rowCount(); ++r) {
        if (m.index(r, 0).data(ProbeGridModel::ProbeIdRole).toString() != QLatin1String(probe))
            continue;
        for (int c = ProbeGridModel::NUM_COLUMNS; c < m.columnCount(); ++c) {
            if (m.index(r, c).data(ProbeGridModel::DeviceRole).toString() == QLatin1String(device))
                return m.index(r, c).data(role).toString();
        }
    }
    return QStringLiteral("<no cell>");
}
} // namespace

class TestGuiMessages : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void wording_data()
    {
        QTest::addColumn<QString>("core");
        QTest::addColumn<QString>("gui");
        QTest::newRow("backend") << "no usable GPU module; use --backend cpu" << "no usable GPU module; use Backend: cpu";
        QTest::newRow("format") << "trades need price and size, or pass --format" << "trades need price and size, or pass the Format option";
        QTest::newRow("timeout") << "raise it with --timeout" << "raise it with the Timeout box";
        QTest::newRow("va-method not va") << "--va-method single" << "the VA method option single";
        QTest::newRow("no flag") << "file.csv:3:7: bad price" << "file.csv:3:7: bad price";
        // core/vpoc's tick message: not "pass the right the Tick option".
        QTest::newRow("after 'the right'") << "low 4999.75 is not on the tick grid of 0.5; pass the right --tick or fix the price"
                                           << "low 4999.75 is not on the tick grid of 0.5; pass the right Tick option or fix the price";
        QTest::newRow("after 'the'") << "set the --va to 70" << "set the Value area option to 70";
    }
    void wording()
    {
        QFETCH(QString, core);
        QFETCH(QString, gui);
        QCOMPARE(guiWording(core), gui);
    }

    void oneLinePlusDetails()
    {
        const QString paths = QStringLiteral("/usr/lib/x86_64-linux-gnu/libcuda.so.1: cannot open shared object file; ").repeated(4);
        const GuiMessage m = guiMessage(QStringLiteral("No GPU, so the CPU was used. ") + paths + QStringLiteral("\nCUDA driver version is insufficient"));
        QCOMPARE(m.line, QStringLiteral("No GPU, so the CPU was used."));
        QVERIFY(m.details.contains(QStringLiteral("CUDA driver version is insufficient")));
        const GuiMessage shortOne = guiMessage(QStringLiteral("Cannot read x.csv."));
        QCOMPARE(shortOne.line, QStringLiteral("Cannot read x.csv."));
        QVERIFY(shortOne.details.isEmpty());
    }

    // After "Done", a cell without a result says why: not the pending mark and "not run yet".
    void probeCellsAfterDone()
    {
        ProbeGridModel m;
        QAbstractItemModelTester tester(&m);
        m.setLayout({{"baseline", "cpu"}, {"baseline", "0"}});
        QCOMPARE(cellText(m, "peer_copy", "0"), QStringLiteral("\u2026")); // still running
        ProbeRecord hang;
        hang.outcome.probeId = "alloc_empty_1gib";
        hang.outcome.device = "cpu";
        hang.outcome.outcome = ProbeResult::Hang;
        hang.seconds = 1.02;
        m.setTimeoutSeconds(1);
        m.addRecord(hang);
        m.setFinished(true);
        QCOMPARE(cellText(m, "peer_copy", "0"), QStringLiteral("needs 2 GPUs"));
        QCOMPARE(cellText(m, "all_reduce", "0"), QStringLiteral("not run")); // c10d: one GPU is a world too
        QCOMPARE(cellText(m, "stackscope_kernel", "cpu"), QStringLiteral("no GPU"));
        QCOMPARE(cellText(m, "alloc_empty_1gib", "cpu"), QStringLiteral("timed out after 1 s"));
        QCOMPARE(cellText(m, "matmul_fp16", "0"), QStringLiteral("not run"));
        // The page runs the libtorch module: a Python-only probe was never started (it said "not run", and
        // behind it "the run ended before this probe (cancelled or stopped)", after a run that was not).
        QCOMPARE(cellText(m, "torch_compile_fn", "cpu"), QStringLiteral("Python only"));
        QVERIFY(cellText(m, "torch_compile_fn", "cpu", ProbeGridModel::MessageRole).contains(QStringLiteral("--python")));
    }

    // A click on a cell without a result says why below the grid (it kept "Select a cell to see its message").
    void emptyCellClickSaysWhy()
    {
        MainWindow window;
        auto* page = window.probesPage();
        page->gridModel()->setLayout({{"baseline", "cpu"}});
        page->gridModel()->setFinished(true);
        QTableView* grid = nullptr;
        for (auto* view : page->findChildren<QTableView*>())
            grid = view->model() == page->gridModel() ? view : grid;
        QVERIFY(grid);
        int row = -1;
        for (int r = 0; r < page->gridModel()->rowCount(); ++r)
            row = page->gridModel()->index(r, 0).data(ProbeGridModel::ProbeIdRole).toString() == QLatin1String("torch_compile_fn") ? r : row;
        QVERIFY(row >= 0);
        grid->setCurrentIndex(page->gridModel()->index(row, ProbeGridModel::NUM_COLUMNS));
        QString shown;
        for (auto* text : page->findChildren<QPlainTextEdit*>())
            shown += text->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("Python environment")), qPrintable(shown));
    }

    // A text file given to Open report: one line saying what to open, the loader's text behind Details.
    void openNonReport()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("notes.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("these are my notes, not JSON\n");
        f.close();
        MainWindow window;
        QSignalSpy errors(window.replay(), &ReportReplay::errorOccurred);
        QVERIFY(!stackscope::test::openReportAndWait(window.replay(), path));
        QCOMPARE(errors.size(), 1);
        const GuiMessage m = guiMessage(errors.at(0).at(0).toString());
        QCOMPARE(m.line, QStringLiteral("notes.json is not a StackScope report or snapshot: open a report.json, its folder or its .zip."));
        QVERIFY(!m.line.contains(QStringLiteral("json.exception")));
        QVERIFY(m.details.contains(QStringLiteral("not valid JSON")));
        QCOMPARE(m.details.count(QStringLiteral("json.exception")), 1); // the parser's words once, not twice
    }

    void compareHeaderResetAfterError()
    {
        const QString good = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/report/planted_snapshot.json");
        CompareDialog dialog;
        QSignalSpy done(&dialog, &CompareDialog::compared); // both sides load in the background
        dialog.setFiles(good, good);
        QVERIFY(done.wait(30000));
        QVERIFY(dialog.model()->headerData(DiffModel::AColumn, Qt::Horizontal).toString().contains(QStringLiteral("planted")));
        dialog.setFiles(good, QStringLiteral("/nonexistent/b.json"));
        QVERIFY(done.wait(30000));
        QCOMPARE(dialog.model()->headerData(DiffModel::AColumn, Qt::Horizontal).toString(), QStringLiteral("A"));
        QCOMPARE(dialog.model()->headerData(DiffModel::BColumn, Qt::Horizontal).toString(), QStringLiteral("B"));
    }

    void exportStartsInAFolderThatExists()
    {
        const QString home = QDir::homePath();
        QTemporaryDir fakeHome; // a fresh account: no Documents folder
        qputenv("HOME", fakeHome.path().toUtf8());
        const QString start = ReportPage::exportStartFolder();
        qputenv("HOME", home.toUtf8());
        QVERIFY2(QFileInfo(start).isDir(), qPrintable(start));
    }
};

QTEST_MAIN(TestGuiMessages)
#include "tst_gui_messages.moc"
