// Bounded streaming log reading: head, tail and windows kept, the rest counted, long lines cut.
#include "core/diagnosis/log_reader.h"

#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <thread>

using namespace stackscope;

namespace {

LogReadResult readText(const std::string& text, const LogReadLimits& limits)
{
    std::istringstream in(text);
    return readLogStream(in, limits, [](std::string_view l) { return l.find("ERROR") != std::string_view::npos; });
}

// `text` as UTF-16 bytes, little- or big-endian, with or without a byte-order mark (PowerShell's `>` writes LE + mark).
std::string utf16(const QString& text, bool bigEndian, bool mark)
{
    std::string out;
    auto put = [&](char16_t u) {
        const char hi = static_cast<char>(u >> 8);
        const char lo = static_cast<char>(u & 0xFF);
        out += bigEndian ? std::string {hi, lo} : std::string {lo, hi};
    };
    if (mark)
        put(0xFEFF);
    for (const QChar c : text)
        put(c.unicode());
    return out;
}

} // namespace

class TestLogReader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void smallLogIsKeptWhole()
    {
        const auto r = readText("a\nb\nERROR x\nc\n", LogReadLimits {});
        QCOMPARE(QString::fromStdString(r.text), QString("a\nb\nERROR x\nc\n"));
        QCOMPARE(r.linesSkipped, std::uint64_t(0));
        QVERIFY(r.summary().empty());
    }

    void keepsHeadWindowAndTail()
    {
        LogReadLimits l;
        l.headLines = 2;
        l.tailLines = 2;
        l.contextLines = 1;
        std::string text;
        for (int i = 1; i <= 100; ++i)
            text += (i == 50 ? "ERROR here" : "line " + std::to_string(i)) + "\n";
        const auto r = readText(text, l);
        QCOMPARE(QString::fromStdString(r.text), QString("line 1\nline 2\nline 49\nERROR here\nline 51\nline 99\nline 100\n"));
        QCOMPARE(r.lineNumbers, (std::vector<std::uint64_t> {1, 2, 49, 50, 51, 99, 100}));
        QCOMPARE(r.linesRead, std::uint64_t(100));
        QCOMPARE(r.linesSkipped, std::uint64_t(93));
        QVERIFY(r.summary().find("skipped 93 lines") != std::string::npos);
    }

    // Issue 36 row 14: a UTF-16 log was read as bytes with a NUL between letters, so no rule matched.
    void decodesUtf16_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("decodedFrom");
        const QString log = QStringLiteral("PS> python train.py\r\nERROR: invalid device function \u00e9\U0001F525\r\n");
        const QString want = QStringLiteral("PS> python train.py\r\nERROR: invalid device function \u00e9\U0001F525\r\n");
        auto bytes = [](const std::string& b) { return QByteArray(b.data(), static_cast<qsizetype>(b.size())); };
        QTest::newRow("UTF-16LE with mark FF FE") << bytes(utf16(log, false, true)) << want << "UTF-16LE";
        QTest::newRow("UTF-16BE with mark FE FF") << bytes(utf16(log, true, true)) << want << "UTF-16BE";
        QTest::newRow("UTF-16LE without a mark") << bytes(utf16(log, false, false)) << want << "UTF-16LE";
        QTest::newRow("UTF-16BE without a mark") << bytes(utf16(log, true, false)) << want << "UTF-16BE";
        QTest::newRow("UTF-8 mark dropped") << QByteArray("\xEF\xBB\xBF" "ERROR x\n") << "ERROR x\n" << "";
        QTest::newRow("UTF-8 kept") << QByteArray("ERROR x\n") << "ERROR x\n" << "";
        // Near misses: a few NULs in a text, or a binary blob, are no UTF-16.
        QTest::newRow("few NULs are bytes") << QByteArray("ERROR a\0b long enough line of text\n", 36)
                                            << QString::fromLatin1("ERROR a\0b long enough line of text\n", 36) << "";
        QTest::newRow("mark and nothing else") << QByteArray("\xFF\xFE") << "" << "UTF-16LE";
        QTest::newRow("odd byte at the end") << QByteArray("\xFF\xFE" "E\0R\0R\0\n\0x", 11) << QStringLiteral("ERR\n\uFFFD") << "UTF-16LE";
        QTest::newRow("lone surrogate") << bytes(utf16(QString(QChar(0xD800)) + "ERROR\n", false, true))
                                        << QStringLiteral("\uFFFDERROR\n") << "UTF-16LE";
    }
    void decodesUtf16()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        QFETCH(QString, decodedFrom);
        const auto r = readText(bytes.toStdString(), LogReadLimits {});
        QCOMPARE(QString::fromStdString(r.text), expected.isEmpty() || expected.endsWith('\n') ? expected : expected + '\n');
        QCOMPARE(QString::fromStdString(r.decodedFrom), decodedFrom);
        QCOMPARE(r.encodingNote().empty(), decodedFrom.isEmpty());
        QCOMPARE(r.bytesRead, std::uint64_t(bytes.size()));
    }

    // A long UTF-16 log: surrogate pairs split across the 64 KiB reads are joined again (each of 16 shifts puts a
    // pair across some boundary).
    void decodesUtf16AcrossChunks()
    {
        QString body;
        for (int i = 0; i < 8000; ++i)
            body += QStringLiteral("line %1 \U0001F525x\n").arg(i);
        body += QStringLiteral("ERROR: last\n");
        LogReadLimits all;
        all.headLines = 100000;
        for (int shift = 0; shift < 16; ++shift) {
            const QString log = QString(shift, QLatin1Char('a')) + body;
            std::istringstream in(utf16(log, false, true));
            const auto r = readLogStream(in, all, nullptr);
            QCOMPARE(QString::fromStdString(r.text), log);
        }
    }

    // Through a pipe read with read(2): pieces of odd sizes split code units between reads.
    void decodesUtf16FromAPipe()
    {
        QString log;
        for (int i = 0; i < 30000; ++i)
            log += QStringLiteral("line %1 \u00e9\U0001F525\n").arg(i);
        const std::string bytes = utf16(log, true, true);
        int fds[2];
        QCOMPARE(::pipe(fds), 0);
        std::thread writer([&] {
            for (std::size_t at = 0; at < bytes.size(); at += 4097) {
                const auto n = std::min<std::size_t>(4097, bytes.size() - at);
                if (::write(fds[1], bytes.data() + at, n) != static_cast<ssize_t>(n))
                    break;
            }
            ::close(fds[1]);
        });
        LogReadLimits all;
        all.headLines = 100000;
        const auto r = readLogFd(fds[0], all, nullptr);
        writer.join();
        ::close(fds[0]);
        QVERIFY(r.readError.empty());
        QCOMPARE(QString::fromStdString(r.decodedFrom), QStringLiteral("UTF-16BE"));
        QCOMPARE(QString::fromStdString(r.text), log);
    }

    // A read error (a folder given as the descriptor) is named, not taken for an empty log.
    void readErrorIsNamed()
    {
        const int fd = ::open("/", O_RDONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        const auto r = readLogFd(fd, LogReadLimits {}, nullptr);
        ::close(fd);
        QVERIFY2(r.readError.find("folder") != std::string::npos, r.readError.c_str());
        QCOMPARE(r.linesRead, std::uint64_t(0));
    }

    void cutsLongLines()
    {
        LogReadLimits l;
        l.maxLineBytes = 8;
        const auto r = readText(std::string(100, 'x') + "\nERROR\n", l);
        QCOMPARE(QString::fromStdString(r.text), QString("xxxxxxxx\nERROR\n"));
        QCOMPARE(r.longLinesCut, std::uint64_t(1));
        QCOMPARE(r.bytesSkipped, std::uint64_t(92));
    }

    void noNewlineAtAll()
    {
        LogReadLimits l;
        l.maxLineBytes = 16;
        const auto r = readText(std::string(1 << 20, '\0'), l);
        QCOMPARE(r.text.size(), std::size_t(17));
        QCOMPARE(r.bytesRead, std::uint64_t(1 << 20));
    }

    // Memory stays bounded whatever the input: 400k matching lines keep at most head + kept + tail lines.
    void keptTextIsBounded()
    {
        LogReadLimits l;
        std::string text;
        for (int i = 0; i < 400000; ++i)
            text += "ERROR repeated keyword line\n";
        const auto r = readText(text, l);
        QVERIFY(r.lineNumbers.size() <= l.headLines + l.maxKeptLines + l.tailLines + l.contextLines + 1);
        QVERIFY(r.text.size() <= (l.headLines + l.maxKeptLines + l.tailLines + l.contextLines + 1) * (l.maxLineBytes + 1));
        QCOMPARE(r.linesRead, std::uint64_t(400000));
        QCOMPARE(r.lineNumbers.back(), std::uint64_t(400000));
    }

    void keywordsFindRuleTexts()
    {
        QVERIFY(interestingLine("RuntimeError: HIP error: invalid device function"));
        QVERIFY(interestingLine("HW Exception by GPU node-1 (Agent handle: 0x1) reason :GPU Hang"));
        QVERIFY(!interestingLine("100%|####| 20/20 [00:27<00:00,  1.36s/it]"));
        QVERIFY(!interestingLine("y"));
        // Symptom words are not keywords: ordinary training lines must not fill the kept-lines budget.
        QVERIFY(!interestingLine("epoch 1 param group 0 program step frame 7"));
    }
};

QTEST_GUILESS_MAIN(TestLogReader)
#include "tst_log_reader.moc"
