// writeFileAtomically and StagedOutputs against what an output path can name: files, links, FIFOs, devices.
#include "core/util/atomic_file.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

using stackscope::FileWriteError;
using stackscope::OutputStreams;
using stackscope::StagedOutputs;
using stackscope::writeFileAtomically;

namespace {

std::string slurp(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return "<unreadable>";
    return f.readAll().toStdString();
}

mode_t lmode(const QString& path)
{
    struct stat st {};
    return ::lstat(path.toLocal8Bit().constData(), &st) == 0 ? st.st_mode : 0;
}

// The message of the FileWriteError `fn` throws, or "<no error>".
template <typename Fn>
QString errorOf(Fn fn)
{
    try {
        fn();
    } catch (const FileWriteError& e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("<no error>");
}

int filesIn(const QTemporaryDir& dir)
{
    return static_cast<int>(QDir(dir.path()).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot).size());
}

} // namespace

class TestOutputPaths : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void newAndRegularFiles()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("out.csv"));
        writeFileAtomically(p.toStdString(), "one\n");
        QCOMPARE(slurp(p), std::string("one\n"));
        ::chmod(p.toLocal8Bit().constData(), 0600);
        writeFileAtomically(p.toStdString(), "two\n");
        QCOMPARE(slurp(p), std::string("two\n"));
        QCOMPARE(lmode(p) & 07777, mode_t(0600)); // the replaced file's permissions are kept
        QCOMPARE(filesIn(dir), 1);                // no temporary file left
    }

    void symlinkIsFollowed()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("real.csv"));
        const QString link = dir.filePath(QStringLiteral("link.csv"));
        QVERIFY(QFile::link(QStringLiteral("real.csv"), link)); // relative link, resolved beside it
        writeFileAtomically(link.toStdString(), "via link\n"); // dangling: the target is created
        QVERIFY(S_ISLNK(lmode(link)));
        QCOMPARE(slurp(target), std::string("via link\n"));
        writeFileAtomically(link.toStdString(), "again\n");
        QVERIFY(S_ISLNK(lmode(link)));
        QCOMPARE(slurp(target), std::string("again\n"));
        QCOMPARE(filesIn(dir), 2);
    }

    void symlinkLoopRefused()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a"));
        const QString b = dir.filePath(QStringLiteral("b"));
        QVERIFY(QFile::link(b, a));
        QVERIFY(QFile::link(a, b));
        const QString e = errorOf([&] { writeFileAtomically(a.toStdString(), "x"); });
        QVERIFY2(e.contains(QStringLiteral("symbolic links in a row")), qPrintable(e));
        QVERIFY(S_ISLNK(lmode(a)) && S_ISLNK(lmode(b)));
    }

    void fifoWithReaderGetsTheBytes()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe"));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        std::string received;
        std::thread reader([&] {
            const int fd = ::open(fifo.toLocal8Bit().constData(), O_RDONLY);
            char buf[4096];
            ssize_t n = 0;
            while ((n = ::read(fd, buf, sizeof buf)) > 0)
                received.append(buf, static_cast<size_t>(n));
            ::close(fd);
        });
        // The writer refuses a FIFO with no reader, so wait (bounded) until the reader has it open.
        QString e;
        for (int attempt = 0; attempt < 200; ++attempt) {
            e = errorOf([&] { writeFileAtomically(fifo.toStdString(), std::string(200000, 'v')); });
            if (!e.contains(QStringLiteral("no program is reading")))
                break;
            QThread::msleep(10);
        }
        if (e != QStringLiteral("<no error>"))
            ::close(::open(fifo.toLocal8Bit().constData(), O_WRONLY)); // lets the reader's open() return
        reader.join();
        QCOMPARE(e, QStringLiteral("<no error>"));
        QCOMPARE(received.size(), size_t(200000));
        QVERIFY(S_ISFIFO(lmode(fifo)));
    }

    void fifoWithoutReaderRefusedAtOnce()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe"));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        const QString e = errorOf([&] { writeFileAtomically(fifo.toStdString(), "x"); });
        QVERIFY2(e.contains(QStringLiteral("no program is reading")), qPrintable(e));
        QVERIFY(S_ISFIFO(lmode(fifo)));
        QCOMPARE(filesIn(dir), 1);
        const QString set = errorOf([&] { writeFileAtomically(fifo.toStdString(), "x", OutputStreams::Refuse); });
        QVERIFY2(set.contains(QStringLiteral("a stream")), qPrintable(set));
    }

    void linkToDevNullWritesThrough()
    {
        QTemporaryDir dir;
        const QString link = dir.filePath(QStringLiteral("null"));
        QVERIFY(QFile::link(QStringLiteral("/dev/null"), link));
        writeFileAtomically(link.toStdString(), "discarded\n");
        QVERIFY(S_ISLNK(lmode(link)));
        QVERIFY(S_ISCHR(lmode(QStringLiteral("/dev/null"))));
    }

    void folderAndSocketRefused()
    {
        QTemporaryDir dir;
        const QString sub = dir.filePath(QStringLiteral("sub"));
        QVERIFY(QDir().mkdir(sub));
        QString e = errorOf([&] { writeFileAtomically(sub.toStdString(), "x"); });
        QVERIFY2(e.contains(QStringLiteral("a folder")), qPrintable(e));
        QVERIFY(S_ISDIR(lmode(sub)));

        const QString sock = dir.filePath(QStringLiteral("sock"));
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un addr {};
        addr.sun_family = AF_UNIX;
        std::strncpy(addr.sun_path, sock.toLocal8Bit().constData(), sizeof addr.sun_path - 1);
        QCOMPARE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        e = errorOf([&] { writeFileAtomically(sock.toStdString(), "x"); });
        ::close(fd);
        QVERIFY2(e.contains(QStringLiteral("a socket")), qPrintable(e));
        QVERIFY(S_ISSOCK(lmode(sock)));
    }

    // Device nodes made in a temporary folder (root only): a mistake here replaces the temporary node,
    // never a system device. 1:7 behaves as /dev/full; 1:8 (/dev/random) is not an output StackScope writes.
    void deviceNodesInTempFolder()
    {
        QTemporaryDir dir;
        const QString full = dir.filePath(QStringLiteral("full"));
        const QString random = dir.filePath(QStringLiteral("random"));
        if (::mknod(full.toLocal8Bit().constData(), S_IFCHR | 0600, makedev(1, 7)) != 0)
            QSKIP("mknod needs root (CAP_MKNOD); the device rows run where the suite runs as root");
        QCOMPARE(::mknod(random.toLocal8Bit().constData(), S_IFCHR | 0600, makedev(1, 8)), 0);
        const int probe = ::open(full.toLocal8Bit().constData(), O_WRONLY);
        if (probe < 0)
            QSKIP("device nodes cannot be opened in the temporary folder (a nodev mount)");
        ::close(probe);
        QString e = errorOf([&] { writeFileAtomically(full.toStdString(), "x"); });
        QVERIFY2(e.contains(QString::fromLocal8Bit(std::strerror(ENOSPC))), qPrintable(e));
        QVERIFY(S_ISCHR(lmode(full)));
        e = errorOf([&] { writeFileAtomically(random.toStdString(), "x"); });
        QVERIFY2(e.contains(QStringLiteral("a device")), qPrintable(e));
        QVERIFY(S_ISCHR(lmode(random)));
        QCOMPARE(filesIn(dir), 2);
    }

    // A file size limit stands in for a full disk: the write fails, the old file stays whole.
    void fullDiskKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("out.csv"));
        writeFileAtomically(p.toStdString(), "old\n");
        rlimit old {};
        QCOMPARE(::getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto previous = std::signal(SIGXFSZ, SIG_IGN); // EFBIG instead of the signal
        rlimit small = old;
        small.rlim_cur = 4096;
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
        const QString e = errorOf([&] { writeFileAtomically(p.toStdString(), std::string(100000, 'n')); });
        ::setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, previous);
        QVERIFY2(e.contains(QStringLiteral("write failed")), qPrintable(e));
        QCOMPARE(slurp(p), std::string("old\n"));
        QCOMPARE(filesIn(dir), 1);
    }

    // open()/append(): an output written in pieces lands whole at commit, beside one staged whole; nothing
    // (not even a temporary file) is left when the set is not committed.
    void openedOutputsArePartOfTheSet()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("developing.csv"));
        const QString b = dir.filePath(QStringLiteral("sessions.csv"));
        std::string want;
        {
            StagedOutputs set;
            const auto out = set.open(a.toStdString());
            set.stage(b.toStdString(), "b\n");
            for (int i = 0; i < 30000; ++i) { // 30000 * ~70 B: more than the 1 MiB buffer, so it is written as it goes
                const std::string piece = "2024-03-04,2024-03-04T09:30:00-05:00,5000.25,5001.00,4999.50 row " + std::to_string(i) + "\n";
                set.append(out, piece);
                want += piece;
            }
            QCOMPARE(filesIn(dir), 2); // two temporary files, no outputs yet
            QVERIFY(!QFile::exists(a) && !QFile::exists(b));
        } // not committed
        QCOMPARE(filesIn(dir), 0);

        StagedOutputs set;
        const auto out = set.open(a.toStdString());
        set.append(out, want);
        set.stage(b.toStdString(), "b\n");
        set.commit();
        QCOMPARE(slurp(a), want);
        QCOMPARE(slurp(b), std::string("b\n"));
        QCOMPARE(filesIn(dir), 2);
        // A target that cannot be written fails at open(), before anything was computed for it.
        const QString e = errorOf([&] { StagedOutputs bad; bad.open(dir.filePath(QStringLiteral("missing/x.csv")).toStdString()); });
        QVERIFY2(e.contains(QStringLiteral("cannot create a file there")), qPrintable(e));
    }

    void openedStreamIsSpooledUntilCommit()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe"));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        std::string received;
        std::thread reader([&] {
            const int fd = ::open(fifo.toLocal8Bit().constData(), O_RDONLY);
            char buf[4096];
            ssize_t n = 0;
            while ((n = ::read(fd, buf, sizeof buf)) > 0)
                received.append(buf, static_cast<size_t>(n));
            ::close(fd);
        });
        StagedOutputs set;
        const auto out = set.open(fifo.toStdString());
        const std::string piece(100000, 's');
        for (int i = 0; i < 25; ++i) // 2.5 MB: spooled through the 1 MiB buffer
            set.append(out, piece);
        QString e;
        for (int attempt = 0; attempt < 200; ++attempt) { // the reader may not have opened the FIFO yet
            e = errorOf([&] { set.commit(); });
            if (!e.contains(QStringLiteral("no program is reading")))
                break;
            QThread::msleep(10);
        }
        if (e != QStringLiteral("<no error>"))
            ::close(::open(fifo.toLocal8Bit().constData(), O_WRONLY)); // lets the reader's open() return
        reader.join();
        QCOMPARE(e, QStringLiteral("<no error>"));
        QCOMPARE(received.size(), size_t(2500000));
        QCOMPARE(filesIn(dir), 1); // the FIFO only: the spool file was never in this folder
    }

    void stagedSetAllOrNothing()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("developing.csv"));
        const QString bad = dir.filePath(QStringLiteral("missing/sessions.csv"));
        const QString e = errorOf([&] {
            StagedOutputs set;
            set.stage(a.toStdString(), "a\n");
            set.stage(bad.toStdString(), "b\n");
            set.commit();
        });
        QVERIFY2(e.contains(QStringLiteral("cannot create a file there")), qPrintable(e));
        QCOMPARE(filesIn(dir), 0); // neither the first output nor a temporary file

        const QString b = dir.filePath(QStringLiteral("sessions.csv"));
        StagedOutputs set;
        set.stage(a.toStdString(), "a\n");
        set.stage(b.toStdString(), "b\n");
        QCOMPARE(filesIn(dir), 2); // two temporary files, no outputs yet
        QVERIFY(!QFile::exists(a) && !QFile::exists(b));
        set.commit();
        QCOMPARE(slurp(a), std::string("a\n"));
        QCOMPARE(slurp(b), std::string("b\n"));
        QCOMPARE(filesIn(dir), 2);
        const QString twice = errorOf([&] {
            StagedOutputs again;
            again.stage(a.toStdString(), "1");
            again.stage(a.toStdString(), "2");
        });
        QVERIFY2(twice.contains(QStringLiteral("named twice")), qPrintable(twice));
    }
};

QTEST_GUILESS_MAIN(TestOutputPaths)
#include "tst_output_paths.moc"
