// The System page scrolls as one page (walkthrough 2026-11-27 third, problem 9): the mouse wheel over an inner view
// (the findings table and detail, the stack table) moves the page unless that view has focus and can move; the GPU
// cards have no vertical scroll bar of their own; the Finding column, not Rule, takes the findings table's width.
#include "core/inspect/inspector.h"
#include "ui/main_window.h"
#include "ui/models/findings_model.h"
#include "ui/system/system_page.h"
#include "ui/widgets/gpu_card.h"

#include <QAbstractScrollArea>
#include <QHeaderView>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QWheelEvent>

#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {
SnapshotPtr fixture(const QString& name)
{
    InspectOptions o;
    o.root = std::string(STACKSCOPE_TEST_FIXTURES "/roots/") + name.toStdString();
    return std::make_shared<const Snapshot>(inspectMachine(o));
}

// One notch of the wheel, down, over the middle of `target`.
void wheelDown(QWidget* target)
{
    const QPointF at(target->width() / 2.0, target->height() / 2.0);
    QWheelEvent event(at, target->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &event);
}

void showRoot(MainWindow& window, const QString& root, const QSize& size)
{
    window.resize(size);
    window.snapshots()->setSnapshot(fixture(root), QString());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(window.systemPage()->findingsModel()->rowCount() > 0);
}
} // namespace

class TestSystemScrolling : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void wheelScrollsThePage_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("view");
        QTest::newRow("findings table") << "ubuntu2204-2x7900xt" << "findingsTable";
        QTest::newRow("finding detail") << "ubuntu2404-rocm7" << "findingDetail";
        QTest::newRow("stack table") << "ubuntu2404-rocm7" << "stackTable";
    }
    void wheelScrollsThePage()
    {
        QFETCH(QString, root);
        QFETCH(QString, view);
        MainWindow window;
        showRoot(window, root, QSize(1024, 640));
        auto* page = window.findChild<QScrollArea*>(QStringLiteral("SystemScroll"));
        auto* inner = window.systemPage()->findChild<QAbstractScrollArea*>(view);
        QVERIFY(page && inner);
        if (view == QStringLiteral("findingsTable")) { // a short findings pane: more findings than rows shown
            auto* lower = window.systemPage()->findChild<QSplitter*>(QStringLiteral("systemLower"));
            QVERIFY(lower);
            lower->setSizes({90, 400});
        }
        QTRY_VERIFY(inner->verticalScrollBar()->maximum() > 0); // the inner view could scroll itself
        page->verticalScrollBar()->setValue(page->verticalScrollBar()->minimum() + 40);
        const int pageBefore = page->verticalScrollBar()->value();
        const int innerBefore = inner->verticalScrollBar()->value();
        QVERIFY(pageBefore < page->verticalScrollBar()->maximum());
        window.setFocus();
        wheelDown(inner->viewport());
        QVERIFY2(page->verticalScrollBar()->value() > pageBefore, "the page did not move under the pointer");
        QCOMPARE(inner->verticalScrollBar()->value(), innerBefore);

        // Clicked into (focus), the view scrolls itself while it can.
        inner->setFocus();
        QTRY_VERIFY(inner->hasFocus());
        const int pageNow = page->verticalScrollBar()->value();
        wheelDown(inner->viewport());
        QVERIFY(inner->verticalScrollBar()->value() > innerBefore);
        QCOMPARE(page->verticalScrollBar()->value(), pageNow);
        // At its end the page moves again.
        inner->verticalScrollBar()->setValue(inner->verticalScrollBar()->maximum());
        wheelDown(inner->viewport());
        QVERIFY(page->verticalScrollBar()->value() > pageNow || pageNow == page->verticalScrollBar()->maximum());
    }

    void cardsHaveNoScrollBarOfTheirOwn_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<QSize>("size");
        QTest::newRow("kfd-only 3 GPUs 1024x640") << "kfd-only-2x7900xt" << QSize(1024, 640);
        QTest::newRow("kfd-only 3 GPUs 1920x1080") << "kfd-only-2x7900xt" << QSize(1920, 1080);
        QTest::newRow("rocm7 1024x640") << "ubuntu2404-rocm7" << QSize(1024, 640);
        QTest::newRow("2x7900xt 1024x640") << "ubuntu2204-2x7900xt" << QSize(1024, 640);
    }
    void cardsHaveNoScrollBarOfTheirOwn()
    {
        QFETCH(QString, root);
        QFETCH(QSize, size);
        MainWindow window;
        showRoot(window, root, size);
        auto* strip = window.systemPage()->findChild<QScrollArea*>(QStringLiteral("gpuCards"));
        QVERIFY(strip && strip->isVisible());
        QTRY_COMPARE(strip->verticalScrollBar()->maximum(), 0);
        QVERIFY(!strip->verticalScrollBar()->isVisible());
        const auto cards = strip->findChildren<GpuCard*>();
        QVERIFY(!cards.isEmpty());
        for (const GpuCard* card : cards) {
            const QRect inView(card->mapTo(strip->viewport(), QPoint(0, 0)), card->size());
            QVERIFY2(inView.bottom() < strip->viewport()->height(),
                     qPrintable(QStringLiteral("card bottom %1, strip %2").arg(inView.bottom()).arg(strip->viewport()->height())));
            QVERIFY(card->height() >= card->minimumSizeHint().height());
        }
    }

    void findingColumnTakesTheWidth_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x640") << QSize(1024, 640);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void findingColumnTakesTheWidth()
    {
        QFETCH(QSize, size);
        MainWindow window;
        showRoot(window, QStringLiteral("ubuntu2404-rocm7"), size);
        auto* table = window.systemPage()->findChild<QTableView*>(QStringLiteral("findingsTable"));
        QVERIFY(table);
        const auto* header = table->horizontalHeader();
        QTRY_VERIFY(table->viewport()->width() > 200);
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        const int rule = header->sectionSize(FindingsModel::IdColumn);
        const int finding = header->sectionSize(FindingsModel::TitleColumn);
        QVERIFY2(finding >= rule, qPrintable(QStringLiteral("Rule %1 px, Finding %2 px").arg(rule).arg(finding)));
        // The header itself is whole (a rule cut short is whole in the detail pane beside the table).
        QVERIFY(rule > header->fontMetrics().horizontalAdvance(QStringLiteral("Rule")));
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        QVERIFY(window.systemPage()->findChild<QWidget*>(QStringLiteral("findingsBox"))->grab().save(
            QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/system-findings-%1.png").arg(size.width())));
    }
};

QTEST_MAIN(TestSystemScrolling)
#include "tst_system_scrolling.moc"
