// The CLI's outputs on the fixtures, byte for byte: each row of tests/fixtures/golden/commands.tsv is run and its exit
// code, stdout and stderr compared with <name>.out beside it (written by the build before issue 34's restructuring).
// The fixture folder's absolute path reads "{F}" and capture times "<time>", so a clone anywhere compares equal.
// STACKSCOPE_GOLDEN_UPDATE=1 rewrites the .out files instead: only for a change of output that is meant.
#include "tests/common/cli_process.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

namespace {

const QString kFixtures = QStringLiteral(STACKSCOPE_TEST_FIXTURES);

QString goldenDir()
{
    return kFixtures + QStringLiteral("/golden");
}

QByteArray normalized(QByteArray text)
{
    text.replace(kFixtures.toUtf8(), "{F}");
    static const QRegularExpression time(QStringLiteral("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z"));
    return QString::fromUtf8(text).replace(time, QStringLiteral("<time>")).toUtf8();
}

QByteArray transcript(const stackscope::test::CliRun& r)
{
    return "exit " + QByteArray::number(r.exitCode) + "\n--- stdout\n" + normalized(r.out) + "--- stderr\n" +
           normalized(r.err);
}

// The first line that differs, with both versions, so a failure says where without a diff tool.
QByteArray firstDifference(const QByteArray& expected, const QByteArray& actual)
{
    const auto e = expected.split('\n');
    const auto a = actual.split('\n');
    for (qsizetype i = 0; i < std::max(e.size(), a.size()); ++i) {
        const QByteArray le = i < e.size() ? e[i] : "<end>";
        const QByteArray la = i < a.size() ? a[i] : "<end>";
        if (le != la)
            return "line " + QByteArray::number(i + 1) + "\n  expected: " + le + "\n  actual:   " + la;
    }
    return {};
}

} // namespace

class TestCliGolden : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(!qEnvironmentVariable("STACKSCOPE_CLI").isEmpty(), "STACKSCOPE_CLI not set by CTest"); }

    void output_data()
    {
        QTest::addColumn<QStringList>("args");
        QFile table(goldenDir() + QStringLiteral("/commands.tsv"));
        QVERIFY2(table.open(QIODevice::ReadOnly), "cannot read tests/fixtures/golden/commands.tsv");
        int rows = 0;
        for (const QByteArray& line : table.readAll().split('\n')) {
            if (line.isEmpty() || line.startsWith('#'))
                continue;
            const auto cells = line.split('\t');
            QVERIFY2(cells.size() == 2, ("a row needs name<TAB>arguments: " + line).constData());
            QStringList args = QString::fromUtf8(cells[1]).split(QLatin1Char(' '), Qt::SkipEmptyParts);
            for (QString& a : args)
                a.replace(QStringLiteral("{F}"), kFixtures);
            QTest::newRow(cells[0].constData()) << args;
            ++rows;
        }
        QVERIFY2(rows >= 40, "commands.tsv lost its rows");
    }

    void output()
    {
        QFETCH(QStringList, args);
        const auto run = stackscope::test::runCli(args);
        const QByteArray actual = transcript(run);
        const QString path = goldenDir() + QLatin1Char('/') + QString::fromUtf8(QTest::currentDataTag()) +
                             QStringLiteral(".out");
        QFile golden(path);
        if (qEnvironmentVariableIntValue("STACKSCOPE_GOLDEN_UPDATE") == 1) {
            QVERIFY2(golden.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
            golden.write(actual);
            return;
        }
        QVERIFY2(golden.open(QIODevice::ReadOnly),
                 qPrintable(path + QStringLiteral(" is missing: run this test once with STACKSCOPE_GOLDEN_UPDATE=1")));
        const QByteArray expected = golden.readAll();
        QVERIFY2(actual == expected, (args.join(QLatin1Char(' ')).toUtf8() + "\n" +
                                      firstDifference(expected, actual)).constData());
    }
};

QTEST_GUILESS_MAIN(TestCliGolden)
#include "tst_cli_golden.moc"
