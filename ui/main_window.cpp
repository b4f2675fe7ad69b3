// Main window wiring: pages, menus, status line.
#include "ui/main_window.h"

#include "core/diagnosis/machine_diagnosis.h"

#include "core/snapshot/stack_rows.h"
#include "core/util/build_info.h"
#include "ui/bandwidth_wiring.h"
#include "ui/probes/log_diagnosis_dialog.h"
#include "ui/help_documentation.h"
#include "ui/recorded_pages.h"
#include "ui/session_findings.h"
#include "ui/models/findings_model.h"
#include "ui/probes/probes_page.h"
#include "ui/report/compare_dialog.h"
#include "ui/report/replay_banner.h"
#include "ui/report/report_page.h"
#include "ui/report/report_replay.h"
#include "ui/report/session_logs.h"
#include "ui/system/system_page.h"
#include "ui/training/training_page.h"
#include "ui/vpoc/vpoc_page.h"
#include "ui/widgets/elided_label.h"
#include "ui/widgets/file_dialogs.h"
#include "ui/widgets/gui_message.h"
#ifdef STACKSCOPE_HAVE_MONITOR
#include "ui/monitor/monitor_dock.h"
#endif

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QDropEvent>
#include <QMimeData>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

namespace stackscope::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_snapshots(new SnapshotController(this))
    , m_pageList(new QListWidget(this))
    , m_pages(new QStackedWidget(this))
    , m_systemPage(new SystemPage(this))
    , m_vpocPage(new VpocPage(this))
    , m_probesPage(new ProbesPage(m_snapshots, this))
    , m_reportPage(new ReportPage(m_snapshots, m_probesPage, this))
    , m_status(new ElidedLabel(this))
{
    setWindowTitle(tr("StackScope"));
    resize(1280, 820); // the default size: fitInto grows it on a large screen

    m_pageList->setObjectName(QStringLiteral("pageList"));
    // Room for the longest title ("Training") and its padding; every pixel more is taken from the pages at 1024x640.
    m_pageList->setFixedWidth(120);
    m_pageList->setStyleSheet(QStringLiteral("QListWidget { font-size: 14px; } QListWidget::item { padding: 8px; }"));
    connect(m_pageList, &QListWidget::currentRowChanged, m_pages, &QStackedWidget::setCurrentIndex);

    auto* central = new QWidget(this);
    auto* banner = new ReplayBanner(central);
    m_replay = new ReportReplay(m_snapshots, m_probesPage, banner, this);
    auto* outer = new QVBoxLayout(central);
    outer->addWidget(banner);
    auto* layout = new QHBoxLayout;
    layout->addWidget(m_pageList);
    layout->addWidget(m_pages, 1);
    outer->addLayout(layout, 1);
    setCentralWidget(central);
    setAcceptDrops(true);
    addPage(tr("System"), m_systemPage);
    addPage(tr("Probes"), m_probesPage);
    addPage(tr("VPOC"), m_vpocPage);
    auto* training = new TrainingPage(m_snapshots, this);
    m_trainingPage = training;
    addPage(tr("Training"), training);
    addPage(tr("Report"), m_reportPage);
    m_reportPage->setVpocPage(m_vpocPage);
    m_reportPage->addLivePage(tr("Training"), training);
    m_reportPage->setTrainingRunSource([training] { return training->outputFolder(); });
    connect(m_replay, &ReportReplay::errorOccurred, this, &MainWindow::showError);
    connect(m_reportPage, &ReportPage::errorOccurred, this, &MainWindow::showError);
#ifdef STACKSCOPE_HAVE_MONITOR
    // The Monitor is a dock so it stays reachable from every page (View > Monitor).
    m_monitor = new MonitorDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, m_monitor);
    m_monitor->hide();
    // The Monitor draws libtorch's allocated/reserved beside VRAM while this process trains on a GPU.
    // The peak is the highest allocated figure reported so far (the trainer reports current values only).
    training->setStepObserver([feed = m_monitor->torchFeed(), snapshots = m_snapshots,
                               peak = 0.0](const training::TrainingProgress& p) mutable {
        const int device = p.device;
        const auto snapshot = snapshots->snapshot();
        if (!feed || p.allocatedBytes < 0 || device < 0 || !snapshot)
            return;
        peak = std::max(peak, p.allocatedBytes);
        for (const auto& gpu : snapshot->gpus) {
            if (gpu.index == device)
                feed->push(gpu.vendor, device, p.allocatedBytes, p.reservedBytes, peak);
        }
    });
