#include "ui/bandwidth_wiring.h"

#include "ui/report/report_page.h"
#include "ui/report/report_replay.h"
#include "ui/system/bandwidth_controller.h"
#include "ui/system/links_panel.h"
#include "ui/system/system_page.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

namespace stackscope::ui {

void openBandwidthRun(BandwidthController* controller, QWidget* parent)
{
    const QString path = QFileDialog::getOpenFileName(parent, QObject::tr("Open bandwidth run"), QString(),
                                                      QObject::tr("Bandwidth run (*.json);;All files (*)"));
    if (!path.isEmpty())
        controller->openFile(path);
}

BandwidthController* installBandwidth(const BandwidthWiring& w, std::function<void(const QString&)> showError)
{
    auto* controller = new BandwidthController(w.snapshots, w.window);
    controller->setObjectName(QStringLiteral("bandwidthController"));
    w.systemPage->links()->setController(controller);
    QObject::connect(controller, &BandwidthController::errorOccurred, w.window, std::move(showError));
    QObject::connect(w.systemPage->links(), &LinksPanel::openRequested, controller,
                     [controller, parent = w.window] { openBandwidthRun(controller, parent); });
    if (w.fileMenu) {
        auto* open = new QAction(QObject::tr("Open &bandwidth run…"), w.fileMenu);
        open->setObjectName(QStringLiteral("openBandwidthAction"));
        QObject::connect(open, &QAction::triggered, controller, [controller, parent = w.window] { openBandwidthRun(controller, parent); });
        // After Open snapshot…, so the two ways to show a recorded machine stand together.
        const auto actions = w.fileMenu->actions();
        w.fileMenu->insertAction(actions.size() > 1 ? actions[1] : nullptr, open);
    }
    // A replayed report shows its run (or says it has none); closing the replay clears it.
    QObject::connect(w.replay, &ReportReplay::opened, controller, [controller, replay = w.replay](const QString& source) {
        const auto* loaded = replay->loaded();
        if (loaded && loaded->bandwidth)
            controller->setRun(*loaded->bandwidth, QObject::tr("report %1").arg(QFileInfo(source).fileName()));
        else
            controller->clear(QObject::tr("The report %1 has no bandwidth run: it was made without one (stackscope-cli "
                                          "report --bandwidth FILE, or Measure links before the export).")
                                  .arg(QFileInfo(source).fileName()));
    });
    QObject::connect(w.replay, &ReportReplay::closed, controller, [controller] { controller->clear({}); });
    w.reportPage->setBandwidthSource([controller]() -> std::optional<perf::SuiteRun> {
        if (const auto shown = controller->shown())
            return shown->judged.run;
        return std::nullopt;
    });
    return controller;
}

} // namespace stackscope::ui
