// What the window keeps between sessions (Settings): its geometry and docks, the page shown, the VPOC input and the
// Training options. The program's main() restores and saves it; tests and screenshots start from the defaults.
#pragma once

namespace stackscope::ui {

class MainWindow;
class Settings;

// Before the window is shown: the geometry and docks, the page, the last VPOC input (while the file is there) and the
// last Training options (a new output folder each session, never resuming the last run by surprise). A value that
// cannot be read back (an older build's) is left at the default.
void restoreWindowSession(MainWindow& window, const Settings& settings);
// After the event loop ended, the window still alive.
void saveWindowSession(const MainWindow& window, Settings& settings);

} // namespace stackscope::ui