#endif

    m_status->setFullText(tr("Inspecting this machine…"));
    statusBar()->addWidget(m_status, 1);

    connect(m_snapshots, &SnapshotController::snapshotChanged, m_systemPage, &SystemPage::showSnapshot);
    // The counts are the System page's findings: the one diagnosis of the snapshot, the session's logs and the probe
    // results measured on it.
    connect(m_systemPage, &SystemPage::diagnosisShown, this, [this] {
        const SnapshotPtr s = m_snapshots->snapshot();
        if (!s)
            return;
        const QString origin = m_snapshots->origin();
        const QString where = origin.isEmpty() ? (s->root ? tr("recorded root %1").arg(QString::fromStdString(*s->root)) : tr("this machine"))
                                               : origin;
        m_status->setFullText(tr("%1 — %2").arg(where, QString::fromStdString(stackSummary(*s, m_systemPage->findingsModel()->findings()))));
    });
    connect(m_snapshots, &SnapshotController::busyChanged, m_systemPage, &SystemPage::setBusy);
    connect(m_snapshots, &SnapshotController::busyChanged, this, [this](bool busy) {
        if (!busy)
            return;
        m_status->setFullText(tr("Inspecting %1…").arg(m_snapshots->inspectingText()));
        m_systemPage->showInspecting(m_snapshots->inspectingText());
    });
    connect(m_snapshots, &SnapshotController::errorOccurred, this, &MainWindow::showError);
    connect(m_systemPage, &SystemPage::refreshRequested, m_snapshots, &SnapshotController::refresh);
    connect(m_systemPage, &SystemPage::pasteLogRequested, this, [this] { openLogDiagnosis(); });
    connect(m_reportPage, &ReportPage::pasteLogRequested, this, [this] { openLogDiagnosis(); });
    createMenus();
    installRecordedPages({m_snapshots, m_replay, m_vpocPage, m_trainingPage, m_pages, m_systemPage, m_reportPage->sessionLogs(),
                          m_reportPage->redactionList()});
    installSessionFindings(m_reportPage->sessionLogs(), m_systemPage, m_probesPage);
    m_bandwidth = installBandwidth({m_snapshots, m_systemPage, m_replay, m_reportPage,
                                    menuBar()->actions().isEmpty() ? nullptr : menuBar()->actions().first()->menu(), this},
                                   [this](const QString& message) { showError(message); });
    // A table is one tab stop: Tab leaves it, the arrow keys move inside it.
    for (auto* view : findChildren<QAbstractItemView*>())
        view->setTabKeyNavigation(false);
}

void MainWindow::addPage(const QString& title, QWidget* page)
{
    // Every page scrolls inside its own area: no page sets the window's minimum size (1024x640 must work).
    auto* scroll = new QScrollArea(m_pages);
    scroll->setObjectName(title + QStringLiteral("Scroll"));
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_pages->addWidget(scroll);
    m_pageList->addItem(title);
    if (m_pageList->currentRow() < 0)
        m_pageList->setCurrentRow(0);
}

void MainWindow::fitInto(const QRect& available)
{
    // Before the first show the window manager's frame is unknown: a title bar and borders take about
    // 40 px down and 8 px across (openbox 32 + 4 + 4, GNOME's headerless frame less).
    const QSize frame = isVisible() ? frameGeometry().size() - size() : QSize(8, 40);
    const QSize room = (available.size() - frame).expandedTo(minimumSizeHint());
    // A large screen gets most of its area (1280x820 on 1920x1080 left the System page's findings below the fold:
    // walkthrough 2026-11-27 problem 21); a small one the room it has.
    // A size restored from the last session is the user's: it only shrinks to fit.
    const QSize large = size() == QSize(1280, 820) ? room * 0.85 : size();
    resize(size().expandedTo(large).boundedTo(room));
}

bool MainWindow::showPage(const QString& title)
{
    for (int i = 0; i < m_pageList->count(); ++i) {
        if (m_pageList->item(i)->text().compare(title, Qt::CaseInsensitive) == 0) {
            m_pageList->setCurrentRow(i);
            return true;
        }
    }
    return false;
}

QString MainWindow::currentPageTitle() const
{
    const auto* item = m_pageList->currentItem();
    return item ? item->text() : QString();
}

QString MainWindow::statusText() const
{
    return m_status->fullText();
}

