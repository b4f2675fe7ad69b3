// `stackscope-cli report` and `stackscope-cli diff` through QProcess: files, redaction, exit codes, the recorded roots.
#include "tests/common/cli_process.h"
#include "tests/report/report_test_util.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using stackscope::test::CliRun;
using stackscope::test::runCli;
using namespace stackscope::test;

namespace {

const QString kRoots = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots");

QString lineValue(const QByteArray& out, const QString& label)
{
    for (const auto& l : QString::fromUtf8(out).split('\n')) {
        if (l.startsWith(label + ": "))
            return l.mid(label.size() + 2);
    }
    return {};
}

} // namespace

class TestReportCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (qEnvironmentVariableIsEmpty("STACKSCOPE_CLI"))
            QSKIP("STACKSCOPE_CLI is not set (run through ctest)");
    }

    void reportRedacts_data()
    {
        QTest::addColumn<bool>("redact");
        QTest::newRow("default") << true;
        QTest::newRow("--no-redact") << false;
    }
    void reportRedacts()
    {
        QFETCH(bool, redact);
        QTemporaryDir dir;
        QStringList args {"report", "--out", dir.path() + "/out", "--snapshot", kReportFixtures + "/planted_snapshot.json",
                          "--log", kReportFixtures + "/planted.log", "--no-telemetry", "--run-dir", dir.path() + "/none"};
        if (!redact)
            args << "--no-redact";
        const CliRun r = runCli(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto folder = lineValue(r.out, "folder");
        const auto zip = lineValue(r.out, "zip");
        QVERIFY2(QFileInfo(folder).isDir(), r.out.constData());
        QVERIFY(QFileInfo(zip).isFile());
        QVERIFY(r.out.contains("probes were not run"));
        const auto files = filesUnder(folder);
        const auto entries = zipEntries(zip);
        QVERIFY(files.size() >= 4);
        QCOMPARE(entries.size(), files.size() + 3);
        for (const auto& secret : plantedSecrets()) {
            for (const auto& set : {files, entries}) {
                bool found = false;
                for (const auto& f : set)
                    found = found || f.bytes.contains(secret.toUtf8());
                QVERIFY2(found != redact, qPrintable(secret));
            }
        }
        // The other notations (case, inside words, Cisco/bare MACs, board serials): none left in any case.
        if (redact) {
            QVERIFY2(leakInAnyCase(files, plantedOtherForms()).isEmpty(), qPrintable(leakInAnyCase(files, plantedOtherForms())));
            QVERIFY2(leakInAnyCase(entries, plantedOtherForms()).isEmpty(), qPrintable(leakInAnyCase(entries, plantedOtherForms())));
        } else {
            QVERIFY(!leakInAnyCase(files, {"3cec.ef12.3456"}).isEmpty());
        }
        const auto doc = QJsonDocument::fromJson(files.empty() ? QByteArray() : [&] {
            for (const auto& f : files)
                if (f.name.endsWith("report.json"))
                    return f.bytes;
            return QByteArray();
        }());
        QCOMPARE(doc.object().value("schema").toString(), QStringLiteral("stackscope.report/1"));
        QCOMPARE(doc.object().value("redaction").toObject().value("enabled").toBool(), redact);
        for (const char* key : {"version", "created_at", "snapshot", "probes", "findings", "arch_coverage", "vpoc", "training",
                                "telemetry", "logs"})
            QVERIFY2(doc.object().contains(key), key);
    }

    void reportBadInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no --out") << QStringList {"--no-telemetry"} << "--out";
        QTest::newRow("missing probes") << QStringList {"--probes", "/nonexistent/p.json"} << "--probes /nonexistent/p.json: no such file";
        QTest::newRow("probes not json") << QStringList {"--probes", kReportFixtures + "/planted.log"} << "not valid JSON";
        QTest::newRow("probes and run") << QStringList {"--probes", "x", "--run-probes"} << "excludes";
        QTest::newRow("missing training") << QStringList {"--training", "/nonexistent"} << "model_metadata.json";
        QTest::newRow("missing log") << QStringList {"--log", "/nonexistent.log"} << "--log /nonexistent.log";
        QTest::newRow("bad snapshot") << QStringList {"--snapshot", kReportFixtures + "/planted.log"} << "--snapshot";
    }
    // A binary file given as a log (a core dump, a zip) is refused with the byte it failed at and what to give.
    void binaryLogIsRefused()
    {
        QTemporaryDir dir;
        QFile bin(dir.filePath("core.bin"));
        QVERIFY(bin.open(QIODevice::WriteOnly));
        bin.write(QByteArray("ELF header\n\x7f", 12) + QByteArray(3, '\0') + QByteArray("tail\n"));
        bin.close();
        const CliRun r = runCli({"report", "--out", dir.filePath("out"), "--no-telemetry", "--log", bin.fileName(),
                                 "--run-dir", dir.filePath("none")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("a binary file (a NUL byte at byte 12)") && r.err.contains("tee train.log"), r.err.constData());
        QVERIFY(!QFileInfo::exists(dir.filePath("out")) || QDir(dir.filePath("out")).isEmpty());
    }

    void reportBadInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QStringList full {"report"};
        full << args;
        if (!args.contains("--no-telemetry"))
            full << "--out" << dir.path() + "/out" << "--no-telemetry";
        const CliRun r = runCli(full);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(expected), r.err.constData());
        QVERIFY(!QFileInfo::exists(dir.path() + "/out") || QDir(dir.path() + "/out").isEmpty());
    }

    void diffRecordedRoots()
    {
        QTemporaryDir dir;
        const QString a = dir.path() + "/h100.json";
        const QString b = dir.path() + "/nogpu.json";
        for (const auto& [root, out] : {std::pair {QString("ubuntu2404-h100"), a}, std::pair {QString("debian12-nogpu"), b}}) {
            const CliRun r = runCli({"inspect", "--json", "--root", kRoots + "/" + root, "--no-archscan"});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QFile f(out);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(r.out);
        }
        const CliRun r = runCli({"diff", a, b, "--json"});
        QCOMPARE(r.exitCode, 1);
        const auto doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc.value("equal").toBool(), false);
        QStringList rows;
        for (const auto& v : doc.value("differences").toArray()) {
            const auto o = v.toObject();
            rows << QStringLiteral("%1|%2|%3|%4").arg(o.value("area").toString(), o.value("item").toString(),
                                                      o.value("a").toString(), o.value("b").toString());
        }
        for (const char* expected : {"versions|NVIDIA driver|580.159.04|(none)", "versions|ROCm /usr|5.7.1-3|5.2.3-8",
                                     "gpus|GPU count|1|0", "gpus|GPU 0 name|NVIDIA H100 80GB HBM3|(none)",
                                     "host|OS|Ubuntu 24.04.3 LTS|Debian GNU/Linux 12 (bookworm)"})
            QVERIFY2(rows.contains(expected), qPrintable(rows.join('\n')));
        for (const auto& row : rows)
            QVERIFY2(!row.contains("captured") && !row.contains("hostname"), qPrintable(row));
        // The text form has the same rows, and the same exit code.
        const CliRun text = runCli({"diff", a, b});
        QCOMPARE(text.exitCode, 1);
        QVERIFY(text.out.contains("NVIDIA H100 80GB HBM3"));
        // A file with itself: no difference, exit 0.
        const CliRun same = runCli({"diff", a, a});
        QCOMPARE(same.exitCode, 0);
        QVERIFY(same.out.contains("No differences"));
    }

    void diffReportFolderAndZip()
    {
        QTemporaryDir dir;
        const CliRun r = runCli({"report", "--out", dir.path(), "--snapshot", kReportFixtures + "/planted_snapshot.json",
                                 "--no-telemetry", "--run-dir", dir.path() + "/none"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const CliRun d = runCli({"diff", lineValue(r.out, "folder"), lineValue(r.out, "zip")});
        QCOMPARE(d.exitCode, 0);
        // The report is redacted, the snapshot is not: environment values differ, host names are not compared.
        const CliRun d2 = runCli({"diff", kReportFixtures + "/planted_snapshot.json", lineValue(r.out, "zip"), "--json"});
        QCOMPARE(d2.exitCode, 1);
        QVERIFY(d2.out.contains("NCCL_COMM_ID"));
        QVERIFY(!d2.out.contains("\"item\": \"hostname\""));
    }

    void diffBadInput()
    {
        QTemporaryDir dir;
        const CliRun missing = runCli({"diff", dir.path() + "/a.json", kReportFixtures + "/planted_snapshot.json"});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("A: "));
        QFile f(dir.path() + "/deep.json");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(100000, '['));
        f.close();
        const CliRun deep = runCli({"diff", kReportFixtures + "/planted_snapshot.json", dir.path() + "/deep.json"});
        QCOMPARE(deep.exitCode, 2);
        QVERIFY2(deep.err.contains("B: ") && deep.err.contains("nested deeper"), deep.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestReportCli)
#include "tst_report_cli.moc"
