// Hostile input, round three (issue 36 rows 7, 9, 10 and 14): every VPOC input that names a size has a bound, and
// outputs and inputs that are streams or cut short get a result or a clear exit 2. Through stackscope-cli, and the
// GPU backend's path in process (runVpocBatched with computeBatchCpu: no GPU needed).
#include "tests/common/cli_process.h"

#include "core/vpoc/vpoc_engine.h"
#include "core/util/task_runner.h"

#include <QtTest/QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace stackscope::vpoc;
using stackscope::usableThreads;

namespace {

// 2024-03-11 13:30 UTC, inside the globex session of that day.
constexpr qint64 kStart = 1710163800;

// The generator of the hostile files (tests/bench/RESULTS.md, "Hostile input round 3" uses the same shapes):
// `wide` first bars spanning 100 .. 262243 (1,048,572 levels of 0.25, just within one session's 2^20), each on its
// own day when `daily`, then `narrow` one-level bars one second apart in the first session.
QByteArray hostileBars(int wide, bool daily, int narrow)
{
    QByteArray out = "timestamp,open,high,low,close,volume\n";
    for (int d = 0; d < wide; ++d)
        out += QByteArray::number(kStart + (daily ? qint64(d) * 86400 : d)) + ",100,262243,100,100,4000000000\n";
    for (int i = 0; i < narrow; ++i)
        out += QByteArray::number(kStart + 60 + i) + ",5000,5001,5000,5000," + QByteArray::number(1 + i % 7) + "\n";
    return out;
}

// `sessions` days of one bar each spanning `points` price points.
QByteArray dailyBars(int sessions, int points)
{
    QByteArray out = "timestamp,open,high,low,close,volume\n";
    for (int d = 0; d < sessions; ++d)
        out += QByteArray::number(kStart + qint64(d) * 86400) + ",100," + QByteArray::number(100 + points) +
               ",100,100,1000\n";
    return out;
}

} // namespace

class TestVpocBounds : public QObject {
    Q_OBJECT
    QString m_cli = qEnvironmentVariable("STACKSCOPE_CLI");
    QTemporaryDir m_dir;
    QString m_sample; // a day of sample bars

    QString write(const QString& name, const QByteArray& content)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(content) != content.size())
            return {};
        return path;
    }
    static QString fixture(const QString& name) { return QString(STACKSCOPE_TEST_FIXTURES) + "/market/" + name; }

