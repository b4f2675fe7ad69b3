// One diagnosis for every surface (issue 35 item 1): every recorded root (tests/fixtures/roots) and every diagnosis
// snapshot (tests/fixtures/diagnosis/snapshots) shown on the System page gives the findings (ids, severities, order),
// the verdict and the list of what could not be checked that `stackscope-cli diagnose --json` prints for the same
// input.
#include "tests/common/cli_process.h"
#include "ui/main_window.h"
#include "ui/models/findings_model.h"
#include "ui/system/system_page.h"
#include "ui/system/verdict_panel.h"
#include "tests/common/findings_rows.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

const QString kFixtures = QStringLiteral(STACKSCOPE_TEST_FIXTURES);

QStringList cliFindings(const QJsonObject& doc)
{
    QStringList out;
    for (const auto& f : doc.value(QStringLiteral("findings")).toArray())
        out << QStringLiteral("%1 %2").arg(f.toObject().value(QStringLiteral("severity")).toString(),
            f.toObject().value(QStringLiteral("id")).toString());
    return out;
}

QStringList cliNotChecked(const QJsonObject& doc)
{
    QStringList out;
    for (const auto& n : doc.value(QStringLiteral("not_checked")).toArray())
        out << n.toObject().value(QStringLiteral("id")).toString();
    return out;
}

// The unknowns the verdict panel shows (as its rows, or below the problems).
QStringList guiNotChecked(const VerdictPanel* verdict)
{
    QStringList out;
    for (const auto* list : { &verdict->view().items, &verdict->view().notChecked }) {
        for (const auto& item : *list) {
            if (item.notChecked)
                out << item.id;
        }
    }
    return out;
}

} // namespace

class TestOneDiagnosis : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (qEnvironmentVariableIsEmpty("STACKSCOPE_CLI"))
            QSKIP("STACKSCOPE_CLI is not set (run through ctest)");
    }

    void guiMatchesCli_data()
    {
        QTest::addColumn<QString>("option"); // --root or --snapshot
        QTest::addColumn<QString>("path");
        int roots = 0, snapshots = 0;
        const QDir rootDir(kFixtures + QStringLiteral("/roots"));
        for (const auto& name : rootDir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            QTest::newRow(qPrintable(QStringLiteral("root ") + name))
                << QStringLiteral("--root") << rootDir.filePath(name);
            ++roots;
        }
        const QString snapshotDir = kFixtures + QStringLiteral("/diagnosis/snapshots");
        QStringList files;
        QDirIterator it(snapshotDir, { QStringLiteral("*.json") }, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
        files.sort();
        for (const auto& file : files) {
            QTest::newRow(qPrintable(QStringLiteral("snapshot ") + QDir(snapshotDir).relativeFilePath(file)))
                << QStringLiteral("--snapshot") << file;
            ++snapshots;
        }
        // Every recorded root and every snapshot fixture is a row: a folder that stops being read fails here.
        QVERIFY(roots >= 7);
        QVERIFY(snapshots >= 30);
    }

    void guiMatchesCli()
    {
        QFETCH(QString, option);
        QFETCH(QString, path);
        const auto cli = test::runCli({ QStringLiteral("diagnose"), option, path, QStringLiteral("--json") });
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(cli.out).object();
        QVERIFY(doc.value(QStringLiteral("findings")).isArray());

        MainWindow window;
        window.resize(1024, 640);
        QSignalSpy changed(window.snapshots(), &SnapshotController::snapshotChanged);
        if (option == QStringLiteral("--root"))
            QVERIFY(window.snapshots()->inspectRoot(path));
        else
            QVERIFY(window.snapshots()->openFile(path));
        QVERIFY(changed.size() == 1 || changed.wait(60000));

        SystemPage* page = window.systemPage();
        const QStringList gui = test::guiFindings(page->findingsModel());
        QCOMPARE(gui, cliFindings(doc));
        QCOMPARE(QString::fromLatin1(verdictStateName(page->verdict()->state())),
            doc.value(QStringLiteral("verdict")).toString());
        QCOMPARE(guiNotChecked(page->verdict()), cliNotChecked(doc));
        // The verdict's problem rows are the error findings, in their order.
        if (page->verdict()->state() == VerdictState::Problem) {
            QStringList errors, rows;
            for (const auto& f : gui) {
                if (f.startsWith(QStringLiteral("error ")))
                    errors << f.mid(6);
            }
            for (const auto& item : page->verdict()->view().items)
                rows << item.id;
            QCOMPARE(rows, errors);
        }
    }
};

QTEST_MAIN(TestOneDiagnosis)
#include "tst_one_diagnosis.moc"
