// A VPOC error for a bad input file with a long path, in the main window at 1024x640 and 1920x1080, with and without
// a report's banner: the whole message is readable (wrapped, within its column, not cut at the bottom, a long path
// elided in the middle with the whole text in the tooltip), the page never scrolls sideways and the form column
// keeps its width (walkthrough 2026-11-27 third, problem 1). Screenshots in screenshots/vpoc-error-*.png.
#include "tests/common/cli_process.h"
#include "tests/common/open_report.h"
#include "ui/main_window.h"
#include "ui/report/report_replay.h"
#include "ui/vpoc/vpoc_form.h"
#include "ui/vpoc/vpoc_page.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTextDocument>
#include <QtTest>

#include <memory>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

const QString kLongPath = QStringLiteral(STACKSCOPE_TEST_FIXTURES
    "/reports-heldout8/20_ollama_llava_cuda_oom_memory_prediction_underestimate/report.txt");

QString plain(const QString& html)
{
    QTextDocument doc;
    doc.setHtml(html);
    return doc.toPlainText();
}

} // namespace

class TestVpocErrorLayout : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_report; // a report folder with a VPOC run (its replay sets the format to bars)

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("STACKSCOPE_PYTHON_ENVS", "off");
        QVERIFY(m_dir.isValid());
        QVERIFY(QFileInfo::exists(kLongPath));
        const auto v = test::runCli({ QStringLiteral("vpoc"), QStringLiteral("--input"),
            QStringLiteral(STACKSCOPE_TEST_FIXTURES "/market/es_tradestation.csv"), QStringLiteral("--format"),
            QStringLiteral("bars"), QStringLiteral("--json") });
        QVERIFY2(v.exitCode == 0, v.err.constData());
        const QString vpoc = m_dir.filePath(QStringLiteral("vpoc.json"));
        QFile vf(vpoc);
        QVERIFY(vf.open(QIODevice::WriteOnly));
        vf.write(v.out);
        vf.close();
        const auto r = test::runCli({ QStringLiteral("report"), QStringLiteral("--out"), m_dir.filePath(QStringLiteral("out")),
            QStringLiteral("--vpoc"), vpoc, QStringLiteral("--no-archscan"), QStringLiteral("--no-telemetry") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        for (const QString& line : QString::fromUtf8(r.out).split(QLatin1Char('\n')))
            if (line.startsWith(QStringLiteral("folder: ")))
                m_report = line.mid(8).trimmed();
        QVERIFY(!m_report.isEmpty());
    }

    void wholeMessage_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("report"); // opened a report first: its banner above, the format set to bars
        for (const QSize size : { QSize(1024, 640), QSize(1920, 1080) }) {
            const QString at = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
            QTest::addRow("%s", qPrintable(at)) << size << false;
            QTest::addRow("%s after a report", qPrintable(at)) << size << true;
        }
    }

    void wholeMessage()
    {
        QFETCH(QSize, size);
        QFETCH(bool, report);
        MainWindow window;
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (report) {
            QString error;
            QVERIFY2(test::openReportAndWait(window.replay(), m_report, &error), qPrintable(error));
        }
        QVERIFY(window.showPage(QStringLiteral("VPOC")));
        VpocPage* page = window.vpocPage();
        if (report)
            QCOMPARE(page->form()->findChild<QComboBox*>(QStringLiteral("vpoc-format"))->currentText(), QStringLiteral("bars"));
        QTest::qWait(100);
        auto* run = page->findChild<QPushButton*>(QStringLiteral("vpocRun"));
        QVERIFY(run);
        const QRect runBefore(run->mapTo(&window, QPoint(0, 0)), run->size());

        page->setInputFile(kLongPath);
        QSignalSpy finished(page, &VpocPage::finished);
        page->run();
        QVERIFY(finished.wait(30000));
        QVERIFY(!finished.at(0).at(0).toBool());
        QVERIFY(page->statusIsError());
        QTest::qWait(200);
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        window.grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/vpoc-error-%1x%2%3.png")
                               .arg(size.width())
                               .arg(size.height())
                               .arg(report ? QStringLiteral("-report") : QString()));

        auto* label = page->findChild<QLabel*>(QStringLiteral("vpocStatus"));
        QVERIFY(label && label->isVisible());
        const QString shown = plain(label->text());
        const QString whole = label->toolTip().isEmpty() ? shown : plain(label->toolTip());
        // The whole message is at hand: the full path and the advice to its end.
        QVERIFY2(whole.contains(kLongPath) || page->detailText().contains(kLongPath), qPrintable(whole));
        // What is shown says what to do next, to its end: brackets closed, the last words there.
        QVERIFY2(shown.count(QLatin1Char('(')) == shown.count(QLatin1Char(')')), qPrintable(shown));
        const QString ending = whole.right(20);
        QVERIFY2(shown.endsWith(ending) || !page->detailText().isEmpty(), qPrintable(shown + QStringLiteral(" | ") + ending));
        // Wrapped within its column: no word wider than the label.
        QVERIFY2(label->minimumSizeHint().width() <= label->width(),
            qPrintable(QStringLiteral("a word of %1 px in a label %2 px wide").arg(label->minimumSizeHint().width()).arg(label->width())));
        QVERIFY2(label->height() >= label->heightForWidth(label->width()),
            qPrintable(QStringLiteral("label %1 px high, its text needs %2").arg(label->height()).arg(label->heightForWidth(label->width()))));
        // Not cut by the page's visible area (a vertical scroll to reach it is fine, a sideways one is not).
        auto* scroll = window.findChild<QScrollArea*>(QStringLiteral("VPOCScroll"));
        QVERIFY(scroll);
        QVERIFY2(scroll->horizontalScrollBar()->maximum() == 0,
            qPrintable(QStringLiteral("the page scrolls sideways by %1 px").arg(scroll->horizontalScrollBar()->maximum())));
        const QRect inViewport(label->mapTo(scroll->viewport(), QPoint(0, 0)), label->size());
        QVERIFY2(inViewport.right() <= scroll->viewport()->width(), qPrintable(QStringLiteral("label right %1, page %2").arg(inViewport.right()).arg(scroll->viewport()->width())));
        QVERIFY2(scroll->verticalScrollBar()->maximum() > 0 || inViewport.bottom() <= scroll->viewport()->height(),
            qPrintable(QStringLiteral("label bottom %1, page %2").arg(inViewport.bottom()).arg(scroll->viewport()->height())));
        // Run stays where it was (the column did not widen or move).
        const QRect runAfter(run->mapTo(&window, QPoint(0, 0)), run->size());
        QCOMPARE(runAfter, runBefore);
    }
};

QTEST_MAIN(TestVpocErrorLayout)
#include "tst_vpoc_error_layout.moc"
