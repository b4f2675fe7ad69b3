// The summary card's findings (ui/report/summary_card.h): the card is posted alone, so a guess from a description's
// words must read as a guess there too, and a finding the text names reads as its title.
#include "core/diagnosis/log_diagnosis.h"
#include "ui/report/summary_card.h"

#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

class TestSummaryCard : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void findingLines_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("line");
        QTest::newRow("a guess from words")
            << "pytorch dataloader raise bus error: out of shared memory, in kubernetes container"
            << "Guess from the words: DataLoader workers ran out of shared memory";
        QTest::newRow("a message of the stack")
            << "RuntimeError: CUDA error: no kernel image is available for execution on the device"
            << "";
    }
    void findingLines()
    {
        QFETCH(QString, text);
        QFETCH(QString, line);
        report::ReportSummary summary;
        summary.findings = diagnoseLogText(text.toStdString(), "pasted text").findings;
        QVERIFY(!summary.findings.empty());
        const SummaryCardData card = summaryCardData(summary);
        QVERIFY(!card.findings.empty());
        const QString shown = card.findings.front().text;
        if (line.isEmpty()) {
            QCOMPARE(shown, QString::fromStdString(summary.findings.front().title));
            QVERIFY(!shown.contains(QStringLiteral("Guess")));
        } else {
            QVERIFY2(shown.startsWith(line), qPrintable(shown));
        }
    }
};

QTEST_MAIN(TestSummaryCard)
#include "tst_summary_card.moc"
