// The issue-35 walkthrough under a real X server with a window manager (Xvfb + openbox): the main window as the
// program builds it, sized to the screen by the window manager's rules, driven by X input events from xdotool (keys,
// menus, dialogs, clicks) at the screen size of this run (STACKSCOPE_XVFB_SIZE, 1920x1080 or 1024x640), one row per
// item, each checked inside the window and photographed (screenshots/xvfb-WxH-NN-name.png under the build folder);
// the last row starts the real `stackscope` program and checks that its window fits the screen. Without Xvfb,
// openbox, xdotool or ImageMagick's import the test is skipped (exit 77) and says what to install.
#include "tests/common/cli_process.h"
#include "tests/gui/xvfb_session.h"
#include "ui/main_window.h"
#include "ui/monitor/monitor_dock.h"
#include "ui/probes/outcome_chart.h"
#include "ui/probes/probes_page.h"
#include "ui/report/compare_dialog.h"
#include "ui/report/replay_banner.h"
#include "ui/report/report_replay.h"
#include "ui/vpoc/vpoc_form.h"
#include "ui/system/snapshot_controller.h"
#include "ui/system/system_page.h"
#include "ui/training/epoch_table_model.h"
#include "ui/training/training_form.h"
#include "ui/training/training_page.h"
#include "ui/vpoc/session_model.h"
#include "ui/vpoc/vpoc_page.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QChart>
#include <QDir>
#include <QHeaderView>
#include <QLegend>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QComboBox>
#include <QtTest>

#include <cmath>
#include <memory>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

stackscope::test::XvfbSession* g_x = nullptr;

QSize runSize()
{
    const QStringList wh
        = qEnvironmentVariable("STACKSCOPE_XVFB_SIZE", QStringLiteral("1920x1080")).split(QLatin1Char('x'));
    return wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize(1920, 1080);
}

// Every widget of `root` of type T whose text is `text`.
template <typename T> T* byText(QWidget* root, const QString& text)
{
    for (auto* w : root->findChildren<T*>())
        if (w->text() == text)
            return w;
    return nullptr;
}

// Whether `w` lies whole inside the viewport of the scroll area around it (and so inside the window).
bool wholeInView(QWidget* w, QScrollArea* area)
{
    const QRect r(w->mapTo(area->viewport(), QPoint(0, 0)), w->size());
    return r.left() >= 0 && r.right() < area->viewport()->width();
}

} // namespace

class TestXvfbWalkthrough : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void walkthrough_data();
    void walkthrough();

private:
    QString runScript(QString script, int timeoutMs = 30000);
    QString check(const QString& name);
    QString shotPath(const QString& name) const;
    QString substitute(QString script, const QString& shot) const;

    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_dir;
    QString m_reportFolder;
    QString m_nonCsv;
    int m_row = 0;
};

