// Tests of `stackscope-cli probe` through QProcess: exit codes, JSON shape, usage errors.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include "tests/common/cli_process.h"

#include <QProcess>
#include <QtTest>

class TestProbeCli : public QObject {
    Q_OBJECT
private:
    using Run = stackscope::test::CliRun;
    Run run(const QStringList& args) { return stackscope::test::runCli(args); }

private Q_SLOTS:
    void initTestCase()
    {
        if (qEnvironmentVariableIsEmpty("STACKSCOPE_CLI"))
            QSKIP("STACKSCOPE_CLI is not set; run through ctest");
    }

    void exitCodes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrPart");
        QTest::newRow("unknown probe") << QStringList {"probe", "--probe", "nope"} << 2 << "probe --list";
        QTest::newRow("bad env") << QStringList {"probe", "--env", "NOVALUE"} << 2 << "NAME=VALUE";
        QTest::newRow("bad device") << QStringList {"probe", "--device", "gpu1"} << 2 << "GPU index";
        QTest::newRow("no variant") << QStringList {"probe", "--no-baseline"} << 2 << "--env";
        QTest::newRow("timeout range") << QStringList {"probe", "--timeout", "0"} << 2 << "";
        QTest::newRow("broken module fails") << QStringList {"probe", "--device", "cpu", "--probe", "alloc_zeros", "--no-baseline",
                                                             "--env", "STACKSCOPE_TORCH_MODULE=/nonexistent.so"}
                                             << 1 << "";
        QTest::newRow("list") << QStringList {"probe", "--list"} << 0 << "";
    }
    void exitCodes()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrPart);
        const auto r = run(args);
        QVERIFY2(r.exitCode == exitCode, r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(stderrPart), r.err.constData());
    }

    void jsonOnCpu()
    {
        const auto r = run({"probe", "--device", "cpu", "--probe", "alloc_zeros", "--probe", "softmax", "--json"});
        if (r.exitCode == 1 && r.out.contains("could not be loaded"))
            QSKIP("the torch module is not built here");
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const auto doc = QJsonDocument::fromJson(r.out).object();
        const auto results = doc.value(QLatin1String("results")).toArray();
        QCOMPARE(results.size(), 2);
        for (const auto& v : results) {
            const auto o = v.toObject();
            QCOMPARE(o.value(QLatin1String("outcome")).toString(), QStringLiteral("ok"));
            QCOMPARE(o.value(QLatin1String("device")).toString(), QStringLiteral("cpu"));
            QVERIFY(o.contains(QLatin1String("seconds")));
        }
        QVERIFY(doc.value(QLatin1String("findings")).isArray());
        QCOMPARE(doc.value(QLatin1String("failures")).toInt(), 0);
    }
};

QTEST_GUILESS_MAIN(TestProbeCli)
#include "tst_probe_cli.moc"
