// The report tells what `stackscope-cli diagnose` tells (issue 35): for every recorded root its findings (ids,
// severities, order), its verdict and what could not be checked are the CLI's, and the Markdown shows the three
// states (a row a finding blames reads failed, an unknown reads unknown with why, never ok).
#include "core/diagnosis/log_diagnosis.h"
#include "core/inspect/inspector.h"
#include "core/report/report.h"
#include "core/snapshot/snapshot_json.h"
#include "tests/common/cli_process.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace stackscope;
using nlohmann::json;

namespace {

const QString kRoots = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/");

json reportOf(const QString& root)
{
    InspectOptions o;
    o.root = root.toStdString();
    report::ReportInputs in;
    in.snapshot = inspectMachine(o);
    return report::buildReport(in, nullptr);
}

} // namespace

class TestReportVerdict : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (qEnvironmentVariableIsEmpty("STACKSCOPE_CLI"))
            QSKIP("STACKSCOPE_CLI is not set (run through ctest)");
    }

    void sameAsDiagnose_data()
    {
        QTest::addColumn<QString>("root");
        for (const auto& name : QDir(kRoots).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            QTest::newRow(qPrintable(name)) << name;
    }
    void sameAsDiagnose()
    {
        QFETCH(QString, root);
        const auto cli = test::runCli({ QStringLiteral("diagnose"), QStringLiteral("--root"), kRoots + root,
            QStringLiteral("--no-archscan"), QStringLiteral("--json") });
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        const json expected = json::parse(cli.out.toStdString());
        const json report = reportOf(kRoots + root);
        QStringList fromReport, fromCli;
        for (const auto& f : report["findings"])
            fromReport << QString::fromStdString(f["severity"].get<std::string>() + " " + f["id"].get<std::string>());
        for (const auto& f : expected["findings"])
            fromCli << QString::fromStdString(f["severity"].get<std::string>() + " " + f["id"].get<std::string>());
        QCOMPARE(fromReport, fromCli);
        QCOMPARE(report["verdict"], expected["verdict"]);
        QCOMPARE(report["not_checked"], expected["not_checked"]);
    }

    void markdownStates_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("has");
        QTest::addColumn<QString>("hasNot");
        QTest::newRow("KFD only: access unknown") << "kfd-only-2x7900xt"
                                                  << "**GPU access**: user and groups not recorded"
                                                  << "";
        QTest::newRow("KFD only: unknown with why") << "kfd-only-2x7900xt"
                                                    << "### Not checked (unknown)"
                                                    << "";
        QTest::newRow("KFD only: access row") << "kfd-only-2x7900xt"
                                              << "(/dev/kfd) [unknown]: whether this user can open"
                                              << "";
        QTest::newRow("secure boot blamed")
            << "ubuntu2404-secureboot-dkms"
            << "**Secure Boot**: enabled (efivars SecureBoot) [failed]: keeps the unsigned amdgpu DKMS module"
            << "";
        QTest::newRow("2x7900xt: access failed") << "ubuntu2204-2x7900xt"
                                                 << "(/dev/kfd) [failed]"
                                                 << "";
        QTest::newRow("rocm7: runtime not queried") << "ubuntu2404-rocm7"
                                                    << "**HIP runtime**: - (not queried (recorded machine)) [unknown]"
                                                    << "";
        QTest::newRow("rocm7: access ok") << "ubuntu2404-rocm7"
                                          << "**GPU access**: user user"
                                          << "(/dev/kfd) [";
    }
    void markdownStates()
    {
        QFETCH(QString, root);
        QFETCH(QString, has);
        QFETCH(QString, hasNot);
        const QString md = QString::fromStdString(report::reportMarkdown(reportOf(kRoots + root)));
        QVERIFY2(md.contains(has), qPrintable(md));
        if (!hasNot.isEmpty())
            QVERIFY2(!md.contains(hasNot), qPrintable(md));
    }

    // A guess from a description's words reads as a guess in the report too, as in the log dialog and the CLI.
    void guessFromWordsSaysSo()
    {
        json report = reportOf(kRoots + QStringLiteral("debian12-nogpu"));
        const auto guess = diagnoseLogText("pytorch dataloader raise bus error: out of shared memory, in kubernetes container",
                                           "pasted text").findings;
        QCOMPARE(guess.size(), std::size_t(1));
        QVERIFY(isGuessFromWords(guess.front()));
        report["findings"] = findingsToJson(guess)["findings"];
        const QString md = QString::fromStdString(report::reportMarkdown(report));
        QVERIFY2(md.contains("Guess from the words: DataLoader workers ran out of shared memory"), qPrintable(md));
        const QString html = QString::fromStdString(report::reportHtml(report, {}));
        QVERIFY2(html.contains("SHM_TOO_SMALL: Guess from the words: DataLoader"), qPrintable(html));
    }
};

QTEST_MAIN(TestReportVerdict)
#include "tst_report_verdict.moc"
