// The GUI's data folder.
#include "ui/widgets/app_paths.h"

#include <QStandardPaths>

namespace stackscope::ui {

QString appDataFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/StackScope");
}

} // namespace stackscope::ui