void TestXvfbWalkthrough::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // A report with a VPOC run and a training run (the CLI writes it from its own outputs).
    const QString bars = m_dir.filePath(QStringLiteral("bars.csv")), vpoc = m_dir.filePath(QStringLiteral("vpoc.json"));
    const QString training = m_dir.filePath(QStringLiteral("model_metadata.json"));
    QCOMPARE(stackscope::test::runCli({ QStringLiteral("sample-data"), QStringLiteral("--out"), bars }).exitCode, 0);
    const auto v = stackscope::test::runCli(
        { QStringLiteral("vpoc"), QStringLiteral("--input"), bars, QStringLiteral("--json") });
    QCOMPARE(v.exitCode, 0);
    QFile vf(vpoc);
    QVERIFY(vf.open(QIODevice::WriteOnly));
    vf.write(v.out);
    vf.close();
    nlohmann::json m = { { "schema", "stackscope.training/1" }, { "status", "finished" }, { "best_epoch", 2 },
        { "devices", { "CPU" } } };
    m["epochs"] = nlohmann::json::array();
    for (int e = 1; e <= 3; ++e)
        m["epochs"].push_back({ { "epoch", e }, { "train_loss", 1.0 - 0.01 * e }, { "val_loss", 1.153 - 0.002 * e },
            { "samples_per_s", 12345.0 * e }, { "seconds", 1234.5 } });
    QFile tf(training);
    QVERIFY(tf.open(QIODevice::WriteOnly));
    tf.write(QByteArray::fromStdString(m.dump()));
    tf.close();
    const QString snapshot = m_dir.filePath(QStringLiteral("h100.json"));
    const auto s = stackscope::test::runCli({ QStringLiteral("inspect"), QStringLiteral("--root"),
        QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/ubuntu2404-h100"), QStringLiteral("--out"), snapshot,
        QStringLiteral("--no-archscan") });
    QVERIFY2(s.exitCode == 0, s.err.constData());
    const auto r = stackscope::test::runCli({ QStringLiteral("report"), QStringLiteral("--out"),
        m_dir.filePath(QStringLiteral("out")), QStringLiteral("--snapshot"), snapshot, QStringLiteral("--vpoc"), vpoc,
        QStringLiteral("--training"), training, QStringLiteral("--no-archscan"), QStringLiteral("--no-telemetry") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    for (const QString& line : QString::fromUtf8(r.out).split(QLatin1Char('\n')))
        if (line.startsWith(QStringLiteral("folder: ")))
            m_reportFolder = line.mid(8).trimmed();
    QVERIFY(!m_reportFolder.isEmpty());
    m_nonCsv = m_dir.filePath(QStringLiteral("pasted-error.txt"));
    QFile nf(m_nonCsv);
    QVERIFY(nf.open(QIODevice::WriteOnly));
    nf.write("Error: CUDA out of memory. Tried to allocate 2.00 GiB\n");
    nf.close();

    // The window as app/gui/main.cpp makes it: sized to the screen, the recorded H100 machine shown.
    m_window = std::make_unique<MainWindow>();
    m_window->fitInto(QGuiApplication::primaryScreen()->availableGeometry());
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QSignalSpy shown(m_window->snapshots(), &SnapshotController::snapshotChanged);
    QVERIFY(m_window->snapshots()->inspectRoot(QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/ubuntu2404-h100")));
    QVERIFY(shown.wait(60000));
    QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
}

void TestXvfbWalkthrough::cleanupTestCase()
{
    m_window.reset();
}

// One row per issue-35 item a person checks: the script (xdotool lines; {win} is the main window, {shot} this row's
// screenshot, {report} the report folder, {nonCsv} a pasted error saved as .txt, {vpocInput} and {closeReport}
// where those widgets are on the screen) and the check run once it has ended.
void TestXvfbWalkthrough::walkthrough_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("check");
    const QString activate = QStringLiteral("xdotool windowactivate --sync {win}\nsleep 0.3\n");
    QTest::newRow("01 window fits the screen") << activate << "windowFits";
    QTest::newRow("02 item 5 Training form no sideways scroll")
        << activate + QStringLiteral("xdotool key ctrl+4\nsleep 0.8") << "trainingFits";
    QTest::newRow("03 item 5 Monitor dock compact")
        << activate + QStringLiteral("xdotool key ctrl+m\nsleep 1.2") << "monitorCompact";
    QTest::newRow("04 item 5 Monitor closed again")
        << activate + QStringLiteral("xdotool key ctrl+m\nsleep 0.6") << "monitorClosed";
    QTest::newRow("05 item 5 Probes legend whole")
        << activate + QStringLiteral("xdotool key ctrl+2\nsleep 1.0") << "probesLegend";
    QTest::newRow("06 item 7 File > Open report folder") << activate
            + QStringLiteral("xdotool key ctrl+1\nsleep 0.3\n"
                             "xdotool key alt+f\nsleep 0.6\nxdotool key f\nsleep 1.5\n"
                             "xdotool key ctrl+a\nxdotool type --delay 5 '{report}'\n"
                             "sleep 0.3\nxdotool key Return\nsleep 1.5")
                                                         << "reportOpen";
    QTest::newRow("07 item 7 VPOC shows the report's run")
        << activate + QStringLiteral("xdotool key ctrl+3\nsleep 1.0") << "vpocRecorded";
    QTest::newRow("08 item 7 Training shows the report's run")
        << activate + QStringLiteral("xdotool key ctrl+4\nsleep 1.0") << "trainingRecorded";
    QTest::newRow("09 item 10 Compare pre-filled, Tab A to B") << activate
            + QStringLiteral("xdotool key alt+f\nsleep 0.6\nxdotool key c\nsleep 1.5\nxdotool key Tab\nsleep 0.5")
                                                               << "compareDialog";
    QTest::newRow("10 item 10 Help Documentation, Run Resume") << activate
            + QStringLiteral(
                "xdotool key alt+h\nsleep 0.8\nimport -window root '{shot}'\nxdotool key Escape\nsleep 0.3\n"
                "xdotool key alt+r\nsleep 0.8\nimport -window root '{shot}.run.png'\nxdotool key Escape\nsleep 0.3")
                                                               << "menus";
    QTest::newRow("11 item 9 VPOC non-CSV message") << activate
            + QStringLiteral(
                "xdotool key ctrl+3\nsleep 0.6\nxdotool mousemove {vpocInput} click 1\nsleep 0.2\nxdotool key ctrl+a\n"
                "xdotool type --delay 5 '{nonCsv}'\nsleep 0.2\nxdotool key ctrl+Return\nsleep 2.0")
                                                    << "vpocNotCsv";
    QTest::newRow("12 item 7 Close report")
        << activate + QStringLiteral("xdotool mousemove {closeReport} click 1\nsleep 1.5") << "reportClosed";
    QTest::newRow("13 the stackscope program fits the screen") << QString() << "programFits";
}

void TestXvfbWalkthrough::walkthrough()
{
    QFETCH(QString, script);
    QFETCH(QString, check);
    ++m_row;
    const QString shot = shotPath(QString::fromLatin1(QTest::currentDataTag()));
    for (const QString& old :
        { shot, shot + QStringLiteral(".run.png"), shot + QStringLiteral(".id"), shot + QStringLiteral(".geometry") })
        QFile::remove(old); // a row's pictures are this run's, never an earlier run's
    if (!script.isEmpty()) {
        const QString failed = runScript(substitute(script, shot));
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
    }
    QTest::qWait(200);
    const QString problem = this->check(check);
    if (!QFileInfo::exists(shot)) {
        QProcess import;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), g_x->display());
        import.setProcessEnvironment(env);
        import.start(QStringLiteral("import"), { QStringLiteral("-window"), QStringLiteral("root"), shot });
        QVERIFY(import.waitForFinished(20000));
    }
    QVERIFY2(problem.isEmpty(), qPrintable(problem + QStringLiteral(" (screenshot: ") + shot + QLatin1Char(')')));
}

