// File dialogs that remember the last folder.
#include "ui/widgets/file_dialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace stackscope::ui {

namespace {
constexpr const char* kKey = "dialogs/lastFolder";
} // namespace

QString lastDialogFolder()
{
    const QString saved = QSettings().value(QLatin1String(kKey)).toString();
    return !saved.isEmpty() && QFileInfo(saved).isDir() ? saved : QDir::homePath();
}

bool hasLastDialogFolder()
{
    const QString saved = QSettings().value(QLatin1String(kKey)).toString();
    return !saved.isEmpty() && QFileInfo(saved).isDir();
}

void rememberDialogFolder(const QString& fileOrFolder)
{
    if (fileOrFolder.isEmpty())
        return;
    const QFileInfo info(fileOrFolder);
    QSettings().setValue(QLatin1String(kKey), info.isDir() ? info.absoluteFilePath() : info.absolutePath());
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
