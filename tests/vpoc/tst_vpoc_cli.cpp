// stackscope-cli vpoc and sample-data through QProcess: exit codes, messages and JSON fields.
#include "tests/common/cli_process.h"

#include <QtTest/QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <sys/stat.h>

class TestVpocCli : public QObject {
    Q_OBJECT
    QString m_cli = qEnvironmentVariable("STACKSCOPE_CLI");
    QTemporaryDir m_dir;

    int run(const QStringList& args, QByteArray* out = nullptr, QByteArray* err = nullptr)
    {
        const auto r = stackscope::test::runCli(args);
        if (out)
            *out = r.out;
        if (err)
            *err = r.err;
        return r.exitCode;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (m_cli.isEmpty())
            QSKIP("STACKSCOPE_CLI is not set; run through ctest");
        QVERIFY(m_dir.isValid());
        // A day of sample trades for the bench vpoc-e2e tests.
        QCOMPARE(run({"sample-data", "--out", m_dir.filePath("e2e.csv"), "--days", "1", "--trades"}), 0);
    }

    void sampleDataIsDeterministic()
    {
        const QString a = m_dir.filePath("a.csv"), b = m_dir.filePath("b.csv"), c = m_dir.filePath("c.csv");
        QCOMPARE(run({"sample-data", "--out", a, "--days", "3", "--seed", "7"}), 0);
        QCOMPARE(run({"sample-data", "--out", b, "--days", "3", "--seed", "7"}), 0);
        QCOMPARE(run({"sample-data", "--out", c, "--days", "3", "--seed", "8"}), 0);
        QFile fa(a), fb(b), fc(c);
        QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly) && fc.open(QIODevice::ReadOnly));
        const QByteArray da = fa.readAll();
        QCOMPARE(da, fb.readAll());
        QVERIFY(da != fc.readAll());
        QVERIFY(da.startsWith("# Synthetic"));
    }

    void vpocJson()
    {
        const QString a = m_dir.filePath("s.csv");
        QCOMPARE(run({"sample-data", "--out", a, "--days", "5"}), 0);
        QByteArray out;
        QCOMPARE(run({"vpoc", "--input", a, "--json", "--backend", "cpu", "--developing", m_dir.filePath("d.csv")}, &out),
                 0);
        const auto j = QJsonDocument::fromJson(out).object();
        QCOMPARE(j["backend"].toString(), QString("cpu"));
        const auto sessions = j["sessions"].toArray();
        QCOMPARE(sessions.size(), 5);
        const auto s = sessions[0].toObject();
        for (const char* k : {"date", "first", "last", "bars", "volume", "low", "high", "poc", "vah", "val"})
            QVERIFY2(s.contains(k), k);
        QCOMPARE(s["date"].toString(), QString("2024-03-04"));
        QVERIFY(s["val"].toDouble() <= s["poc"].toDouble() && s["poc"].toDouble() <= s["vah"].toDouble());
        QVERIFY(QFile::exists(m_dir.filePath("d.csv")));
    }

    void handComputedFixture()
    {
        // Session 2024-03-11 (globex, the first Sunday evening after the March DST change, so EDT):
        // bar 1 spreads 6 over 100.00/100.25/100.50 -> 2,2,2; bar 2 adds 6 at 100.50 -> 2,2,8; bar 3 adds 1 at
        // 100.25 -> 2,3,8 (total 13). POC 100.50; 8*100 < 13*70, no levels above, the pair below (3+2) is taken
        // -> VAL 100.00, VAH 100.50. 17:00 is the halt (outside). 18:00 opens 2024-03-12 with one bar at 99.
        QByteArray out;
        QCOMPARE(run({"vpoc", "--input", QString(STACKSCOPE_TEST_FIXTURES) + "/vpoc/hand_bars.csv", "--json", "--backend",
                      "cpu"},
                     &out),
                 0);
        const auto j = QJsonDocument::fromJson(out).object();
        QCOMPARE(j["outside_sessions"].toInt(), 1);
        const auto sessions = j["sessions"].toArray();
        QCOMPARE(sessions.size(), 2);
        const auto a = sessions[0].toObject();
        QCOMPARE(a["date"].toString(), QString("2024-03-11"));
        QCOMPARE(a["first"].toString(), QString("2024-03-10T18:00:00-04:00"));
        QCOMPARE(a["bars"].toInt(), 3);
        QCOMPARE(a["volume"].toInt(), 13);
        QCOMPARE(a["poc"].toDouble(), 100.5);
        QCOMPARE(a["vah"].toDouble(), 100.5);
        QCOMPARE(a["val"].toDouble(), 100.0);
        const auto b = sessions[1].toObject();
        QCOMPARE(b["date"].toString(), QString("2024-03-12"));
        QCOMPARE(b["poc"].toDouble(), 99.0);
        QCOMPARE(b["val"].toDouble(), 99.0);
        QCOMPARE(b["bars"].toInt(), 1);
    }

    void exitCodes_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("stderrHas");
        const QByteArray h = "timestamp,open,high,low,close,volume\n";
        QTest::newRow("bad row") << h + "2024-03-11T13:30:00Z,1,1,2,1,1\n" << QStringList() << 2 << ":2:24: high";
        QTest::newRow("bad row skipped") << h + "2024-03-11T13:30:00Z,1,1,2,1,1\n2024-03-11T13:31:00Z,1,1,1,1,1\n"
                                         << QStringList {"--skip-bad"} << 0 << "skipped";
        QTest::newRow("unknown zone") << h << QStringList {"--tz", "Mars/Base"} << 2 << "unknown time zone";
        QTest::newRow("bad flag value") << h << QStringList {"--va-method", "triple"} << 2 << "";
        QTest::newRow("bad session") << h << QStringList {"--session", "9-5"} << 2 << "--session";
        QTest::newRow("header only") << h << QStringList() << 2 << ":2:1: no data rows after the header";
        QTest::newRow("every row bad, skipped") << h + "x,1,1,1,1,1\n" << QStringList {"--skip-bad"} << 2
                                                << ":3:1: every data row was bad (1 skipped";
        QTest::newRow("session too wide") << h + "2024-03-11T13:30:00Z,1,300000,1,1,1\n" << QStringList() << 2
                                          << ":2:1: this row (1.00 .. 300000.00) makes the session";
        QTest::newRow("dbn by content") << QByteArray() << QStringList {"--json"} << 0 << "";
        // An ESC sequence in a field reaches the terminal escaped, never raw (checked for every row below).
        QTest::newRow("control bytes in a field") << h + "2024-03-11T13:30:00Z,\x1b[2J\x1b[31mred,1,1,1,1\n"
                                                  << QStringList() << 2 << "\\x1b[2J\\x1b[31mred";
        QTest::newRow("control bytes skipped") << h + "2024-03-11T13:30:00Z,\x1b]0;title\x07,1,1,1,1\n2024-03-11T13:31:00Z,1,1,1,1,1\n"
                                               << QStringList {"--skip-bad"} << 0 << "\\x1b]0;title\\x07";
    }
    void exitCodes()
    {
        QFETCH(QByteArray, content);
        QFETCH(QStringList, extra);
        QFETCH(int, code);
        QFETCH(QString, stderrHas);
        QString f = m_dir.filePath("in.csv");
        QFile file(f);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(content);
        file.close();
        if (content.isEmpty()) // a real Databento file, named as nothing in particular
            f = QString(STACKSCOPE_TEST_FIXTURES) + "/market/test_data.trades.v3.dbn.zst";
        QByteArray err;
        QCOMPARE(run(QStringList {"vpoc", "--input", f, "--backend", "cpu"} + extra, nullptr, &err), code);
        QVERIFY2(QString(err).contains(stderrHas), err.constData());
        QVERIFY2(!err.contains('\x1b') && !err.contains('\x07'), err.toPercentEncoding().constData());
    }

    void missingFile()
    {
        QByteArray err;
        QCOMPARE(run({"vpoc", "--input", m_dir.filePath("nope.csv")}, nullptr, &err), 2);
        QVERIFY(err.contains("no such file"));
    }

    // A VPOC result with a number no double holds is bad input with its place, not an exception (exit 1).
    void vpocResultNumberOutOfRange()
    {
        const QString f = m_dir.filePath("vpoc-1e400.json");
        QFile file(f);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"backend\": \"cpu\", \"sessions\": [{\"poc\": 1e400}]}");
        file.close();
        QByteArray err;
        QCOMPARE(run({"report", "--out", m_dir.filePath("r"), "--vpoc", f}, nullptr, &err), 2);
        QVERIFY2(err.contains("line 1, column 41") && err.contains("1e400"), err.constData());
    }

    // An input that exists but cannot be read as a file: exit 2 with the path and what to give, never exit 1.
    void unreadableInput_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("stderrHas");
        QTest::newRow("a folder") << QStringLiteral("%1") << "not a regular file";
        QTest::newRow("read error (EIO)") << QStringLiteral("/proc/self/mem") << "/proc/self/mem";
    }
    void unreadableInput()
    {
        QFETCH(QString, path);
        QFETCH(QString, stderrHas);
        path.replace(QStringLiteral("%1"), m_dir.path());
        QByteArray err;
        QCOMPARE(run({"vpoc", "--input", path, "--backend", "cpu"}, nullptr, &err), 2);
        QVERIFY2(QString(err).contains(stderrHas), err.constData());
    }

    // bench vpoc-e2e on a day of sample trades: its figures, the DuckDB baseline's limits, bad options.
    void benchVpocE2e_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("has"); // in stderr, or in the JSON's DuckDB error for exit 0
        QTest::addColumn<int>("runs");
        const QStringList one {"--threads", "1", "--repeats", "1", "--json"};
        QTest::newRow("cpu, two thread counts") << QStringList {"--threads", "1,2", "--repeats", "1", "--json",
                                                                "--backends", "cpu", "--no-duckdb"}
                                                << 0 << "--no-duckdb" << 2;
        QTest::newRow("rth: no DuckDB baseline") << one + QStringList {"--backends", "cpu", "--session", "rth"} << 0
                                                 << "Globex" << 1;
        QTest::newRow("bad session") << one + QStringList {"--session", "9-5"} << 2 << "--session 9-5" << 0;
        QTest::newRow("bad backend") << one + QStringList {"--backends", "cpu,tpu"} << 2 << "'tpu' is not a backend"
                                     << 0;
        QTest::newRow("bad thread count") << QStringList {"--threads", "1,x", "--backends", "cpu"} << 2
                                          << "'x' is not a thread count" << 0;
    }
    void benchVpocE2e()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, has);
        QFETCH(int, runs);
        const QString f = m_dir.filePath("e2e.csv"); // made by initTestCase
        QByteArray out, err;
        QCOMPARE(run(QStringList {"bench", "vpoc-e2e", "--input", f} + args, &out, &err), code);
        if (code != 0) {
            QVERIFY2(QString(err).contains(has), err.constData());
            return;
        }
        const auto j = QJsonDocument::fromJson(out).object();
        QCOMPARE(j["stackscope"]["runs"].toArray().size(), runs);
        QVERIFY(j["stackscope"]["all_match"].toBool());
        QVERIFY(j["rows"].toInt() > 1000);
        QVERIFY2(j["duckdb"]["error"].toString().contains(has), out.constData());
    }

    // Only the GPU backend asked for: its figures where a GPU module opens, else exit 1 saying to use the CPU
    // (it crashed on a null result before).
    void benchVpocE2eGpuOnly()
    {
        const QString f = m_dir.filePath("e2e.csv"); // made by initTestCase
        QByteArray out, err;
        const int code = run({"bench", "vpoc-e2e", "--input", f, "--threads", "1", "--repeats", "1", "--backends",
                              "gpu", "--no-duckdb", "--json"},
                             &out, &err);
        if (code == 0) {
            const auto r = QJsonDocument::fromJson(out).object().value("stackscope")["runs"].toArray();
            QCOMPARE(r.size(), 1);
            QCOMPARE(r[0].toObject()["backend"].toString(), QString("gpu"));
            return;
        }
        QCOMPARE(code, 1);
        QVERIFY2(err.contains("no usable GPU module") && err.contains("run with --backends cpu"), err.constData());
    }

    // A FIFO with no writer would block a reader forever: it is refused before it is opened.
    void fifoIsRefused()
    {
        const QString fifo = m_dir.filePath("fifo.csv");
        QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        QByteArray err;
        QCOMPARE(run({"vpoc", "--input", fifo}, nullptr, &err), 2);
        QVERIFY2(err.contains("not a regular file"), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestVpocCli)
#include "tst_vpoc_cli.moc"