QString TestXvfbWalkthrough::shotPath(const QString& tag) const
{
    QString name = tag.toLower();
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    return QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/xvfb-%1x%2-%3.png")
        .arg(g_x->size().width())
        .arg(g_x->size().height())
        .arg(name);
}

QString TestXvfbWalkthrough::substitute(QString script, const QString& shot) const
{
    auto centre = [this](QWidget* w) {
        const QPoint c = w->mapToGlobal(w->rect().center());
        return QStringLiteral("%1 %2").arg(c.x()).arg(c.y());
    };
    script.replace(QStringLiteral("{win}"), QString::number(m_window->winId()));
    script.replace(QStringLiteral("{shot}"), shot);
    script.replace(QStringLiteral("{report}"), m_reportFolder);
    script.replace(QStringLiteral("{nonCsv}"), m_nonCsv);
    if (script.contains(QStringLiteral("{vpocInput}"))) {
        m_window->showPage(QStringLiteral("VPOC"));
        QTest::qWait(300);
        script.replace(QStringLiteral("{vpocInput}"),
            centre(m_window->vpocPage()->findChild<QLineEdit*>(QStringLiteral("vpocInput"))));
    }
    if (script.contains(QStringLiteral("{closeReport}")))
        script.replace(QStringLiteral("{closeReport}"),
            centre(byText<QPushButton>(m_window.get(), QStringLiteral("Close report"))));
    return script;
}

// Runs the script in the background while this thread's event loop turns (a dialog it answers runs in that loop).
QString TestXvfbWalkthrough::runScript(QString script, int timeoutMs)
{
    QProcess* p = g_x->startScript(script, this);
    QElapsedTimer clock;
    clock.start();
    while (p->state() != QProcess::NotRunning && clock.elapsed() < timeoutMs)
        QTest::qWait(20);
    const QString out = QString::fromUtf8(p->readAll());
    const bool ok = p->state() == QProcess::NotRunning && p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0;
    if (p->state() != QProcess::NotRunning) {
        p->kill();
        p->waitForFinished(2000);
    }
    p->deleteLater();
    return ok ? QString() : QStringLiteral("the xdotool script failed or hung: %1").arg(out.trimmed());
}