void MainWindow::createMenus()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(tr("&Open snapshot…"), this, &MainWindow::openSnapshot);
    open->setShortcut(QKeySequence::Open);
    auto* save = file->addAction(tr("&Save snapshot…"), this, &MainWindow::saveSnapshot);
    save->setShortcut(QKeySequence::Save);
    file->addSeparator();
    auto* openReport = file->addAction(tr("Open &report…"), this, [this] {
        const QString path = openFileInLastFolder(this, tr("Open report"),
                                                  tr("StackScope report (report.json *.zip *.json);;All files (*)"));
        if (!path.isEmpty())
            m_replay->open(path);
    });
    openReport->setObjectName(QStringLiteral("openReportAction"));
    // An exported report is a folder too (beside its .zip): a file dialog cannot pick a folder, so a second entry.
    auto* openReportFolder = file->addAction(tr("Open report &folder…"), this, [this] {
        const QString dir = folderInLastFolder(this, tr("Open report folder (the one holding report.json)"));
        if (!dir.isEmpty())
            m_replay->open(dir);
    });
    openReportFolder->setObjectName(QStringLiteral("openReportFolderAction"));
    // A place holder: the Run menu's export action (with Ctrl+E) takes its place, so both menus show the key.
    file->addAction(tr("&Export support report…"))->setObjectName(QStringLiteral("fileExportPlace"));
    // Compare starts with A = the report (or snapshot file) shown, B = this machine as last inspected here.
    auto lastHere = std::make_shared<SnapshotPtr>();
    connect(m_snapshots, &SnapshotController::snapshotChanged, this, [this, lastHere](SnapshotPtr s, const QString&) {
        if (m_snapshots->isThisMachine())
            *lastHere = std::move(s);
    });
    file->addAction(tr("&Compare…"), this, [this, lastHere] {
        auto* dialog = new CompareDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        const QString shown = m_replay->loaded() ? QString::fromStdString(m_replay->loaded()->source)
                              : m_snapshots->isThisMachine() ? QString()
                                                             : m_snapshots->origin();
        dialog->setFiles(shown);
        dialog->setThisMachineAsB(*lastHere);
        dialog->show();
    })->setObjectName(QStringLiteral("compareAction"));
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    auto* view = menuBar()->addMenu(tr("&View"));
    auto* refresh = view->addAction(tr("&Refresh (inspect this machine)"), m_snapshots, &SnapshotController::refresh);
    refresh->setObjectName(QStringLiteral("refreshAction"));
    refresh->setShortcut(QKeySequence(Qt::Key_F5));
#ifdef STACKSCOPE_HAVE_MONITOR
    auto* monitor = m_monitor->toggleViewAction();
    monitor->setText(tr("&Monitor (VRAM, utilisation, temperature, power)"));
    monitor->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    view->addAction(monitor);
#endif

    createGoMenu();
    createRunMenu();

    auto* help = menuBar()->addMenu(tr("&Help"));
    auto* docs = help->addAction(tr("&Documentation"), this, [this] { openDocumentation(this); });
    docs->setObjectName(QStringLiteral("documentationAction"));
    docs->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About StackScope"), this, [this] {
        QMessageBox::about(this, tr("About StackScope"),
                           tr("<b>StackScope %1</b><p>A console for PyTorch on ROCm and CUDA GPUs.</p><p>Build: %2</p>")
                               .arg(QString::fromStdString(stackscopeVersion()), QString::fromStdString(buildDescription())));
    });
}

void MainWindow::createGoMenu()
{
    auto* go = menuBar()->addMenu(tr("&Go"));
    for (int i = 0; i < m_pageList->count() && i < 9; ++i) {
        auto* action = go->addAction(m_pageList->item(i)->text(), this, [this, i] {
            m_pageList->setCurrentRow(i);
            m_pages->currentWidget()->setFocus();
        });
        action->setObjectName(QStringLiteral("goPage%1").arg(i + 1));
        action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }
}