private Q_SLOTS:
    void initTestCase()
    {
        if (m_cli.isEmpty())
            QSKIP("STACKSCOPE_CLI is not set; run through ctest");
        QVERIFY(m_dir.isValid());
        m_sample = m_dir.filePath("sample.csv");
        QCOMPARE(stackscope::test::runCli({"sample-data", "--out", m_sample, "--days", "2"}).exitCode, 0);
    }

    // Row 7: a thread count beyond the machine's is capped and said (it aborted or ran out of memory); one that is
    // not a whole number is a usage error. `%in` is the sample file.
    void threads_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("stderrHas");
        QTest::addColumn<bool>("jsonNote"); // vpoc --json: "threads_note" says the cap
        const QStringList vpoc {"vpoc", "--input", "%in", "--backend", "cpu", "--json", "--threads"};
        for (const char* n : {"40000", "100000", "4000000000", "5000000000"})
            QTest::newRow(qPrintable(QString("vpoc %1").arg(n))) << vpoc + QStringList {n} << 0 << "capped at" << true;
        for (const char* n : {"-1", "abc", "", "1.5", "+2"})
            QTest::newRow(qPrintable(QString("vpoc '%1'").arg(n)))
                << vpoc + QStringList {n} << 2 << "not a thread count" << false;
        const QStringList bench {"bench", "vpoc", "--trades-log2", "10", "--sessions", "2", "--repeats", "1",
                                 "--no-gpu", "--no-torch", "--threads"};
        QTest::newRow("bench vpoc 40000") << bench + QStringList {"1,40000"} << 0 << "capped at" << false;
        QTest::newRow("bench vpoc 99999999999") << bench + QStringList {"99999999999"} << 0 << "capped at" << false;
        QTest::newRow("bench vpoc -1") << bench + QStringList {"-1"} << 2 << "not a thread count" << false;
        QTest::newRow("bench vpoc-e2e 40000")
            << QStringList {"bench", "vpoc-e2e", "--input", "%in", "--backends", "cpu", "--no-duckdb", "--repeats",
                            "1", "--threads", "40000"}
            << 0 << "capped at" << false;
    }
    void threads()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, stderrHas);
        QFETCH(bool, jsonNote);
        args.replaceInStrings("%in", m_sample);
        const auto r = stackscope::test::runCli(args);
        QVERIFY2(r.exitCode == code, qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(QString(r.err))));
        QVERIFY2(QString(r.err).contains(stderrHas), r.err.constData());
        if (jsonNote) {
            const auto j = QJsonDocument::fromJson(r.out).object();
            QVERIFY2(j["threads_note"].toString().contains("capped at"), r.out.left(400).constData());
            QVERIFY(j["threads"].toInt() >= 1 && j["threads"].toInt() <= int(usableThreads()));
            QCOMPARE(j["sessions"].toArray().size(), 2);
        }
    }

    // Row 9: the profiles of all sessions together are bounded (2^20 levels a session was the only bound: 60 wide
    // sessions gave 2.2 GB of memory and 692 MB of JSON); refused before they are copied, naming the fix.
    void profiles_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("threads");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("stderrHas");
        const QByteArray wide = hostileBars(60, true, 0);
        QTest::newRow("60 wide sessions, 1 thread") << wide << "1" << 2 << "a coarser --tick";
        QTest::newRow("60 wide sessions, 2 threads") << wide << "2" << 2 << "leave out --profiles";
        QTest::newRow("8 wide sessions (within the total)") << hostileBars(8, true, 0) << "2" << 0 << "";
        QTest::newRow("60 sessions of 250 points") << dailyBars(60, 250) << "2" << 0 << "";
    }
    void profiles()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, threads);
        QFETCH(int, code);
        QFETCH(QString, stderrHas);
        const QString in = write("profiles.csv", content);
        const auto r = stackscope::test::runCli(
            {"vpoc", "--input", in, "--backend", "cpu", "--profiles", "--json", "--threads", threads});
        QVERIFY2(r.exitCode == code, qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(QString(r.err))));
        QVERIFY2(QString(r.err).contains(stderrHas), r.err.constData());
        if (code == 0) {
            const auto sessions = QJsonDocument::fromJson(r.out).object()["sessions"].toArray();
            QVERIFY(!sessions.isEmpty());
            QVERIFY(!sessions[0].toObject()["profile"].toArray().isEmpty());
        } else {
            QVERIFY(r.out.isEmpty());
        }
    }

    // Row 10: --developing's work is rows x session width; past its budget the run stops at the row with exit 2
    // (one 2^20-level bar then 50,000 bars took 62 s). Nothing is written then.
    void developing_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("stderrHas");
        QTest::newRow("one wide bar, then 6,000 bars") << hostileBars(1, false, 6000) << 2 << "--developing: the session";
        QTest::newRow("6,000 narrow bars") << hostileBars(0, false, 6000) << 0 << "";
    }
    void developing()
    {
        QFETCH(QByteArray, content);
        QFETCH(int, code);
        QFETCH(QString, stderrHas);
        const QString in = write("developing.csv", content);
        const QString out = m_dir.filePath("developing-out.csv");
        QFile::remove(out);
        const auto r = stackscope::test::runCli({"vpoc", "--input", in, "--backend", "cpu", "--developing", out});
        QVERIFY2(r.exitCode == code, qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(QString(r.err))));
        QVERIFY2(QString(r.err).contains(stderrHas), r.err.constData());
        if (code != 0) {
            QVERIFY2(r.err.contains("coarser --tick") && r.err.contains("leave out --developing"), r.err.constData());
            QVERIFY(!QFile::exists(out));
        } else {
            QVERIFY(QFile(out).size() > 6000 * 20);
        }
    }
    // The same budget on the GPU backend's path (rows gathered into batches), in process.
    void developingBatched_data() { developing_data(); }
    void developingBatched()
    {
        QFETCH(QByteArray, content);
        QFETCH(int, code);
        QFETCH(QString, stderrHas);
        VpocOptions vo;
        vo.input = write("developing-batched.csv", content).toStdString();
        vo.developing = true;
        vo.threads = 1;
        std::string error;
        try {
            runVpocBatched(vo, [](const BatchView& batch, const ProfileOptions& options) {
                return computeBatchCpu(batch, options, 1);
            });
        } catch (const InputError& e) {
            error = e.what();
        }
        QCOMPARE(error.empty(), code == 0);
        QVERIFY2(QString::fromStdString(error).contains(stderrHas), error.c_str());
    }

    // Row 14: the session table into a pipe (or a file) named as standard output; it exited 2 ("cannot create a
    // file there": /dev/stdout leads to /proc/self/fd/pipe:[N]).
    void csvToStandardOutput_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("shell"); // what follows the command: a pipe or a redirection
        QTest::newRow("/dev/stdout into a pipe") << "/dev/stdout" << "| cat";
        QTest::newRow("/proc/self/fd/1 into a pipe") << "/proc/self/fd/1" << "| cat";
        QTest::newRow("/dev/fd/1 into a pipe") << "/dev/fd/1" << "| cat";
        QTest::newRow("/dev/stdout into a file") << "/dev/stdout" << "> '%dir/redirected.csv'; cat '%dir/redirected.csv'";
        QTest::newRow("- into a pipe") << "-" << "| cat";
    }
    void csvToStandardOutput()
    {
        QFETCH(QString, target);
        QFETCH(QString, shell);
        shell.replace("%dir", m_dir.path());
        QProcess p;
        p.start("bash", {"-o", "pipefail", "-c", QString("'%1' vpoc --input '%2' --backend cpu --csv %3 %4").arg(m_cli, m_sample, target, shell)});
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput();
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, err.constData());
        QVERIFY2(out.startsWith("date,first,last,bars,volume"), out.left(200).constData());
        QCOMPARE(out.count('\n'), 3); // the header and two sessions
    }

    // Row 14: a .zst cut short, its checksum (the last 4 bytes of a frame with the content-checksum flag) or more
    // gone, was read as complete.
    void truncatedZstd_data()
    {
        QTest::addColumn<int>("cut");
        QTest::addColumn<int>("code");
        QTest::newRow("whole") << 0 << 0;
        QTest::newRow("checksum gone (4 bytes)") << 4 << 2;
        QTest::newRow("one byte of the checksum gone") << 1 << 2;
        QTest::newRow("checksum and a block's end gone") << 20 << 2;
    }
    void truncatedZstd()
    {
        QFETCH(int, cut);
        QFETCH(int, code);
        QFile whole(fixture("test_data.trades.v3.dbn.zst"));
        QVERIFY(whole.open(QIODevice::ReadOnly));
        const QByteArray bytes = whole.readAll();
        QVERIFY(bytes.size() > 40 && (uchar(bytes[4]) & 0x04)); // the frame has a content checksum
        const QString in = write("cut.dbn.zst", bytes.left(bytes.size() - cut));
        const auto r = stackscope::test::runCli({"vpoc", "--input", in, "--backend", "cpu", "--json"});
        QVERIFY2(r.exitCode == code, qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(QString(r.err))));
        if (code != 0)
            QVERIFY2((r.err.contains("truncated") || r.err.contains("damaged")) && r.err.contains("again"),
                     r.err.constData());
    }

    // Row 14: DBN files carry their own schema; --format was ignored. It must agree, or the run is refused.
    void dbnFormat_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("format");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("stderrHas");
        QTest::newRow("trades as bars") << "test_data.trades.v3.dbn.zst" << "bars" << 2 << "schema is trades";
        QTest::newRow("trades as trades") << "test_data.trades.v3.dbn.zst" << "trades" << 0 << "";
        QTest::newRow("ohlcv as trades") << "test_data.ohlcv-1m.dbn" << "trades" << 2 << "schema is ohlcv-1m";
        QTest::newRow("ohlcv as bars") << "test_data.ohlcv-1m.dbn" << "bars" << 0 << "";
        QTest::newRow("ohlcv, auto") << "test_data.ohlcv-1m.v2.dbn.zst" << "auto" << 0 << "";
    }
    void dbnFormat()
    {
        QFETCH(QString, file);
        QFETCH(QString, format);
        QFETCH(int, code);
        QFETCH(QString, stderrHas);
        const auto r = stackscope::test::runCli(
            {"vpoc", "--input", fixture(file), "--backend", "cpu", "--format", format, "--json"});
        QVERIFY2(r.exitCode == code, qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(QString(r.err))));
        QVERIFY2(QString(r.err).contains(stderrHas), r.err.constData());
        if (code != 0)
            QVERIFY2(r.err.contains("leave --format at auto"), r.err.constData());
        else
            QCOMPARE(QJsonDocument::fromJson(r.out).object()["options"].toObject()["format"].toString(),
                     file.contains("trades") ? QString("trades") : QString("bars"));
    }
};

QTEST_GUILESS_MAIN(TestVpocBounds)
#include "tst_vpoc_bounds.moc"
