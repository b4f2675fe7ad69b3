// Main window wiring: pages, menus, status line.
#include "ui/main_window.h"

#include "core/snapshot/stack_rows.h"
#include "core/util/build_info.h"
#include "ui/probes/probes_page.h"
#include "ui/report/compare_dialog.h"
#include "ui/report/replay_banner.h"
#include "ui/report/report_page.h"
#include "ui/report/report_replay.h"
#include "ui/system/system_page.h"
#include "ui/training/training_page.h"
#include "ui/vpoc/vpoc_page.h"
#ifdef STACKSCOPE_HAVE_MONITOR
#include "ui/monitor/monitor_dock.h"
#endif

#include <QAction>
#include <QApplication>
#include <QDropEvent>
#include <QMimeData>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
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
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("StackScope"));
    resize(1280, 820);

    m_pageList->setObjectName(QStringLiteral("pageList"));
    m_pageList->setFixedWidth(150);
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
        const int device = p.raw.value("device", -1);
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

    m_status->setText(tr("Inspecting this machine…"));
    statusBar()->addWidget(m_status, 1);

    connect(m_snapshots, &SnapshotController::snapshotChanged, m_systemPage, &SystemPage::showSnapshot);
    connect(m_snapshots, &SnapshotController::snapshotChanged, this, [this](SnapshotPtr s, const QString& origin) {
        const QString where = origin.isEmpty() ? (s->root ? tr("recorded root %1").arg(QString::fromStdString(*s->root)) : tr("this machine"))
                                               : origin;
        m_status->setText(tr("%1 — %2").arg(where, QString::fromStdString(stackSummary(*s))));
    });
    connect(m_snapshots, &SnapshotController::busyChanged, m_systemPage, &SystemPage::setBusy);
    connect(m_snapshots, &SnapshotController::busyChanged, this, [this](bool busy) {
        if (busy)
            m_status->setText(tr("Inspecting this machine…"));
    });
    connect(m_snapshots, &SnapshotController::errorOccurred, this, &MainWindow::showError);
    connect(m_systemPage, &SystemPage::refreshRequested, m_snapshots, &SnapshotController::refresh);
    createMenus();
}

void MainWindow::addPage(const QString& title, QWidget* page)
{
    m_pages->addWidget(page);
    m_pageList->addItem(title);
    if (m_pageList->currentRow() < 0)
        m_pageList->setCurrentRow(0);
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

QString MainWindow::statusText() const
{
    return m_status->text();
}

void MainWindow::createMenus()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(tr("&Open snapshot…"), this, &MainWindow::openSnapshot);
    open->setShortcut(QKeySequence::Open);
    auto* save = file->addAction(tr("&Save snapshot…"), this, &MainWindow::saveSnapshot);
    save->setShortcut(QKeySequence::Save);
    file->addSeparator();
    file->addAction(tr("Open &report…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open report"), QString(),
                                                          tr("StackScope report (report.json *.zip *.json);;All files (*)"));
        if (!path.isEmpty())
            m_replay->open(path);
    });
    file->addAction(tr("&Export support report…"), this, [this] {
        showPage(tr("Report"));
        m_reportPage->exportInteractive();
    });
    file->addAction(tr("&Compare…"), this, [this] {
        auto* dialog = new CompareDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    auto* view = menuBar()->addMenu(tr("&View"));
    auto* refresh = view->addAction(tr("&Refresh (inspect this machine)"), m_snapshots, &SnapshotController::refresh);
    refresh->setShortcut(QKeySequence::Refresh);
#ifdef STACKSCOPE_HAVE_MONITOR
    auto* monitor = m_monitor->toggleViewAction();
    monitor->setText(tr("&Monitor (VRAM, utilisation, temperature, power)"));
    monitor->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    view->addAction(monitor);
#endif

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About StackScope"), this, [this] {
        QMessageBox::about(this, tr("About StackScope"),
                           tr("<b>StackScope %1</b><p>A console for PyTorch on ROCm and CUDA GPUs.</p><p>Build: %2</p>")
                               .arg(QString::fromStdString(stackscopeVersion()), QString::fromStdString(buildDescription())));
    });
}

void MainWindow::openSnapshot()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open snapshot"), QString(), tr("StackScope snapshot (*.json);;All files (*)"));
    if (!path.isEmpty())
        m_snapshots->openFile(path);
}

void MainWindow::saveSnapshot()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save snapshot"), QStringLiteral("stackscope-snapshot.json"),
                                                tr("StackScope snapshot (*.json)"));
    if (path.isEmpty())
        return;
    if (m_snapshots->saveFile(path))
        m_status->setText(tr("Snapshot saved to %1").arg(path));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile() && ReportReplay::canOpen(urls.front().toLocalFile()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile() && m_replay->open(urls.front().toLocalFile()))
        event->acceptProposedAction();
}

void MainWindow::showError(const QString& message)
{
    statusBar()->showMessage(message, 15000);
    if (isVisible())
        QMessageBox::warning(this, tr("StackScope"), message);
}

} // namespace stackscope::ui
