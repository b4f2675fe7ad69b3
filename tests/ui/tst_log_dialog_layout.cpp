// The paste-a-log dialog (issue 35 item 8): the findings list gets the width at 1024x640 and 1920x1080, titles cut in
// the middle with the whole title in the tooltip; the facts the text states are shown; and the findings are the ones
// `stackscope-cli diagnose --log FILE --json` gives for the same machine (the one diagnosis, diagnoseMachine).
#include "tests/common/cli_process.h"
#include "ui/main_window.h"
#include "ui/models/findings_model.h"
#include "ui/probes/log_diagnosis_dialog.h"
#include "tests/common/findings_rows.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

const QString kFixtures = QStringLiteral(STACKSCOPE_TEST_FIXTURES);

QStringList jsonStrings(const QJsonArray& list, const QString& key = {})
{
    QStringList out;
    for (const auto& v : list)
        out << (key.isEmpty() ? v.toString() : v.toObject().value(key).toString());
    return out;
}

} // namespace

class TestLogDialogLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (qEnvironmentVariableIsEmpty("STACKSCOPE_CLI"))
            QSKIP("STACKSCOPE_CLI is not set (run through ctest)");
    }

    // Before a text is given the facts line does not claim the text names nothing (walkthrough 2026-11-27 problem
    // 10); a diagnosed text that names nothing says so.
    void factsLineBeforeAndAfter_data()
    {
        QTest::addColumn<QString>("text"); // empty: nothing diagnosed yet
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QSize>("size"); // the window the dialog opens from
        for (const QSize size : {QSize(1024, 640), QSize(1920, 1080)}) {
            const QString at = QStringLiteral(" %1x%2").arg(size.width()).arg(size.height());
            QTest::newRow(qPrintable(QStringLiteral("nothing pasted") + at)) << QString() << QString() << size;
            QTest::newRow(qPrintable(QStringLiteral("a text naming nothing") + at))
                << "hello world" << "none StackScope reads as this machine's" << size;
            // A description with no message: the guess from its words is shown (and looked at) like any finding.
            QTest::newRow(qPrintable(QStringLiteral("a description only") + at))
                << "pytorch dataloader raise bus error: out of shared memory, in kubernetes container"
                << "none StackScope reads as this machine's" << size;
        }
    }
    void factsLineBeforeAndAfter()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QFETCH(QSize, size);
        MainWindow window;
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        LogDiagnosisDialog* dialog = window.openLogDiagnosis();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        if (!text.isEmpty()) {
            QSignalSpy done(dialog, &LogDiagnosisDialog::diagnosed);
            dialog->diagnoseText(text, QStringLiteral("pasted text"));
            QVERIFY(done.wait(30000));
        }
        auto* facts = dialog->findChild<QLabel*>(QStringLiteral("logFacts"));
        QVERIFY(facts);
        // Nothing is said about a text not yet given (the box's placeholder says what to do); once diagnosed, its facts.
        QVERIFY2(expected.isEmpty() ? facts->text().isEmpty() : facts->text().contains(expected), qPrintable(facts->text()));
        QCOMPARE(facts->isVisible(), !text.isEmpty());
        auto* box = dialog->findChild<QPlainTextEdit*>();
        QVERIFY(box && box->placeholderText().contains(QStringLiteral("then press Diagnose")));
        QVERIFY(dialog->facts().isEmpty());
        QTest::qWait(50);
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        QVERIFY(dialog->grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/log-dialog-") +
                                    QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')) +
                                    QStringLiteral(".png")));
    }

    // "not tried" is explained where it is shown: the cell's and the header's tooltip and a legend line under the
    // list (walkthrough 2026-11-27 problem 9).
    void fixColumnExplained_data()
    {
        QTest::addColumn<int>("verified"); // -1 not tried, 0 did not work, 1 verified
        QTest::addColumn<QString>("cell");
        QTest::addColumn<QString>("tip");
        QTest::addColumn<bool>("envFix"); // the fix is an environment change a probe variant can run with
        QTest::newRow("not tried") << -1 << "not tried" << "have not been run again with this fix" << true;
        QTest::newRow("verified") << 1 << "verified here" << "passed when run again" << true;
        QTest::newRow("did not work") << 0 << "did not work here" << "still failed" << true;
        // A slot or a build to install: no probe could try it (walkthrough 2026-11-27 third, problem 4: PCIe lanes).
        QTest::newRow("no probe can") << -1 << "no probe can try this" << "not environment changes" << false;
    }
    void fixColumnExplained()
    {
        QFETCH(int, verified);
        QFETCH(QString, cell);
        QFETCH(QString, tip);
        QFETCH(bool, envFix);
        Finding f;
        f.id = "HIPBLASLT_UNSUPPORTED_ARCH";
        f.title = "hipBLASLt has no kernels for this GPU";
        FixAdvice fix;
        if (envFix)
            fix.env = {{"TORCH_BLAS_PREFER_HIPBLASLT", std::string("0")}};
        f.fixes.push_back(fix);
        if (verified >= 0)
            f.verified = verified == 1;
        FindingsModel model;
        model.setFindings({f});
        const QModelIndex index = model.index(0, FindingsModel::VerifiedColumn);
        QCOMPARE(index.data().toString(), cell);
        QVERIFY2(index.data(Qt::ToolTipRole).toString().contains(tip), qPrintable(index.data(Qt::ToolTipRole).toString()));
        QVERIFY(model.headerData(FindingsModel::VerifiedColumn, Qt::Horizontal, Qt::ToolTipRole).toString()
                    .contains(QStringLiteral("not tried")));
        LogDiagnosisDialog dialog(nullptr);
        auto* legend = dialog.findChild<QLabel*>(QStringLiteral("fixLegend"));
        QVERIFY(legend);
        QVERIFY(legend->text().contains(QStringLiteral("\u201cnot tried\u201d: the failing probes were not run again")));
        QVERIFY(legend->text().contains(QStringLiteral("\u201cno probe can try this\u201d")));
    }

    void sameAsCliAndUsable_data()
    {
        QTest::addColumn<QString>("root"); // empty: no machine shown (the facts the text states stand in)
        QTest::addColumn<QString>("log");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("fact"); // a fact the dialog must list
        const QString igpuReport = kFixtures + QStringLiteral("/reports/01_igpu_rx6600_ryzen3400g/report.txt");
        const QString roots = kFixtures + QStringLiteral("/roots/");
        for (const QSize size : { QSize(1024, 640), QSize(1920, 1080) }) {
            const QString at = QStringLiteral(" %1x%2").arg(size.width()).arg(size.height());
            QTest::newRow(qPrintable(QStringLiteral("iGPU report, no machine") + at))
                << QString() << igpuReport << size << QStringLiteral("gfx1032");
            QTest::newRow(qPrintable(QStringLiteral("iGPU report, secure boot root") + at)) << roots
                    + QStringLiteral("ubuntu2404-secureboot-dkms") << igpuReport << size << QStringLiteral("gfx1032");
            QTest::newRow(qPrintable(QStringLiteral("HIP log, KFD-only root") + at))
                << roots + QStringLiteral("kfd-only-2x7900xt")
                << kFixtures + QStringLiteral("/diagnosis/logs/NO_CODE_OBJECT_FOR_GPU/match-no-binary-for-gpu.log")
                << size << QString();
        }
    }

    void sameAsCliAndUsable()
    {
        QFETCH(QString, root);
        QFETCH(QString, log);
        QFETCH(QSize, size);
        QFETCH(QString, fact);
        QStringList args { QStringLiteral("diagnose"), QStringLiteral("--log"), log, QStringLiteral("--json") };
        args << (root.isEmpty() ? QStringList { QStringLiteral("--log-only") }
                                : QStringList { QStringLiteral("--root"), root });
        const auto cli = test::runCli(args);
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(cli.out).object();

        MainWindow window;
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (!root.isEmpty()) {
            QSignalSpy changed(window.snapshots(), &SnapshotController::snapshotChanged);
            QVERIFY(window.snapshots()->inspectRoot(root));
            QVERIFY(changed.wait(60000));
        }
        auto* dialog = window.openLogDiagnosis();
        QSignalSpy done(dialog, &LogDiagnosisDialog::diagnosed);
        QVERIFY(dialog->diagnoseFile(log));
        QVERIFY(done.wait(30000));
        QTest::qWait(100); // the layout takes the new texts' sizes

        // The same findings, in the same order, and the same facts as the CLI.
        QStringList cliFindings;
        for (const auto& f : doc.value(QStringLiteral("findings")).toArray())
            cliFindings << QStringLiteral("%1 %2").arg(f.toObject().value(QStringLiteral("severity")).toString(),
                f.toObject().value(QStringLiteral("id")).toString());
        QCOMPARE(test::guiFindings(dialog->findingsModel()), cliFindings);
        QCOMPARE(dialog->facts(), jsonStrings(doc.value(QStringLiteral("facts")).toArray()));
        auto* factsLabel = dialog->findChild<QLabel*>(QStringLiteral("logFacts"));
        QVERIFY(factsLabel && factsLabel->isVisible());
        if (!fact.isEmpty())
            QVERIFY2(factsLabel->text().contains(fact), qPrintable(factsLabel->text()));

        // Usable at this size: the dialog inside the window, the findings list at least half its width with no
        // sideways scrolling, the title column the widest, every title whole in its tooltip.
        QVERIFY(dialog->width() <= size.width() && dialog->height() <= size.height());
        QTableView* view = dialog->findingsView();
        QVERIFY(view->isVisible());
        QVERIFY2(view->width() * 2 >= dialog->width(),
            qPrintable(QStringLiteral("list %1 of %2 px").arg(view->width()).arg(dialog->width())));
        QVERIFY(!view->horizontalScrollBar()->isVisible());
        const int title = view->columnWidth(FindingsModel::TitleColumn);
        QVERIFY2(title >= 280, qPrintable(QStringLiteral("title column %1 px").arg(title)));
        for (int r = 0; r < dialog->findingsModel()->rowCount(); ++r) {
            const auto index = dialog->findingsModel()->index(r, FindingsModel::TitleColumn);
            QVERIFY(index.data(Qt::ToolTipRole).toString().startsWith(index.data().toString()));
        }
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        const QString name = QStringLiteral("log-dialog-%1-%2x%3.png")
                                 .arg(root.isEmpty() ? QStringLiteral("no-machine") : QFileInfo(root).fileName())
                                 .arg(size.width())
                                 .arg(size.height());
        QVERIFY(dialog->grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/") + name));
    }
};

QTEST_MAIN(TestLogDialogLayout)
#include "tst_log_dialog_layout.moc"
