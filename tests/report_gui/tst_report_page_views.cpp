// The Report page's view parts: the "Written to" box, the pasted logs box, the redaction list and the card column
// beside or below the controls.
#include "ui/report/card_preview_column.h"
#include "ui/report/export_location_box.h"
#include "ui/report/redaction_list.h"
#include "ui/report/report_exporter.h"
#include "ui/report/session_logs.h"
#include "ui/report/session_logs_box.h"
#include "ui/report/summary_card.h"

#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

template <typename T>
T* named(QWidget& w, const char* name)
{
    return w.findChild<T*>(QLatin1String(name));
}

QPushButton* openFolder(ExportLocationBox& box)
{
    return box.findChild<QPushButton*>();
}

} // namespace

class TestReportPageViews : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void location_data()
    {
        QTest::addColumn<QString>("step"); // writing | written | failed
        QTest::addColumn<QString>("folder"); // the last report's; empty: none
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("canOpen");
        QTest::newRow("writing into a folder") << QStringLiteral("writing") << QStringLiteral("/tmp/r")
                                               << QStringLiteral("Writing a new report into /tmp/out…") << false;
        QTest::newRow("writing, no folder named") << QStringLiteral("writing-unnamed") << QString()
                                                  << QStringLiteral("Writing a new report into the chosen folder…") << false;
        QTest::newRow("written") << QStringLiteral("written") << QStringLiteral("/tmp/r")
                                 << QStringLiteral("/tmp/r\n/tmp/r.zip") << true;
        QTest::newRow("failed, none before") << QStringLiteral("failed") << QString()
                                             << QStringLiteral("Not exported yet (the last try failed: see above).") << false;
        QTest::newRow("failed, one before")
            << QStringLiteral("failed") << QStringLiteral("/tmp/r")
            << QStringLiteral("The new report was not written; the last one written:\n/tmp/r\n/tmp/r.zip") << true;
    }
    void location()
    {
        QFETCH(QString, step);
        QFETCH(QString, folder);
        QFETCH(QString, text);
        QFETCH(bool, canOpen);
        ExportLocationBox box;
        QCOMPARE(box.text(), QStringLiteral("Not exported yet."));
        QVERIFY(!openFolder(box)->isEnabled());
        ReportResult last;
        last.folder = folder;
        last.zip = folder.isEmpty() ? QString() : folder + QStringLiteral(".zip");
        if (step == QLatin1String("writing")) {
            box.showWritten(last);
            box.showWriting(QStringLiteral("/tmp/out"));
        } else if (step == QLatin1String("writing-unnamed")) {
            box.showWriting(QString());
        } else if (step == QLatin1String("written")) {
            box.showWritten(last);
        } else {
            box.showWriting(QStringLiteral("/tmp/out"));
            box.showFailed(last);
        }
        QCOMPARE(box.text(), text);
        QCOMPARE(openFolder(box)->isEnabled(), canOpen);
    }

    void sessionLogs_data()
    {
        QTest::addColumn<int>("logs");
        QTest::addColumn<QString>("note");
        QTest::newRow("none") << 0 << QStringLiteral("None yet.");
        QTest::newRow("one") << 1 << QStringLiteral("1 log goes into the report");
        QTest::newRow("three") << 3 << QStringLiteral("3 logs go into the report");
    }
    void sessionLogs()
    {
        QFETCH(int, logs);
        QFETCH(QString, note);
        SessionLogModel model;
        SessionLogsBox box(&model);
        for (int i = 0; i < logs; ++i)
            model.add(QStringLiteral("pasted text %1").arg(i), QStringLiteral("RuntimeError: number %1").arg(i));
        auto* list = named<QListView>(box, "sessionLogs");
        auto* leaveOut = named<QPushButton>(box, "removeLogButton");
        QVERIFY2(named<QLabel>(box, "sessionLogsNote")->text().startsWith(note),
                 qPrintable(named<QLabel>(box, "sessionLogsNote")->text()));
        QCOMPARE(list->isVisibleTo(&box), logs > 0);
        QCOMPARE(leaveOut->isVisibleTo(&box), logs > 0);
        QVERIFY(!leaveOut->isEnabled()); // nothing selected
        if (logs == 0)
            return;
        list->setCurrentIndex(model.index(0, 0));
        QVERIFY(leaveOut->isEnabled());
        leaveOut->click();
        QCOMPARE(model.rowCount(), logs - 1);
        QCOMPARE(list->isVisibleTo(&box), logs - 1 > 0);
    }

    void redactions_data()
    {
        QTest::addColumn<bool>("enabled");
        QTest::addColumn<int>("entries");
        QTest::addColumn<bool>("uncertain");
        QTest::addColumn<int>("rows");
        QTest::addColumn<bool>("noteShown");
        QTest::addColumn<int>("opened"); // -1: no report open; -2: one written unredacted; n: it replaced n kinds
        QTest::addColumn<QString>("nothing"); // the sentence in place of an empty table ("": the table is shown)
        QTest::newRow("two kinds, sure") << true << 2 << false << 2 << false << -1 << "";
        QTest::newRow("one kind, uncertain") << true << 1 << true << 1 << true << -1 << "";
        QTest::newRow("nothing found") << true << 0 << false << 0 << false << -1
                                       << "Nothing was redacted: none of what redaction looks for (user and host names";
        QTest::newRow("off") << false << 2 << true << 1 << false << -1 << "";
        QTest::newRow("off, nothing found") << false << 0 << false << 1 << false << -1 << "";
        // A replayed report's text holds the placeholders already: what it replaced when written (walkthrough third,
        // problem 13: the table was empty with no word why).
        QTest::newRow("replayed, redacted when written")
            << true << 0 << true << 0 << true << 2
            << "Nothing more to redact: the report open here was redacted when it was written, so it holds placeholders "
               "in place of the private data. It replaced: host as <host> (1 time); user as <user> (2 times).";
        QTest::newRow("replayed, nothing to replace when written")
            << true << 0 << false << 0 << false << 0 << "Nothing was redacted: the report open here was redacted when";
        QTest::newRow("replayed, written unredacted")
            << true << 0 << false << 0 << false << -2 << "although it was written without redaction. Read it before";
        QTest::newRow("replayed, its own names found") << true << 1 << false << 1 << false << -2 << "";
    }
    void redactions()
    {
        QFETCH(bool, enabled);
        QFETCH(int, entries);
        QFETCH(bool, uncertain);
        QFETCH(int, rows);
        QFETCH(bool, noteShown);
        QFETCH(int, opened);
        QFETCH(QString, nothing);
        RedactionList list;
        const auto kinds = [](int n) {
            std::vector<report::RedactionEntry> found;
            for (int i = 0; i < n; ++i)
                found.push_back({i == 0 ? "host" : "user", i == 0 ? "<host>" : "<user>", static_cast<std::size_t>(i + 1)});
            return found;
        };
        const std::vector<std::string> unsure = uncertain ? std::vector<std::string> {"a user name that is a common word"}
                                                          : std::vector<std::string> {};
        if (opened == -2)
            list.setOpenedReport(std::nullopt);
        else if (opened >= 0)
            list.setOpenedReport(kinds(opened));
        list.setRedactions(kinds(entries), unsure, enabled);
        auto* table = named<QTableWidget>(list, "redactions");
        QCOMPARE(table->isVisibleTo(&list), nothing.isEmpty());
        QCOMPARE(table->rowCount(), rows);
        if (enabled && entries > 0) {
            QCOMPARE(table->item(0, 0)->text(), QStringLiteral("host"));
            QCOMPARE(table->item(0, 1)->text(), QStringLiteral("<host>"));
            QCOMPARE(table->item(0, 2)->text(), QStringLiteral("1"));
        }
        if (!enabled)
            QCOMPARE(table->item(0, 0)->text(), QStringLiteral("Redaction is off: nothing is replaced"));
        auto* note = named<QLabel>(list, "redactionUncertain");
        QCOMPARE(note->isVisibleTo(&list), noteShown);
        if (noteShown)
            QVERIFY(note->text().contains(QStringLiteral("• a user name that is a common word")));
        if (nothing.isEmpty())
            QCOMPARE(list.nothingNote(), QString());
        else
            QVERIFY2(list.nothingNote().startsWith(nothing) || list.nothingNote().contains(nothing),
                     qPrintable(list.nothingNote()));
        // Closing the report: the sentence is this session's again.
        list.clearOpenedReport();
        if (!nothing.isEmpty())
            QVERIFY2(list.nothingNote().endsWith(QStringLiteral("is in this report.")), qPrintable(list.nothingNote()));
    }

    void cardColumn_data()
    {
        QTest::addColumn<int>("extra"); // the page's width minus the narrowest side by side
        QTest::addColumn<bool>("sideBySide");
        QTest::newRow("1920 wide") << 800 << true;
        QTest::newRow("just wide enough") << 0 << true;
        QTest::newRow("a pixel short") << -1 << false;
        QTest::newRow("1024 wide") << -300 << false;
    }
    void cardColumn()
    {
        QFETCH(int, extra);
        QFETCH(bool, sideBySide);
        QWidget page;
        auto* card = new SummaryCard;
        auto* column = new CardPreviewColumn(card, &page);
        auto* columns = new QBoxLayout(QBoxLayout::TopToBottom, &page);
        columns->addLayout(column);
        card->adjustSize();
        const int width = column->sideBySideWidth() + extra;
        QVERIFY(column->sideBySideWidth() > SummaryCard::kWidth + 380);
        column->arrange(columns, width);
        QCOMPARE(columns->direction(), sideBySide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
        int minimum = -1;
        for (auto* w : page.findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
            if (w->inherits("QScrollArea"))
                minimum = w->minimumHeight();
        QVERIFY(minimum >= 0); // the scroll area is the page's
        QCOMPARE(minimum, sideBySide ? 0 : card->height() + 4); // below the controls: the whole card's height
        column->arrange(columns, width); // the same width again changes nothing
        QCOMPARE(columns->direction(), sideBySide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    }
};

QTEST_MAIN(TestReportPageViews)
#include "tst_report_page_views.moc"
