// escapeControl / escapeMessage: what a terminal receives of text quoted from input files.
#include "core/util/text_escape.h"

#include <QtTest>

class TestTextEscape : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void escapes_data()
    {
        QTest::addColumn<QByteArray>("in");
        QTest::addColumn<QByteArray>("control");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("plain") << QByteArray("2024-01-02,4750.25") << QByteArray("2024-01-02,4750.25")
                               << QByteArray("2024-01-02,4750.25");
        QTest::newRow("ESC sequence") << QByteArray("a\x1b[2Jb") << QByteArray("a\\x1b[2Jb") << QByteArray("a\\x1b[2Jb");
        QTest::newRow("bell, NUL, DEL") << QByteArray("x\x07y\0z\x7f", 6) << QByteArray("x\\x07y\\x00z\\x7f")
                                        << QByteArray("x\\x07y\\x00z\\x7f");
        QTest::newRow("newline kept in messages") << QByteArray("l1\nl2\r\t") << QByteArray("l1\\nl2\\r\\t")
                                                  << QByteArray("l1\nl2\\r\\t");
        QTest::newRow("C1 CSI as UTF-8") << QByteArray("a\xc2\x9b" "31mb") << QByteArray("a\\xc2\\x9b31mb")
                                         << QByteArray("a\\xc2\\x9b31mb");
        QTest::newRow("raw C1 byte") << QByteArray("a\x9b" "b") << QByteArray("a\\x9bb") << QByteArray("a\\x9bb");
        QTest::newRow("valid UTF-8 kept") << QByteArray("M\xc3\xbcller \xe2\x82\xac \xf0\x9f\x93\x88")
                                          << QByteArray("M\xc3\xbcller \xe2\x82\xac \xf0\x9f\x93\x88")
                                          << QByteArray("M\xc3\xbcller \xe2\x82\xac \xf0\x9f\x93\x88");
        QTest::newRow("overlong and surrogate") << QByteArray("\xc0\xaf\xed\xa0\x80") << QByteArray("\\xc0\\xaf\\xed\\xa0\\x80")
                                                << QByteArray("\\xc0\\xaf\\xed\\xa0\\x80");
        QTest::newRow("truncated sequence at end") << QByteArray("ok\xe2\x82") << QByteArray("ok\\xe2\\x82")
                                                   << QByteArray("ok\\xe2\\x82");
    }
    void escapes()
    {
        QFETCH(QByteArray, in);
        QFETCH(QByteArray, control);
        QFETCH(QByteArray, message);
        const std::string_view v(in.constData(), static_cast<size_t>(in.size()));
        QCOMPARE(QByteArray::fromStdString(stackscope::escapeControl(v)), control);
        QCOMPARE(QByteArray::fromStdString(stackscope::escapeMessage(v)), message);
    }

    // A shortened line ends at a word (walkthrough-third problem 13: report.md cut "/dev/d..." mid-word).
    void cutAtWord_data()
    {
        QTest::addColumn<QByteArray>("in");
        QTest::addColumn<int>("max");
        QTest::addColumn<QByteArray>("out");
        QTest::newRow("fits") << QByteArray("short line") << 20 << QByteArray("short line");
        QTest::newRow("exactly max") << QByteArray("abcde") << 5 << QByteArray("abcde");
        QTest::newRow("at the last word, list comma dropped")
            << QByteArray("not read-write for this user: /dev/kfd, /dev/dri/renderD128, /dev/dri/card1") << 64
            << QByteArray("not read-write for this user: /dev/kfd, /dev/dri/renderD128 ...");
        QTest::newRow("one long word cut at a character") << QByteArray("abcdefghij") << 4 << QByteArray("abcd ...");
        QTest::newRow("not inside UTF-8") << QByteArray("\xe2\x82\xac\xe2\x82\xac") << 4 << QByteArray("\xe2\x82\xac ...");
    }
    void cutAtWord()
    {
        QFETCH(QByteArray, in);
        QFETCH(int, max);
        QFETCH(QByteArray, out);
        const std::string_view v(in.constData(), static_cast<size_t>(in.size()));
        QCOMPARE(QByteArray::fromStdString(stackscope::cutAtWord(v, static_cast<std::size_t>(max))), out);
    }
};

QTEST_GUILESS_MAIN(TestTextEscape)
#include "tst_text_escape.moc"
