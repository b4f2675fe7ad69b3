// Bounded streaming log reading: head, tail and windows kept, the rest counted, long lines cut.
#include "core/diagnosis/log_reader.h"

#include <QtTest>

#include <sstream>

using namespace stackscope;

namespace {

LogReadResult readText(const std::string& text, const LogReadLimits& limits)
{
    std::istringstream in(text);
    return readLogStream(in, limits, [](std::string_view l) { return l.find("ERROR") != std::string_view::npos; });
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
    }
};

QTEST_GUILESS_MAIN(TestLogReader)
#include "tst_log_reader.moc"
