// File dialogs that start in the last folder the user chose in any of them (Settings::lastDialogFolder),
// not in the home folder each time.
#pragma once

#include <QString>

class QWidget;

namespace stackscope::ui {

// The folder the last dialog was left in; the home folder before the first.
QString lastDialogFolder();
// Whether any dialog has remembered a folder yet (a page may prefer its own first start, such as Documents).
bool hasLastDialogFolder();
void rememberDialogFolder(const QString& fileOrFolder);

// QFileDialog::getOpenFileName / getSaveFileName / getExistingDirectory, started in `start` where it is given
// (a folder, or a file whose folder is used) and exists, else in the last folder; the chosen path's folder is
// remembered. A save dialog's `name` (a bare file name) is put into that folder.
QString openFileInLastFolder(QWidget* parent, const QString& title, const QString& filter, const QString& start = {});
QString saveFileInLastFolder(QWidget* parent, const QString& title, const QString& name, const QString& filter);
QString folderInLastFolder(QWidget* parent, const QString& title, const QString& start = {});

// The start folder a dialog gets for `start` (exposed for tests): `start` itself or its folder when that exists,
// else the last folder.
QString dialogStartFolder(const QString& start);

} // namespace stackscope::ui
