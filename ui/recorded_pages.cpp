// Replay of a report's VPOC and training runs, and pages back at their top after a new snapshot.
#include "ui/recorded_pages.h"

#include "core/training/training_metadata.h"
#include "core/report/report_summary.h"
#include "core/vpoc/vpoc_recorded.h"
#include "ui/probes/probes_page.h"
#include "ui/report/redaction_list.h"
#include "ui/report/replay_banner.h"
#include "ui/report/report_replay.h"
#include "ui/report/session_logs.h"
#include "ui/system/snapshot_controller.h"
#include "ui/training/training_page.h"
#include "ui/vpoc/vpoc_page.h"

#include <QDir>
#include <QFileInfo>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedWidget>

namespace stackscope::ui {

namespace {

using nlohmann::json;

// The VPOC page gets the report's run; the text says what it got (or why not) for the banner.
QString fillVpoc(VpocPage* page, const json& run, const QString& origin)
{
    if (!run.is_object()) {
        page->clearRecordedRun();
        return QObject::tr("VPOC: none in the report");
    }
    try {
        auto result = std::make_shared<const vpoc::VpocResult>(vpoc::recordedVpocRun(run));
        const auto sessions = result->sessions.size();
        if (!page->showRecordedRun(std::move(result), origin))
            return QObject::tr("VPOC: not shown (a run is going on here)");
        return sessions == 1 ? QObject::tr("VPOC (1 session)") : QObject::tr("VPOC (%1 sessions)").arg(sessions);
    } catch (const vpoc::RecordedRunError& e) {
        page->clearRecordedRun();
        return QObject::tr("VPOC: unreadable (%1)").arg(QString::fromStdString(e.what()));
    }
}

QString fillTraining(TrainingPage* page, const json& run, const QString& origin)
{
    if (!run.is_object()) {
        page->clearRecordedRun();
        return QObject::tr("Training: none in the report");
    }
    if (!page->showRecordedRun(training::recordedTrainingRun(run), origin))
        return page->isRunning() ? QObject::tr("Training: not shown (a run is going on here)")
                                 : QObject::tr("Training: no epochs in the report");
    const auto epochs = run.value("epochs", json::array()).size();
    return epochs == 1 ? QObject::tr("Training (1 epoch)") : QObject::tr("Training (%1 epochs)").arg(epochs);
}

} // namespace

void scrollPagesToTop(QStackedWidget* pages)
{
    for (int i = 0; i < pages->count(); ++i) {
        if (auto* scroll = qobject_cast<QScrollArea*>(pages->widget(i))) {
            scroll->verticalScrollBar()->setValue(0);
            scroll->horizontalScrollBar()->setValue(0);
        }
    }
}

void installRecordedPages(const RecordedPages& w)
{
    QObject::connect(w.replay, &ReportReplay::opened, w.vpoc, [w](const QString& source) {
        const auto* loaded = w.replay->loaded();
        if (!loaded)
            return;
        // The folder's or file's name: the banner above gives the whole path.
        const QString name = QFileInfo(QDir::cleanPath(source)).fileName();
        const QString origin = QObject::tr("report %1").arg(name.isEmpty() ? source : name);
        w.logs->showReportLogs(loaded->logs, name.isEmpty() ? source : name);
        w.redactions->setOpenedReport(report::writtenRedaction(loaded->report));
        const QStringList filled { fillVpoc(w.vpoc, loaded->report.value("vpoc", json()), origin),
            fillTraining(w.training, loaded->report.value("training", json()), origin),
            w.logs->rowCount() == 0 ? QObject::tr("Logs: none in the report")
                                    : QObject::tr("Logs (%1, listed on the Report page)").arg(w.logs->rowCount()) };
        w.replay->banner()->setPagesNote(filled.join(QStringLiteral(" · ")));
        // One banner area: the purple replay banner already says whose machine this is, so the System page's yellow
        // "Not this machine" line does not stack under it (it comes back with the next snapshot shown).
        if (auto* notThisMachine = w.systemPage->findChild<QWidget*>(QStringLiteral("snapshotBanner")))
            notThisMachine->hide();
    });
    QObject::connect(w.replay, &ReportReplay::closed, w.vpoc, [w] {
        w.logs->endReportLogs();
        w.redactions->clearOpenedReport();
        w.vpoc->clearRecordedRun();
        w.training->clearRecordedRun();
    });
    // A new machine or report shown: every page starts at its top, where its verdict or status is.
    QObject::connect(
        w.snapshots, &SnapshotController::snapshotChanged, w.pages, [pages = w.pages] { scrollPagesToTop(pages); });
}

} // namespace stackscope::ui
