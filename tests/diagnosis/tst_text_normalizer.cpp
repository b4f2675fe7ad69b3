// Text normalisation: ANSI codes, CR/CRLF, whitespace, masked source line numbers, line mapping.
#include "core/diagnosis/text_normalizer.h"

#include <QtTest>

using namespace stackscope;

class TestTextNormalizer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stripsAnsi_data()
    {
        QTest::addColumn<QByteArray>("in");
        QTest::addColumn<QByteArray>("out");
        QTest::newRow("colour") << QByteArray("\x1b[31mRuntimeError\x1b[0m: x") << QByteArray("RuntimeError: x");
        QTest::newRow("bold+colour") << QByteArray("\x1b[1;33mwarn\x1b[m") << QByteArray("warn");
        QTest::newRow("cursor") << QByteArray("a\x1b[2Kb\x1b[1Ac") << QByteArray("abc");
        QTest::newRow("osc hyperlink") << QByteArray("\x1b]8;;http://x\x07link\x1b]8;;\x1b\\") << QByteArray("link");
        QTest::newRow("lost ESC") << QByteArray("[31mHIP error[0m") << QByteArray("HIP error");
        QTest::newRow("brackets kept") << QByteArray("[rank0]: a[5] [W1121]") << QByteArray("[rank0]: a[5] [W1121]");
        QTest::newRow("[mask] kept") << QByteArray("keys [mask] [m]") << QByteArray("keys [mask] [m]");
        QTest::newRow("trailing ESC") << QByteArray("x\x1b") << QByteArray("x");
        QTest::newRow("unterminated CSI") << QByteArray("x\x1b[12") << QByteArray("x");
    }
    void stripsAnsi()
    {
        QFETCH(QByteArray, in);
        QFETCH(QByteArray, out);
        QCOMPARE(QByteArray::fromStdString(stripAnsi(in.toStdString())), out);
    }

    void masksLineNumbers_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("Context.cpp") << "at ../aten/src/ATen/Context.cpp:296.)" << "at ../aten/src/ATen/Context.cpp:N.)";
        QTest::newRow("python") << "linear.py:125: UserWarning" << "linear.py:N: UserWarning";
        QTest::newRow("header") << "HIPAllocatorConfig.h:29]" << "HIPAllocatorConfig.h:N]";
        QTest::newRow("two") << "a.cc:1 b.cu:22:7" << "a.cc:N b.cu:N:7";
        QTest::newRow("not a source") << "node-1 time 10:02:11 ratio 3:2" << "node-1 time 10:02:11 ratio 3:2";
        QTest::newRow("bare extension") << "see .cpp:12" << "see .cpp:12";
        QTest::newRow("hex code") << "code: 0x2d" << "code: 0x2d";
    }
    void masksLineNumbers()
    {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QCOMPARE(QString::fromStdString(maskSourceLineNumbers(in.toStdString())), out);
    }

    void straightensQuotes_data()
    {
        QTest::addColumn<QByteArray>("in");
        QTest::addColumn<QByteArray>("out");
        QTest::newRow("left single quote") << QByteArray("couldn\xe2\x80\x98t communicate") << QByteArray("couldn't communicate");
        QTest::newRow("right single quote") << QByteArray("couldn\xe2\x80\x99t") << QByteArray("couldn't");
        QTest::newRow("double quotes") << QByteArray("\xe2\x80\x9cout of memory\xe2\x80\x9d") << QByteArray("\"out of memory\"");
        QTest::newRow("low-9 quotes") << QByteArray("\xe2\x80\x9ax\xe2\x80\x9e") << QByteArray("'x\"");
        QTest::newRow("primes") << QByteArray("\xe2\x80\xb2" "a" "\xe2\x80\xb3") << QByteArray("'a\"");
        QTest::newRow("other U+2000 punctuation kept") << QByteArray("a\xe2\x80\x94" "b") << QByteArray("a\xe2\x80\x94" "b");
        QTest::newRow("cut sequence at the end kept") << QByteArray("a\xe2\x80") << QByteArray("a\xe2\x80");
        QTest::newRow("plain ASCII") << QByteArray("version `GLIBC_2.34' not found") << QByteArray("version `GLIBC_2.34' not found");
    }
    void straightensQuotes()
    {
        QFETCH(QByteArray, in);
        QFETCH(QByteArray, out);
        QCOMPARE(QByteArray::fromStdString(straightenQuotes(in.toStdString())), out);
    }

    void collapsesWhitespace()
    {
        QCOMPARE(QString::fromStdString(collapseWhitespace("  a \t\t b   c  ")), QString("a b c"));
        QCOMPARE(QString::fromStdString(normalizeSignatureText("Attempting  to use\nhipBLASLt")),
                 QString("Attempting to use hipBLASLt"));
    }

    void quotesReadAsSpaces_data()
    {
        QTest::addColumn<QString>("signature");
        QTest::addColumn<QString>("normalized");
        QTest::newRow("inner quotes") << "version `GLIBC_2.34' not found" << "version GLIBC_2.34 not found";
        QTest::newRow("closing quote keeps a word end") << "No module named 'triton'" << "No module named triton ";
        QTest::newRow("opening quote keeps a word start") << "'cudaMalloc' failed" << " cudaMalloc failed";
        QTest::newRow("apostrophe") << "couldn't communicate" << "couldn t communicate";
        QTest::newRow("typographic") << QString::fromUtf8("couldn\xe2\x80\x99t") << "couldn t";
    }
    void quotesReadAsSpaces()
    {
        QFETCH(QString, signature);
        QFETCH(QString, normalized);
        QCOMPARE(QString::fromStdString(normalizeSignatureText(signature.toStdString())), normalized);
        // A line's match form reads them the same way.
        const NormalizedText t(signature.toStdString());
        QCOMPARE(QString::fromStdString(t.lines()[0].match), normalized.trimmed());
    }

    void patternsReadQuotesAsAnyOrNone_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("tolerant");
        QTest::newRow("plain") << "no quotes here" << "no quotes here";
        QTest::newRow("backtick and quote") << "version `GLIBC_2\\.\\d+' not found" << "version ['\"`]?GLIBC_2\\.\\d+['\"`]? not found";
        QTest::newRow("escaped quote") << "named \\'x\\'" << "named ['\"`]?x['\"`]?";
        QTest::newRow("quantified quote keeps its quantifier") << "a'?b\"+" << "a['\"`]?b['\"`]+";
        QTest::newRow("class left as written") << "'([^']+)'" << "['\"`]?([^']+)['\"`]?";
        QTest::newRow("escaped bracket in a class") << "[\\]'] x'" << "[\\]'] x['\"`]?";
    }
    void patternsReadQuotesAsAnyOrNone()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, tolerant);
        QCOMPARE(QString::fromStdString(quoteTolerantPattern(pattern.toStdString())), tolerant);
    }

    void anchorsLoseTheirQuotes_data()
    {
        QTest::addColumn<QString>("anchor");
        QTest::addColumn<QString>("piece");
        QTest::newRow("none: as written") << " MES" << " MES";
        QTest::newRow("leading quote") << "' not found" << "not found";
        QTest::newRow("apostrophe: longest piece") << "Can't import SageAttention" << "t import SageAttention";
        QTest::newRow("trailing quote") << "nvcc not found at '" << "nvcc not found at";
    }
    void anchorsLoseTheirQuotes()
    {
        QFETCH(QString, anchor);
        QFETCH(QString, piece);
        QCOMPARE(QString::fromStdString(quoteFreeAnchor(anchor.toStdString())), piece);
    }

    void linesKeepOriginalNumbers_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<QStringList>("display");
        QTest::addColumn<QList<int>>("numbers");
        QTest::newRow("LF") << QByteArray("a\nb\n") << QStringList {"a", "b"} << QList<int> {1, 2};
        QTest::newRow("CRLF") << QByteArray("a\r\nb\r\n") << QStringList {"a", "b"} << QList<int> {1, 2};
        QTest::newRow("blank lines") << QByteArray("a\n\n  \nb") << QStringList {"a", "b"} << QList<int> {1, 4};
        QTest::newRow("progress bar CR") << QByteArray("10%\r50%\r100%\nerr") << QStringList {"10%", "50%", "100%", "err"}
                                         << QList<int> {1, 1, 1, 2};
        QTest::newRow("indent collapsed") << QByteArray("    return F.linear(x)\t") << QStringList {"return F.linear(x)"}
                                          << QList<int> {1};
    }
    void linesKeepOriginalNumbers()
    {
        QFETCH(QByteArray, raw);
        QFETCH(QStringList, display);
        QFETCH(QList<int>, numbers);
        const NormalizedText t(raw.toStdString());
        QCOMPARE(int(t.lines().size()), display.size());
        for (int i = 0; i < display.size(); ++i) {
            QCOMPARE(QString::fromStdString(t.lines()[i].display), display[i]);
            QCOMPARE(t.lines()[i].number, numbers[i]);
        }
    }

    void flatJoinsLinesAndMapsOffsets()
    {
        const NormalizedText t("first line\r\n\x1b[33msecond\x1b[0m  line at x.cpp:12\r\nthird");
        QCOMPARE(QString::fromStdString(t.flat()), QString(" first line second line at x.cpp:N third "));
        QCOMPARE(QString::fromStdString(t.lines()[1].display), QString("second line at x.cpp:12"));
        QCOMPARE(t.lineIndexAt(0), std::size_t(0));
        QCOMPARE(t.lineIndexAt(t.flat().find("second")), std::size_t(1));
        QCOMPARE(t.lineIndexAt(t.flat().find("third")), std::size_t(2));
        QCOMPARE(t.lineIndexAt(t.flat().size() - 1), std::size_t(2));
    }

    void emptyText()
    {
        const NormalizedText t("");
        QVERIFY(t.lines().empty());
        QVERIFY(t.flat().empty());
    }
};

QTEST_GUILESS_MAIN(TestTextNormalizer)
#include "tst_text_normalizer.moc"
