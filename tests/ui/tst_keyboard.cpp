// Keyboard use of the main window: a table is one tab stop, Ctrl+1..5 switch pages, F5 refreshes,
// Ctrl+Return runs the page, Escape cancels a run, Ctrl+E exports; each shortcut is shown in a menu.
#include "core/util/atomic_file.h"
#include "core/vpoc/sample_data.h"
#include "ui/main_window.h"
#include "ui/system/system_page.h"
#include "ui/vpoc/vpoc_page.h"

#include <QAbstractItemView>
#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {
QAction* menuAction(MainWindow& w, const QString& objectName)
{
    for (auto* menu : w.menuBar()->findChildren<QMenu*>()) {
        for (auto* a : menu->actions()) {
            if (a->objectName() == objectName)
                return a;
        }
    }
    return nullptr;
}

QWidget* currentPage(MainWindow& w)
{
    auto* stack = w.findChild<QStackedWidget*>();
    auto* scroll = qobject_cast<QScrollArea*>(stack->currentWidget());
    return scroll ? scroll->widget() : stack->currentWidget();
}
} // namespace

class TestKeyboard : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tablesAreOneTabStop()
    {
        MainWindow window;
        const auto views = window.findChildren<QAbstractItemView*>();
        QVERIFY(views.size() >= 5);
        for (auto* v : views)
            QVERIFY2(!v->tabKeyNavigation(), qPrintable(v->objectName() + QLatin1Char(' ') + QString::fromLatin1(v->metaObject()->className())));
    }

    void shortcutsInMenus_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QKeySequence>("keys");
        for (int i = 1; i <= 5; ++i)
            QTest::addRow("page %d", i) << QStringLiteral("goPage%1").arg(i) << QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_0 + i));
        QTest::newRow("refresh") << "refreshAction" << QKeySequence(Qt::Key_F5);
        QTest::newRow("run") << "runAction" << QKeySequence(Qt::CTRL | Qt::Key_Return);
        QTest::newRow("cancel") << "cancelAction" << QKeySequence(Qt::Key_Escape);
        QTest::newRow("export") << "exportAction" << QKeySequence(Qt::CTRL | Qt::Key_E);
    }
    void shortcutsInMenus()
    {
        QFETCH(QString, action);
        QFETCH(QKeySequence, keys);
        MainWindow window;
        QAction* a = menuAction(window, action);
        QVERIFY2(a, qPrintable(action));
        QCOMPARE(a->shortcut(), keys);
        // Every menu that offers it shows the key (File > Export support report showed none).
        if (action == QStringLiteral("exportAction")) {
            int menus = 0;
            for (auto* menu : window.menuBar()->findChildren<QMenu*>())
                menus += menu->actions().contains(a) ? 1 : 0;
            QCOMPARE(menus, 2); // File and Run
            for (auto* other : window.findChildren<QAction*>())
                QVERIFY(other == a || other->text() != a->text());
        }
    }

    void pageShortcutsSwitchPages()
    {
        MainWindow window;
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(currentPage(window), static_cast<QWidget*>(window.vpocPage()));
        QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
        QCOMPARE(currentPage(window), static_cast<QWidget*>(window.systemPage()));
    }

    // Ctrl+Return starts the VPOC run of the page in view; Escape cancels it.
    void runAndEscapeCancel()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("sample.csv"));
        vpoc::SampleDataOptions o;
        o.days = 20;
        writeFileAtomically(csv.toStdString(), vpoc::generateSampleData(o));
        MainWindow window;
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.showPage(QStringLiteral("VPOC")));
        window.vpocPage()->setInputFile(csv);
        QSignalSpy finished(window.vpocPage(), &VpocPage::finished);
        QTest::keyClick(&window, Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(window.vpocPage()->isRunning());
        QTest::keyClick(&window, Qt::Key_Escape);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY(window.vpocPage()->statusText().contains(QStringLiteral("Cancelled")));
    }
};

QTEST_MAIN(TestKeyboard)
#include "tst_keyboard.moc"
