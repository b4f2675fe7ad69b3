// Settings: every value comes back as it was kept, in a settings file of its own; the window's session (geometry,
// page, VPOC input, Training options) is restored from it, with a new output folder and never a resume.
#include "ui/main_window.h"
#include "ui/settings/settings.h"
#include "ui/training/training_form.h"
#include "ui/training/training_page.h"
#include "ui/vpoc/vpoc_form.h"
#include "ui/vpoc/vpoc_page.h"
#include "ui/window_session.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

class TstSettings : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void valuesComeBack()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("settings.ini"));
        {
            Settings s(file);
            QVERIFY(s.pythonInterpreters().isEmpty());
            QVERIFY(s.lastDialogFolder().isEmpty());
            s.addPythonInterpreter(QStringLiteral("/opt/a/bin/python3"));
            s.addPythonInterpreter(QStringLiteral("/opt/b/bin/python3"));
            s.addPythonInterpreter(QStringLiteral("/opt/a/bin/python3")); // once only
            s.setLastDialogFolder(dir.path());
            s.setWindowGeometry(QByteArray("geometry"));
            s.setWindowState(QByteArray("state"));
            s.setLastPage(QStringLiteral("Training"));
            s.setVpocInput(QStringLiteral("/data/es.csv"));
            s.setTrainingOptions(QByteArray("{\"epochs\":3}"));
        }
        Settings s(file);
        QCOMPARE(s.pythonInterpreters(),
            (QStringList { QStringLiteral("/opt/a/bin/python3"), QStringLiteral("/opt/b/bin/python3") }));
        QCOMPARE(s.lastDialogFolder(), dir.path());
        QCOMPARE(s.windowGeometry(), QByteArray("geometry"));
        QCOMPARE(s.windowState(), QByteArray("state"));
        QCOMPARE(s.lastPage(), QStringLiteral("Training"));
        QCOMPARE(s.vpocInput(), QStringLiteral("/data/es.csv"));
        QCOMPARE(s.trainingOptions(), QByteArray("{\"epochs\":3}"));
    }

    void goneFolderIsNotKept()
    {
        QTemporaryDir dir;
        Settings s(dir.filePath(QStringLiteral("settings.ini")));
        s.setLastDialogFolder(dir.filePath(QStringLiteral("removed")));
        QVERIFY(s.lastDialogFolder().isEmpty());
    }

    void windowSessionComesBack()
    {
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("es.csv"));
        QFile f(input);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("time,open,high,low,close,volume\n");
        f.close();
        Settings settings(dir.filePath(QStringLiteral("settings.ini")));
        QString firstOutput;
        {
            MainWindow window;
            QVERIFY(window.showPage(QStringLiteral("VPOC")));
            window.vpocPage()->form()->setInputFile(input);
            auto config = window.trainingPage()->form()->config();
            config.epochs = 7;
            config.hidden = { 64, 8 };
            firstOutput = QString::fromStdString(config.output);
            window.trainingPage()->form()->setConfig(config);
            window.trainingPage()->form()->setResume(true);
            saveWindowSession(window, settings);
        }
        MainWindow window;
        restoreWindowSession(window, settings);
        QCOMPARE(window.currentPageTitle(), QStringLiteral("VPOC"));
        QCOMPARE(window.vpocPage()->form()->inputText(), input);
        const auto config = window.trainingPage()->form()->config();
        QCOMPARE(config.epochs, 7);
        QCOMPARE(config.hidden, (std::vector<int> { 64, 8 }));
        QVERIFY(!window.trainingPage()->form()->resume());
    }

    void unreadableOptionsLeaveTheDefaults_data()
    {
        QTest::addColumn<QByteArray>("saved");
        QTest::newRow("not JSON") << QByteArray("{epochs");
        QTest::newRow("wrong type") << QByteArray("{\"epochs\":\"many\"}");
        QTest::newRow("not an object") << QByteArray("[1,2]");
    }
    void unreadableOptionsLeaveTheDefaults()
    {
        QFETCH(QByteArray, saved);
        QTemporaryDir dir;
        Settings settings(dir.filePath(QStringLiteral("settings.ini")));
        settings.setTrainingOptions(saved);
        MainWindow window;
        const int before = window.trainingPage()->form()->config().epochs;
        restoreWindowSession(window, settings);
        QCOMPARE(window.trainingPage()->form()->config().epochs, before);
    }
};

QTEST_MAIN(TstSettings)
#include "tst_settings.moc"
