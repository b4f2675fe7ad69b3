// `stackscope-cli archscan`: exit codes and the JSON shape, run as a separate process.
#include "archscan_test_util.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include "tests/common/cli_process.h"

#include <QProcess>
#include <QtTest>

using namespace archscan_test;

namespace {

using Run = stackscope::test::CliRun;

Run runCli(const QStringList& args)
{
    return stackscope::test::runCli(QStringList {"archscan"} + args);
}

QString fx(const char* name) { return QString::fromStdString(fixture(name)); }

} // namespace

class TestArchscanCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (qEnvironmentVariable("STACKSCOPE_CLI").isEmpty())
            QFAIL("STACKSCOPE_CLI is not set: run through ctest");
    }

    void exitCodes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("covered") << QStringList {fx("hipblaslt/library"), "--arch", "gfx1100", "--json"} << 0;
        QTest::newRow("not covered") << QStringList {fx("hipblaslt/library"), "--arch", "gfx1030", "--json"} << 1;
        QTest::newRow("trap") << QStringList {fx("rocblas-gfx110-trap/library"), "--arch", "gfx1100"} << 1;
        QTest::newRow("bad arch") << QStringList {fx("hipblaslt/library"), "--arch", "rx7900"} << 2;
        QTest::newRow("unknown option") << QStringList {"--frobnicate"} << 2;
        QTest::newRow("missing path") << QStringList {"/nonexistent/libtorch_hip.so", "--arch", "gfx1100"} << 2;
    }
    void exitCodes()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        const Run r = runCli(args);
        QVERIFY2(r.exitCode == exitCode, r.err.constData());
        if (exitCode == 2)
            QVERIFY(!r.err.isEmpty());
    }

    void jsonShape()
    {
        const Run r = runCli({fx("rocblas/library"), fx("miopen/db"), "--arch", "gfx90a:xnack+", "--arch", "gfx1100", "--json"});
        QCOMPARE(r.exitCode, 1); // gfx1100 is not in this rocBLAS folder
        QJsonParseError e;
        const auto doc = QJsonDocument::fromJson(r.out, &e);
        QVERIFY2(e.error == QJsonParseError::NoError, qPrintable(e.errorString()));
        const auto root = doc.object();
        QVERIFY(root["devices"].toArray().contains(QString("gfx1100")));
        const auto libs = root["libraries"].toArray();
        QCOMPARE(libs.size(), 2);
        const auto rocblas = libs[0].toObject();
        QCOMPARE(rocblas["kind"].toString(), QString("tensile"));
        QCOMPARE(rocblas["covers"].toObject()["gfx1100"].toString(), QString("no"));
        QCOMPARE(rocblas["covers"].toObject()["gfx90a:xnack+"].toString(), QString("yes"));
        QVERIFY(!rocblas["explain"].toObject()["gfx1100"].toString().isEmpty());
        bool sawXnack = false;
        for (const auto& t : rocblas["targets"].toArray()) {
            const auto o = t.toObject();
            QVERIFY(o.contains("id") && o.contains("arch") && o.contains("features") && o.contains("format") && o.contains("compressed"));
            QCOMPARE(o["format"].toString(), QString("code-object"));
            if (o["id"].toString() == "gfx90a:xnack-") {
                QCOMPARE(o["arch"].toString(), QString("gfx90a"));
                QCOMPARE(o["features"].toObject()["xnack"].toString(), QString("-"));
                sawXnack = true;
            }
        }
        QVERIFY(sawXnack);
        QCOMPARE(libs[1].toObject()["kind"].toString(), QString("miopen"));
    }

    void textOutput()
    {
        const Run r = runCli({fx("hipblaslt/library"), "--arch", "gfx1030"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains("gfx1030"));
        QVERIFY(r.out.contains("NOT covered"));
    }
};

QTEST_GUILESS_MAIN(TestArchscanCli)
#include "tst_cli.moc"
