// readRegularFile: the one reader for small files anybody may have put in a folder. Regular files up to the cap are
// read; a FIFO, a link to /dev/zero, a folder, a missing file and a file over the cap are refused at once, with why.
#include "core/util/file_read.h"

#include <QtTest>

#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace stackscope;

class TestFileRead : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void read_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("cap");
        QTest::addColumn<bool>("read");
        QTest::addColumn<QString>("why"); // a part of the reason, when refused
        QTest::newRow("small regular file") << "file:hello\n" << 64 << true << "";
        QTest::newRow("exactly the cap") << "file:12345678" << 8 << true << "";
        QTest::newRow("one byte over the cap") << "file:123456789" << 8 << false << "larger than 8 bytes";
        QTest::newRow("empty file") << "file:" << 8 << true << "";
        QTest::newRow("FIFO nobody writes") << "fifo" << 64 << false << "not a regular file";
        QTest::newRow("link to /dev/zero") << "link:/dev/zero" << 64 << false << "not a regular file";
        QTest::newRow("link to /dev/urandom") << "link:/dev/urandom" << 64 << false << "not a regular file";
        QTest::newRow("folder") << "dir" << 64 << false << "not a regular file";
        QTest::newRow("missing") << "missing" << 64 << false << "No such file";
        QTest::newRow("dangling link") << "link:/nonexistent/x" << 64 << false << "No such file";
    }

    void read()
    {
        QFETCH(QString, kind);
        QFETCH(int, cap);
        QFETCH(bool, read);
        QFETCH(QString, why);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("f")).toStdString();
        const std::string k = kind.toStdString();
        std::string content;
        if (k.rfind("file:", 0) == 0) {
            content = k.substr(5);
            std::ofstream(path, std::ios::binary) << content;
        } else if (k == "fifo") {
            QCOMPARE(::mkfifo(path.c_str(), 0600), 0);
        } else if (k.rfind("link:", 0) == 0) {
            QCOMPARE(::symlink(k.substr(5).c_str(), path.c_str()), 0);
        } else if (k == "dir") {
            QVERIFY(QDir().mkdir(QString::fromStdString(path)));
        }
        std::string reason;
        const auto got = readRegularFile(path, static_cast<std::size_t>(cap), &reason);
        QCOMPARE(got.has_value(), read);
        if (read)
            QCOMPARE(*got, content);
        else
            QVERIFY2(reason.find(why.toStdString()) != std::string::npos, reason.c_str());
    }

    // readFileHead: the first bytes by design; a longer file is cut, never refused; the refusals are the same.
    void head_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("maxBytes");
        QTest::addColumn<QString>("expected"); // "!reason" when refused
        QTest::newRow("shorter than the head") << "file:abc" << 8 << "abc";
        QTest::newRow("exactly the head") << "file:12345678" << 8 << "12345678";
        QTest::newRow("longer: cut") << "file:123456789" << 8 << "12345678";
        QTest::newRow("head of nothing") << "file:abc" << 0 << "";
        QTest::newRow("FIFO nobody writes") << "fifo" << 8 << "!not a regular file";
        QTest::newRow("link to /dev/zero") << "link:/dev/zero" << 8 << "!not a regular file";
        QTest::newRow("missing") << "missing" << 8 << "!No such file";
        QTest::newRow("/proc file that says size 0") << "proc" << 5 << "Name:";
    }

    void head()
    {
        QFETCH(QString, kind);
        QFETCH(int, maxBytes);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        std::string path = dir.filePath(QStringLiteral("f")).toStdString();
        const std::string k = kind.toStdString();
        if (k.rfind("file:", 0) == 0)
            std::ofstream(path, std::ios::binary) << k.substr(5);
        else if (k == "fifo")
            QCOMPARE(::mkfifo(path.c_str(), 0600), 0);
        else if (k.rfind("link:", 0) == 0)
            QCOMPARE(::symlink(k.substr(5).c_str(), path.c_str()), 0);
        else if (k == "proc")
            path = "/proc/self/status";
        std::string reason;
        const auto got = readFileHead(path, static_cast<std::size_t>(maxBytes), &reason);
        const std::string want = expected.toStdString();
        if (!want.empty() && want[0] == '!') {
            QVERIFY(!got);
            QVERIFY2(reason.find(want.substr(1)) != std::string::npos, reason.c_str());
        } else {
            QVERIFY2(got, reason.c_str());
            QCOMPARE(*got, want);
        }
    }

    // A /proc file says size 0 and still has text: read to its end, within the cap.
    void procFile()
    {
        const auto got = readRegularFile("/proc/self/status", 1 << 20);
        QVERIFY(got);
        QVERIFY(got->find("Name:") != std::string::npos);
        std::string reason;
        QVERIFY(!readRegularFile("/proc/self/status", 16, &reason));
        QVERIFY2(reason.find("larger than 16 bytes") != std::string::npos, reason.c_str());
    }
};

QTEST_GUILESS_MAIN(TestFileRead)
#include "tst_file_read.moc"
