// The window's side of the links view (issue 33): the bandwidth controller beside the snapshot controller, File > Open
// bandwidth run…, a replayed report's run shown on the System page, the run shown going into each export.
#pragma once

#include <QString>

#include <functional>

class QMenu;
class QWidget;

namespace stackscope::ui {

class BandwidthController;
class ReportPage;
class ReportReplay;
class SnapshotController;
class SystemPage;

struct BandwidthWiring {
    SnapshotController* snapshots;
    SystemPage* systemPage;
    ReportReplay* replay;
    ReportPage* reportPage;
    QMenu* fileMenu;  // gets "Open bandwidth run…"
    QWidget* window;  // parent of the controller and the file dialog
};

// Creates the controller (a child of `window`) and connects it; errors go to `showError`.
BandwidthController* installBandwidth(const BandwidthWiring& w, std::function<void(const QString&)> showError);

// The file dialog of File > Open bandwidth run… and the System page's Open recorded run…
void openBandwidthRun(BandwidthController* controller, QWidget* parent);

} // namespace stackscope::ui
