// The main window: a page list beside the pages, menus, and a status line summarising the stack.
#pragma once

#include "ui/system/snapshot_controller.h"

#include <QMainWindow>

class QLabel;
class QListWidget;
class QStackedWidget;

namespace stackscope::ui {

class BandwidthController;
class ElidedLabel;
class LogDiagnosisDialog;
class MonitorDock;
class ProbesPage;
class ReportPage;
class ReportReplay;
class SystemPage;
class TrainingPage;
class VpocPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    SnapshotController* snapshots() const { return m_snapshots; }
    SystemPage* systemPage() const { return m_systemPage; }
    VpocPage* vpocPage() const { return m_vpocPage; }
    ProbesPage* probesPage() const { return m_probesPage; }
    ReportPage* reportPage() const { return m_reportPage; }
    TrainingPage* trainingPage() const { return m_trainingPage; }
    ReportReplay* replay() const { return m_replay; }
    // The bandwidth run shown on the System page (its links view).
    BandwidthController* bandwidth() const { return m_bandwidth; }
    // Null when the build has no telemetry panel.
    MonitorDock* monitorDock() const { return m_monitor; }
    // Adds a page to the list; later pages (Probes, VPOC, Training, Report) come in through here.
    void addPage(const QString& title, QWidget* page);
    QString statusText() const;
    // Shows the page with this title (case-insensitive); false when there is none.
    bool showPage(const QString& title);
    // The title of the page shown ("System", "VPOC", ...).
    QString currentPageTitle() const;
    // Shrinks the window (never below its minimum) so that it and its frame fit `available`, a screen's free
    // area: the default 1280x820 was taller than a 1280x720 laptop screen, status bar off the bottom.
    void fitInto(const QRect& available);
    // "Paste a log or error": opens the diagnosis dialog, with this text file's content when given.
    LogDiagnosisDialog* openLogDiagnosis(const QString& textFile = QString());

protected:
    // A report (report.json, its folder or .zip) or a snapshot dropped anywhere opens it for replay.
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createMenus();
    void createGoMenu();
    void createRunMenu();
    QWidget* currentPage() const;
    void runCurrentPage();
    void cancelCurrentPage();
    void openSnapshot();
    void saveSnapshot();
    void showError(const QString& message);

    SnapshotController* m_snapshots;
    QListWidget* m_pageList;
    QStackedWidget* m_pages;
    SystemPage* m_systemPage;
    VpocPage* m_vpocPage;
    ProbesPage* m_probesPage;
    ReportPage* m_reportPage;
    TrainingPage* m_trainingPage = nullptr;
    ReportReplay* m_replay;
    MonitorDock* m_monitor = nullptr;
    BandwidthController* m_bandwidth = nullptr;
    ElidedLabel* m_status;
};

} // namespace stackscope::ui
