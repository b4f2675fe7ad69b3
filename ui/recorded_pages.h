// The window's side of report replay beyond System and Probes: an opened report's pasted logs listed on the Report
// page (diagnosed and exported again), what its redaction replaced when written (the Report page's Redacted box), its VPOC and training runs shown on their pages (all taken off when the report
// closes), what was filled said in the replay banner, and every page
// scrolled to its top when another machine or report is shown (the verdict first, not the old scroll position).
#pragma once

class QStackedWidget;
class QWidget;

namespace stackscope::ui {

class RedactionList;
class ReportReplay;
class SessionLogModel;
class SnapshotController;
class TrainingPage;
class VpocPage;

struct RecordedPages {
    SnapshotController* snapshots;
    ReportReplay* replay;
    VpocPage* vpoc;
    TrainingPage* training;
    QStackedWidget* pages; // the window's page stack: each page in its own scroll area
    QWidget* systemPage; // its "Not this machine" line gives way to the replay banner (one banner area)
    SessionLogModel* logs; // the session's pasted logs: an opened report's take their place until it closes
    RedactionList* redactions; // the Report page's: what an opened report replaced when it was written
};

void installRecordedPages(const RecordedPages& w);

// Each page's scroll area back to its top left.
void scrollPagesToTop(QStackedWidget* pages);

} // namespace stackscope::ui
