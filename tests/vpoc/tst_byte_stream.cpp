// ByteStream (the block reader under the DBN and SCID readers): a file that is truncated, grows or is rewritten
// while it is read throws InputError naming the file, instead of handing out a part of it (issue 21).
#include "core/vpoc/byte_stream.h"
#include "core/vpoc/market_data.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace stackscope::vpoc;

namespace {

constexpr size_t kFileBytes = 3u << 20; // three of ByteStream's 1 MiB blocks: a check happens after the first

std::string writeFile(const QTemporaryDir& dir)
{
    const std::string path = dir.filePath(QStringLiteral("data.dbn")).toStdString();
    std::ofstream out(path, std::ios::binary);
    std::string block(kFileBytes, '\0');
    for (size_t i = 0; i < block.size(); ++i)
        block[i] = static_cast<char>(i * 131 + 7);
    out.write(block.data(), static_cast<std::streamsize>(block.size()));
    return path;
}

// What happens to the file after the first block was read.
enum class Change { None, Truncated, Grown, Rewritten };

void apply(Change change, const std::string& path)
{
    switch (change) {
    case Change::None:
        return;
    case Change::Truncated:
        QVERIFY(::truncate(path.c_str(), static_cast<off_t>(kFileBytes / 2)) == 0);
        return;
    case Change::Grown: {
        std::ofstream(path, std::ios::binary | std::ios::app) << "appended by another program";
        return;
    }
    case Change::Rewritten: { // same size, a new modification time
        const timespec times[2] = {{0, UTIME_OMIT}, {1000000000, 0}};
        QVERIFY(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
        return;
    }
    }
}

} // namespace

Q_DECLARE_METATYPE(Change)

class TestByteStream : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void changeWhileReading_data()
    {
        QTest::addColumn<Change>("change");
        QTest::addColumn<bool>("throws");
        QTest::newRow("unchanged: read to the end") << Change::None << false;
        QTest::newRow("truncated") << Change::Truncated << true;
        QTest::newRow("grown") << Change::Grown << true;
        QTest::newRow("rewritten, same size") << Change::Rewritten << true;
    }
    void changeWhileReading()
    {
        QFETCH(Change, change);
        QFETCH(bool, throws);
        QTemporaryDir dir;
        const std::string path = writeFile(dir);
        ByteStream s(path);
        QVERIFY(!s.compressed());
        std::vector<char> buf(64 * 1024);
        QCOMPARE(s.read(buf.data(), 16), size_t(16));
        apply(change, path);
        size_t total = 16;
        try {
            while (const size_t n = s.read(buf.data(), buf.size()))
                total += n;
        } catch (const InputError& e) {
            QVERIFY2(throws, e.what());
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ":"), e.what());
            QVERIFY2(QString(e.what()).contains("changed while it was being read"), e.what());
            QVERIFY(total < kFileBytes); // not a byte past the change was handed out as the file's
            return;
        }
        QVERIFY2(!throws, "the change was not noticed");
        QCOMPARE(total, kFileBytes);
    }
};

QTEST_GUILESS_MAIN(TestByteStream)
#include "tst_byte_stream.moc"