QString TestXvfbWalkthrough::check(const QString& name)
{
    MainWindow& w = *m_window;
    const QRect screen = QGuiApplication::primaryScreen()->geometry();
    if (name == QStringLiteral("windowFits")) {
        const QRect frame = w.frameGeometry();
        if (!screen.contains(frame))
            return QStringLiteral("the window's frame %1,%2 %3x%4 is not inside the screen %5x%6")
                .arg(frame.x())
                .arg(frame.y())
                .arg(frame.width())
                .arg(frame.height())
                .arg(screen.width())
                .arg(screen.height());
        return {};
    }
    if (name == QStringLiteral("trainingFits")) {
        auto* page = w.findChild<QScrollArea*>(QStringLiteral("TrainingScroll"));
        if (!page || !page->isVisible())
            return QStringLiteral("Ctrl+4 did not show the Training page");
        if (page->horizontalScrollBar()->isVisible())
            return QStringLiteral("the Training page scrolls sideways");
        for (auto* inner : page->widget()->findChildren<QScrollArea*>())
            if (inner->isVisible() && inner->horizontalScrollBar()->isVisible())
                return QStringLiteral("an area of the Training page scrolls sideways (%1)").arg(inner->objectName());
        auto* form = w.trainingPage()->form();
        QScrollArea* formArea = nullptr;
        for (QWidget* p = form->parentWidget(); p && !formArea; p = p->parentWidget())
            formArea = qobject_cast<QScrollArea*>(p);
        for (auto* b : form->findChildren<QPushButton*>())
            if (b->isVisible() && formArea && !wholeInView(b, formArea))
                return QStringLiteral("the form's %1 button is cut off").arg(b->text());
        for (auto* s : form->findChildren<QAbstractSpinBox*>())
            if (s->isVisible() && formArea && !wholeInView(s, formArea))
                return QStringLiteral("a spin box of the form is cut off");
        auto* table = w.trainingPage()->findChild<QTableView*>(QStringLiteral("trainingEpochs"));
        const QFontMetrics fm(table->horizontalHeader()->font());
        for (int c = 0; c < table->model()->columnCount(); ++c) {
            const QString h = table->model()->headerData(c, Qt::Horizontal).toString();
            if (table->columnWidth(c) < fm.horizontalAdvance(h))
                return QStringLiteral("the epoch table's header \"%1\" is cut (%2 px for %3)")
                    .arg(h)
                    .arg(table->columnWidth(c))
                    .arg(fm.horizontalAdvance(h));
        }
        return {};
    }
    if (name == QStringLiteral("monitorCompact")) {
        auto* dock = w.monitorDock();
        if (!dock)
            return {}; // a build without the Monitor
        if (!dock->isVisible())
            return QStringLiteral("Ctrl+M did not open the Monitor");
        QTest::qWait(300);
        auto* page = w.findChild<QScrollArea*>(QStringLiteral("TrainingScroll"));
        const int limit = dock->chartsCollapsed() ? 160 : w.height() * 45 / 100;
        if (dock->height() > limit)
            return QStringLiteral("the Monitor takes %1 px of a %2 px window (at most %3)")
                .arg(dock->height())
                .arg(w.height())
                .arg(limit);
        if (page->viewport()->height() < w.height() / 2)
            return QStringLiteral("the page keeps only %1 px of %2 with the Monitor open")
                .arg(page->viewport()->height())
                .arg(w.height());
        if (dock->chartsCollapsed() && !dock->messageText().startsWith(QStringLiteral("No GPU samples")))
            return QStringLiteral("the collapsed Monitor says \"%1\"").arg(dock->messageText());
        return {};
    }
    if (name == QStringLiteral("monitorClosed"))
        return w.monitorDock() && w.monitorDock()->isVisible() ? QStringLiteral("Ctrl+M did not close the Monitor")
                                                               : QString();
    if (name == QStringLiteral("probesLegend")) {
        auto* chart = w.probesPage()->findChild<OutcomeChart*>();
        if (!chart || !chart->isVisible())
            return QStringLiteral("Ctrl+2 did not show the Probes page's chart");
        auto* legend = chart->chart()->legend();
        const QFontMetrics fm(legend->font());
        int widest = 0;
        for (const char* label : { "ok", "error", "crash", "hang", "wrong" })
            widest = std::max(widest, fm.horizontalAdvance(QString::fromLatin1(label)));
        if (legend->geometry().width() < widest + fm.height())
            return QStringLiteral("the legend is %1 px wide; \"crash\"/\"wrong\" need %2")
                .arg(legend->geometry().width())
                .arg(widest + fm.height());
        return {};
    }
    if (name == QStringLiteral("reportOpen")) {
        if (!w.replay()->isOpen())
            return QStringLiteral("File > Open report folder did not open %1").arg(m_reportFolder);
        if (!w.vpocPage()->showsRecordedRun() || !w.trainingPage()->showsRecordedRun())
            return QStringLiteral("the report's VPOC or training run is not on its page");
        auto* notThisMachine = w.systemPage()->findChild<QWidget*>(QStringLiteral("snapshotBanner"));
        if (notThisMachine && notThisMachine->isVisible())
            return QStringLiteral("the yellow banner stands under the purple one");
        if (w.findChild<QScrollArea*>(QStringLiteral("SystemScroll"))->verticalScrollBar()->value() != 0)
            return QStringLiteral("the System page is not at its top");
        return {};
    }
    if (name == QStringLiteral("vpocRecorded")) {
        if (w.vpocPage()->sessionModel()->rowCount() == 0)
            return QStringLiteral("no sessions on the VPOC page");
        for (auto* axis : w.vpocPage()->priceChart()->axes(Qt::Vertical)) {
            auto* y = qobject_cast<QValueAxis*>(axis);
            if (y && std::fabs(y->tickAnchor() / 0.25 - std::round(y->tickAnchor() / 0.25)) > 1e-9)
                return QStringLiteral("price ticks off the 0.25 grid (%1)").arg(y->tickAnchor());
        }
        return {};
    }
    if (name == QStringLiteral("trainingRecorded"))
        return w.trainingPage()->epochModel()->rowCount() == 3 ? QString()
                                                               : QStringLiteral("the report's 3 epochs are not shown");
    if (name == QStringLiteral("compareDialog")) {
        auto* dialog = w.findChild<CompareDialog*>();
        if (!dialog || !dialog->isVisible())
            return QStringLiteral("File > Compare did not open");
        QStringList texts;
        for (auto* e : dialog->findChildren<QLineEdit*>())
            texts << e->text();
        auto* focused = qobject_cast<QLineEdit*>(QApplication::focusWidget());
        const bool tabToB = focused && focused->text() == CompareDialog::thisMachineText();
        const QRect frame = dialog->frameGeometry();
        dialog->close();
        if (!screen.contains(frame))
            return QStringLiteral("the Compare window (%1x%2) does not fit the screen")
                .arg(frame.width())
                .arg(frame.height());
        if (!texts.contains(CompareDialog::thisMachineText()))
            return QStringLiteral("B is not this machine: %1").arg(texts.join(QStringLiteral(" | ")));
        bool haveA = false;
        for (const QString& t : texts)
            haveA = haveA || (!t.isEmpty() && QDir::cleanPath(t) == QDir::cleanPath(m_reportFolder));
        if (!haveA)
            return QStringLiteral("A is not the open report: %1").arg(texts.join(QStringLiteral(" | ")));
        return tabToB ? QString() : QStringLiteral("Tab from A did not go to B");
    }
    if (name == QStringLiteral("menus")) {
        for (const char* action : { "documentationAction", "resumeAction", "openReportFolderAction" })
            if (!w.findChild<QAction*>(QString::fromLatin1(action)))
                return QStringLiteral("no %1").arg(QString::fromLatin1(action));
        return {};
    }
    if (name == QStringLiteral("vpocNotCsv")) {
        auto* vpoc = w.vpocPage();
        QElapsedTimer clock;
        clock.start();
        while (vpoc->isRunning() && clock.elapsed() < 20000)
            QTest::qWait(50);
        // The opened report's run set the form's Format to the one its file was read as (bars): the reader then says
        // which bar columns are missing; with Format auto it says the file is not market data. Either way the whole
        // hint is on the page, its parenthesis closed.
        const auto* format = qobject_cast<QComboBox*>(vpoc->form()->fieldWidget("format"));
        const bool bars = format && format->currentText() == QStringLiteral("bars");
        const QString text = vpoc->statusText();
        if (!vpoc->statusIsError()
            || !text.contains(bars ? QStringLiteral("bars need timestamp") : QStringLiteral("not market data")))
            return QStringLiteral("the VPOC page says \"%1\"").arg(text);
        if ((!bars && !text.contains(QStringLiteral("give a CSV whose header has"))) || text.count(QLatin1Char('('))
                != text.count(QLatin1Char(')')) || !vpoc->detailText().isEmpty())
            return QStringLiteral("the hint is not on the page");
        return {};
    }
    if (name == QStringLiteral("reportClosed"))
        return !w.replay()->isOpen() && !w.trainingPage()->showsRecordedRun()
            ? QString()
            : QStringLiteral("Close report left the report's runs");
    if (name == QStringLiteral("programFits")) {
        const QString program = qEnvironmentVariable("STACKSCOPE_GUI_PROGRAM");
        if (program.isEmpty())
            return {}; // the build has no GUI program
        // Alone on the screen, as a person starts it (beside the test's window the window manager would cascade it).
        w.hide();
        QTest::qWait(300);
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), g_x->display());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
        gui.setProcessEnvironment(env);
        gui.start(program,
            { QStringLiteral("--root"), QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/ubuntu2404-h100"),
                QStringLiteral("--page"), QStringLiteral("Training") });
        if (!gui.waitForStarted(10000))
            return QStringLiteral("%1 did not start").arg(program);
        const QString script
            = QStringLiteral("xdotool search --sync --onlyvisible --pid %1 --name '^StackScope$' | head -1 > '%2.id'\n"
                             "sleep 2\nxwininfo -id $(cat '%2.id') > '%2.geometry'\n"
                             "import -window root '%2'")
                  .arg(gui.processId())
                  .arg(shotPath(QStringLiteral("13 the stackscope program fits the screen")));
        const QString failed = runScript(script, 40000);
        gui.terminate();
        if (!gui.waitForFinished(5000))
            gui.kill();
        if (!failed.isEmpty())
            return failed;
        QFile geometry(
            shotPath(QStringLiteral("13 the stackscope program fits the screen")) + QStringLiteral(".geometry"));
        if (!geometry.open(QIODevice::ReadOnly))
            return QStringLiteral("no geometry of the program's window");
        // xwininfo's "Absolute upper-left X:  5" lines (xdotool's geometry adds the frame's offset twice under
        // openbox).
        QMap<QString, int> g;
        for (const QByteArray& line : geometry.readAll().split('\n')) {
            const QString text = QString::fromLatin1(line).trimmed();
            for (const auto& [key, label] :
                { std::pair { "X", "Absolute upper-left X:" }, std::pair { "Y", "Absolute upper-left Y:" },
                    std::pair { "WIDTH", "Width:" }, std::pair { "HEIGHT", "Height:" } })
                if (text.startsWith(QString::fromLatin1(label)))
                    g[QString::fromLatin1(key)] = text.mid(int(qstrlen(label))).trimmed().toInt();
        }
        if (g.size() != 4)
            return QStringLiteral("xwininfo did not give the program's window geometry");
        if (g.value(QStringLiteral("X")) < 0 || g.value(QStringLiteral("Y")) < 0
            || g.value(QStringLiteral("X")) + g.value(QStringLiteral("WIDTH")) > screen.width()
            || g.value(QStringLiteral("Y")) + g.value(QStringLiteral("HEIGHT")) > screen.height())
            return QStringLiteral("the program's window %1,%2 %3x%4 does not fit the %5x%6 screen")
                .arg(g.value(QStringLiteral("X")))
                .arg(g.value(QStringLiteral("Y")))
                .arg(g.value(QStringLiteral("WIDTH")))
                .arg(g.value(QStringLiteral("HEIGHT")))
                .arg(screen.width())
                .arg(screen.height());
        return {};
    }
    return QStringLiteral("no check named %1").arg(name);
}

int main(int argc, char** argv)
{
    const QString missing = stackscope::test::missingXvfbTools();
    if (!missing.isEmpty()) {
        std::printf("SKIP   : tst_xvfb_walkthrough: %s\n", qPrintable(missing));
        return 77; // CTest's SKIP_RETURN_CODE
    }
    stackscope::test::XvfbSession x(runSize());
    if (!x.error().isEmpty()) {
        std::printf("SKIP   : tst_xvfb_walkthrough: %s\n", qPrintable(x.error()));
        return 77;
    }
    g_x = &x;
    qputenv("DISPLAY", x.display().toLocal8Bit());
    qputenv("QT_QPA_PLATFORM", "xcb");
    QStandardPaths::setTestModeEnabled(true); // QSettings (the last dialog folder) in a test location
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("StackScope"));
    QApplication::setOrganizationName(QStringLiteral("StackScope"));
    // Qt's own file dialog (no desktop portal under Xvfb): the same widgets on every machine, typed into by xdotool.
    QApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    TestXvfbWalkthrough test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_xvfb_walkthrough.moc"