// Run, Cancel and Export act on the page in view; a page without that action ignores the key.
void MainWindow::createRunMenu()
{
    auto* run = menuBar()->addMenu(tr("&Run"));
    auto* start = run->addAction(tr("&Run this page (probes, VPOC, training; inspect on System)"), this, &MainWindow::runCurrentPage);
    start->setObjectName(QStringLiteral("runAction"));
    start->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    auto* resume = run->addAction(tr("Re&sume training"), this, [this] {
        showPage(tr("Training"));
        m_trainingPage->resume();
    });
    resume->setObjectName(QStringLiteral("resumeAction"));
    resume->setToolTip(tr("Continue the stopped training run from its checkpoint"));
    resume->setEnabled(m_trainingPage->canResume());
    connect(m_trainingPage, &TrainingPage::resumableChanged, resume, &QAction::setEnabled);
    auto* cancel = run->addAction(tr("&Cancel the run"), this, &MainWindow::cancelCurrentPage);
    cancel->setObjectName(QStringLiteral("cancelAction"));
    cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    auto* exportReport = run->addAction(tr("&Export support report…"), this, [this] {
        showPage(tr("Report"));
        m_reportPage->exportInteractive();
    });
    exportReport->setObjectName(QStringLiteral("exportAction"));
    exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    // Off while an export runs in the background: a second one would only drop the first.
    connect(m_reportPage, &ReportPage::exportRunningChanged, exportReport, [exportReport](bool running) {
        exportReport->setEnabled(!running);
    });
    // One action in both menus: a second action with Ctrl+E would make the key ambiguous (neither fires), and
    // one without it left the File menu showing no shortcut.
    if (auto* place = findChild<QAction*>(QStringLiteral("fileExportPlace"))) {
        for (QObject* owner : place->associatedObjects()) {
            if (auto* menu = qobject_cast<QMenu*>(owner)) {
                menu->insertAction(place, exportReport);
                menu->removeAction(place);
            }
        }
        delete place;
    }
    auto* paste = run->addAction(tr("&Paste a log or error…"), this, [this] { openLogDiagnosis(); });
    paste->setObjectName(QStringLiteral("pasteLogAction"));
    paste->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));
}

QWidget* MainWindow::currentPage() const
{
    auto* scroll = qobject_cast<QScrollArea*>(m_pages->currentWidget());
    return scroll ? scroll->widget() : m_pages->currentWidget();
}

void MainWindow::runCurrentPage()
{
    QWidget* page = currentPage();
    if (page == m_systemPage)
        m_snapshots->refresh();
    else if (page == m_probesPage && !m_probesPage->isRunning())
        m_probesPage->runAll();
    else if (page == m_vpocPage && !m_vpocPage->isRunning())
        m_vpocPage->run();
    else if (page == m_trainingPage && !m_trainingPage->isRunning())
        m_trainingPage->start();
}

void MainWindow::cancelCurrentPage()
{
    QWidget* page = currentPage();
    if (page == m_probesPage && m_probesPage->isRunning())
        m_probesPage->cancel();
    else if (page == m_vpocPage && m_vpocPage->isRunning())
        m_vpocPage->cancel();
    else if (page == m_trainingPage && m_trainingPage->isRunning())
        m_trainingPage->stop();
}

void MainWindow::openSnapshot()
{
    const QString path = openFileInLastFolder(this, tr("Open snapshot"), tr("StackScope snapshot (*.json);;All files (*)"));
    if (!path.isEmpty())
        m_snapshots->openFile(path);
}

void MainWindow::saveSnapshot()
{
    QString path = saveFileInLastFolder(this, tr("Save snapshot"), QStringLiteral("stackscope-snapshot.json"),
                                        tr("StackScope snapshot (*.json)"));
    if (path.isEmpty())
        return;
    if (m_snapshots->saveFile(path))
        m_status->setFullText(tr("Snapshot saved to %1").arg(path));
}

LogDiagnosisDialog* MainWindow::openLogDiagnosis(const QString& textFile)
{
    auto* dialog = new LogDiagnosisDialog(m_snapshots->snapshot(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // What is pasted or dropped is part of the session: the Report page lists it and the export writes it.
    connect(dialog, &LogDiagnosisDialog::logKept, m_reportPage->sessionLogs(), &SessionLogModel::add);
    dialog->show();
    if (!textFile.isEmpty())
        dialog->diagnoseFile(textFile);
    return dialog;
}

// A report or snapshot opens for replay; any other local file is read as a log to diagnose.
void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const auto urls = event->mimeData()->urls();
    const QString path = urls.size() == 1 && urls.front().isLocalFile() ? urls.front().toLocalFile() : QString();
    if (!path.isEmpty() && (ReportReplay::canOpen(path) || QFileInfo(path).isFile()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.front().isLocalFile())
        return;
    const QString path = urls.front().toLocalFile();
    if (ReportReplay::canOpen(path)) {
        m_replay->open(path); // read in the background: the banner says "Loading …", errors come as a message
        event->acceptProposedAction();
    } else if (openLogDiagnosis(path) != nullptr) {
        event->acceptProposedAction();
    }
}

void MainWindow::showError(const QString& message)
{
    // One line in the status bar and the box; the whole text behind the box's "Show Details…".
    const GuiMessage m = guiMessage(message);
    statusBar()->showMessage(m.line, 15000);
    if (!isVisible())
        return;
    QMessageBox box(QMessageBox::Warning, tr("StackScope"), m.line, QMessageBox::Ok, this);
    if (!m.details.isEmpty())
        box.setDetailedText(m.details);
    box.exec();
}

} // namespace stackscope::ui
