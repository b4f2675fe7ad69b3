// Output paths through the commands that write (sample-data --out, inspect --out, vpoc --csv/--developing):
// links followed, FIFOs and "-" written directly, folders and unread FIFOs refused with exit 2, sets all-or-nothing.
#include "tests/common/cli_process.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

namespace {

using stackscope::test::runCli;

mode_t lmode(const QString& path)
{
    struct stat st {};
    return ::lstat(path.toLocal8Bit().constData(), &st) == 0 ? st.st_mode : 0;
}

QString barsFixture()
{
    return QStringLiteral(STACKSCOPE_TEST_FIXTURES "/vpoc/hand_bars.csv");
}

QString rootFixture()
{
    return QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/debian12-nogpu");
}

} // namespace

class TestCliOutputs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(!qEnvironmentVariable("STACKSCOPE_CLI").isEmpty(), "STACKSCOPE_CLI not set by CTest"); }

    void dashIsStandardOutput()
    {
        const auto r = runCli({"sample-data", "--days", "1", "--out", "-"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("\ntimestamp,open,high,low,close"), r.out.left(200).constData());
    }

    void symlinkKeptTargetWritten()
    {
        QTemporaryDir dir;
        const QString link = dir.filePath(QStringLiteral("latest.csv"));
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("real.csv")), link));
        const auto r = runCli({"sample-data", "--days", "1", "--out", link});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(S_ISLNK(lmode(link)));
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("real.csv"))).size() > 1000);
    }

    void refusedTargetsExit2_data()
    {
        QTest::addColumn<QStringList>("args"); // %1 is the target path
        QTest::addColumn<QString>("stderrHas");
        QTest::newRow("sample-data into a folder") << QStringList {"sample-data", "--days", "1", "--out", "%1/sub"}
                                                   << "a folder";
        QTest::newRow("inspect --out an unread FIFO")
            << QStringList {"inspect", "--no-archscan", "--root", rootFixture(), "--out", "%1/fifo"}
            << "no program is reading";
        QTest::newRow("sample-data into an unread FIFO") << QStringList {"sample-data", "--days", "1", "--out", "%1/fifo"}
                                                         << "no program is reading";
        QTest::newRow("vpoc --csv into an unread FIFO") << QStringList {"vpoc", "--input", barsFixture(), "--csv", "%1/fifo"}
                                                        << "no program is reading";
        QTest::newRow("vpoc --developing into a folder")
            << QStringList {"vpoc", "--input", barsFixture(), "--developing", "%1/sub"} << "a folder";
    }
    void refusedTargetsExit2()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, stderrHas);
        QTemporaryDir dir;
        QVERIFY(QDir().mkdir(dir.filePath(QStringLiteral("sub"))));
        QCOMPARE(::mkfifo(dir.filePath(QStringLiteral("fifo")).toLocal8Bit().constData(), 0600), 0);
        for (auto& a : args)
            a.replace(QStringLiteral("%1"), dir.path());
        const auto r = runCli(args, {}, QProcessEnvironment::systemEnvironment(), 60000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(stderrHas), r.err.constData());
        QVERIFY(S_ISDIR(lmode(dir.filePath(QStringLiteral("sub")))));
        QVERIFY(S_ISFIFO(lmode(dir.filePath(QStringLiteral("fifo")))));
        QCOMPARE(QDir(dir.filePath(QStringLiteral("sub"))).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 0);
    }

    void fifoWithReader()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("fifo"));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        QByteArray got;
        std::thread reader([&] {
            const int fd = ::open(fifo.toLocal8Bit().constData(), O_RDONLY); // waits for the writer
            char buf[65536];
            ssize_t n = 0;
            while ((n = ::read(fd, buf, sizeof buf)) > 0)
                got.append(buf, static_cast<int>(n));
            ::close(fd);
        });
        // The reader is waiting in open() before the command starts writing: give it a moment, bounded.
        QThread::msleep(200);
        const auto r = runCli({"sample-data", "--days", "1", "--out", fifo});
        if (r.exitCode != 0)
            ::close(::open(fifo.toLocal8Bit().constData(), O_WRONLY)); // release the reader
        reader.join();
        QCOMPARE(r.exitCode, 0);
        QVERIFY(got.contains("\ntimestamp,open,high,low,close"));
        QVERIFY(S_ISFIFO(lmode(fifo)));
    }

    // Root only: a temporary node for /dev/full's device number, so no system device is at stake.
    void fullDeviceExit2_data()
    {
        QTest::addColumn<QStringList>("args"); // the node's path is appended
        QTest::newRow("sample-data --out") << QStringList {"sample-data", "--days", "1", "--out"};
        QTest::newRow("vpoc --csv") << QStringList {"vpoc", "--input", barsFixture(), "--csv"};
        QTest::newRow("vpoc --developing") << QStringList {"vpoc", "--input", barsFixture(), "--developing"};
    }
    void fullDeviceExit2()
    {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        const QString full = dir.filePath(QStringLiteral("full"));
        if (::mknod(full.toLocal8Bit().constData(), S_IFCHR | 0600, makedev(1, 7)) != 0)
            QSKIP("mknod needs root (CAP_MKNOD)");
        const int probe = ::open(full.toLocal8Bit().constData(), O_WRONLY);
        if (probe < 0)
            QSKIP("device nodes cannot be opened in the temporary folder (a nodev mount)");
        ::close(probe);
        const auto r = runCli(args << full);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("write failed"), r.err.constData());
        QVERIFY(S_ISCHR(lmode(full)));
    }

    void vpocOutputsTogether()
    {
        QTemporaryDir dir;
        const QString data = dir.filePath(QStringLiteral("bars.csv"));
        QCOMPARE(runCli({"sample-data", "--days", "2", "--out", data}).exitCode, 0);
        const QString developing = dir.filePath(QStringLiteral("developing.csv"));
        auto r = runCli({"vpoc", "--input", data, "--developing", developing, "--csv",
                         dir.filePath(QStringLiteral("missing/sessions.csv"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!QFile::exists(developing));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // only the input, no temporary file
        r = runCli({"vpoc", "--input", data, "--developing", developing, "--csv", dir.filePath(QStringLiteral("s.csv"))});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFile::exists(developing) && QFile::exists(dir.filePath(QStringLiteral("s.csv"))));
    }

    // Issue 36 row 14: a bad TMPDIR gave exit 1 and a bare "filesystem error: temp_directory_path" (bench vpoc-e2e), or
    // exit 2 advising to "choose a folder" (vpoc streaming to stdout). Now exit 2 naming TMPDIR and what to do.
    void badTmpdirExit2_data()
    {
        QTest::addColumn<QString>("tmpdir");
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("problem");
        for (const char* command : {"vpoc --csv -", "bench vpoc-e2e", "train --nproc 2"}) {
            QTest::addRow("missing, %s", command) << "%1/missing" << command << "no such folder";
            QTest::addRow("a file, %s", command) << "%1/afile" << command << "not a folder";
            // /sys refuses new files even to root (a chmod 0500 folder would not stop root).
            QTest::addRow("not writable, %s", command) << "/sys" << command << "";
        }
    }
    void badTmpdirExit2()
    {
        QFETCH(QString, tmpdir);
        QFETCH(QString, command);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("afile")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        tmpdir.replace(QStringLiteral("%1"), dir.path());
        if (tmpdir == QStringLiteral("/sys")) {
            // Only a mounted sysfs refuses root's files; a chroot or container without it has a plain, writable /sys.
            QFile probe(QStringLiteral("/sys/stackscope-write-probe"));
            if (probe.open(QIODevice::WriteOnly)) {
                probe.close();
                probe.remove();
                QSKIP("/sys is writable here (no sysfs mounted, as in a bare chroot): this row needs a folder root cannot write");
            }
        }
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TMPDIR"), tmpdir);
        // train: the launcher's folder for its ranks' configuration and status files.
        const QStringList args = command.startsWith(QStringLiteral("vpoc"))
            ? QStringList {"vpoc", "--input", barsFixture(), "--tick", "0.25", "--csv", "-"}
            : command.startsWith(QStringLiteral("train"))
            ? QStringList {"train", "--input", barsFixture(), "--output", dir.filePath(QStringLiteral("run")), "--nproc",
                           "2", "--device", "cpu", "--epochs", "1"}
            : QStringList {"bench", "vpoc-e2e", "--days", "1"};
        const auto r = runCli(args, {}, env, 60000);
        QCOMPARE(r.exitCode, 2);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains("TMPDIR=" + tmpdir + ": " + problem), r.err.constData());
        QVERIFY2(err.contains("unset TMPDIR to use /tmp"), r.err.constData());
        QVERIFY2(r.out.isEmpty(), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliOutputs)
#include "tst_cli_outputs.moc"
