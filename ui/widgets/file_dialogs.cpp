// File dialogs that remember the last folder.
#include "ui/widgets/file_dialogs.h"

#include "ui/settings/settings.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace stackscope::ui {

QString lastDialogFolder()
{
    const QString saved = Settings().lastDialogFolder();
    return saved.isEmpty() ? QDir::homePath() : saved;
}

bool hasLastDialogFolder()
{
    return !Settings().lastDialogFolder().isEmpty();
}

void rememberDialogFolder(const QString& fileOrFolder)
{
    if (fileOrFolder.isEmpty())
        return;
    const QFileInfo info(fileOrFolder);
    Settings().setLastDialogFolder(info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QString dialogStartFolder(const QString& start)
{
    if (!start.isEmpty()) {
        const QFileInfo info(start);
        if (info.isDir())
            return info.absoluteFilePath();
        if (QFileInfo(info.absolutePath()).isDir())
            return info.absolutePath();
    }
    return lastDialogFolder();
}

QString openFileInLastFolder(QWidget* parent, const QString& title, const QString& filter, const QString& start)
{
    const QString path = QFileDialog::getOpenFileName(parent, title, dialogStartFolder(start), filter);
    rememberDialogFolder(path);
    return path;
}

QString saveFileInLastFolder(QWidget* parent, const QString& title, const QString& name, const QString& filter)
{
    const QString path = QFileDialog::getSaveFileName(parent, title, QDir(lastDialogFolder()).filePath(name), filter);
    rememberDialogFolder(path);
    return path;
}

QString folderInLastFolder(QWidget* parent, const QString& title, const QString& start)
{
    const QString path = QFileDialog::getExistingDirectory(parent, title, dialogStartFolder(start));
    rememberDialogFolder(path);
    return path;
}

} // namespace stackscope::ui
