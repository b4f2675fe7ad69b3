// Where the GUI keeps its own files: ~/.local/share/StackScope (the sample data, default training outputs).
#pragma once

#include <QString>

namespace stackscope::ui {

// GenericDataLocation/StackScope. Qt's AppDataLocation adds the organisation and the application, both "StackScope",
// which gave ~/.local/share/StackScope/StackScope/...
QString appDataFolder();

} // namespace stackscope::ui
