// Finding and opening the documentation.
#include "ui/help_documentation.h"
#include "core/util/environment.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QUrl>

namespace stackscope::ui {

QStringList documentationCandidates()
{
    QStringList out;
    if (const QString dir = QString::fromStdString(envValue(EnvVar::DocDir)); !dir.isEmpty())
        out << QDir(dir).filePath(QStringLiteral("README.md"));
    out << QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/doc/stackscope/README.md"));
#ifdef STACKSCOPE_SOURCE_DIR
    out << QStringLiteral(STACKSCOPE_SOURCE_DIR "/README.md");
#endif
    for (QString& path : out)
        path = QDir::cleanPath(path);
    return out;
}

QString documentationFile()
{
    for (const QString& path : documentationCandidates()) {
        if (QFileInfo(path).isFile())
            return path;
    }
    return {};
}

void openDocumentation(QWidget* parent)
{
    const QString file = documentationFile();
    if (!file.isEmpty() && QDesktopServices::openUrl(QUrl::fromLocalFile(file)))
        return;
    const QString where = documentationCandidates().join(QStringLiteral("\n"));
    QMessageBox box(QMessageBox::Warning, QObject::tr("Documentation"),
        file.isEmpty() ? QObject::tr("The README was not found beside this StackScope.")
                       : QObject::tr("No program here opens %1: open it by hand.").arg(file),
        QMessageBox::Ok, parent);
    box.setInformativeText(
        QObject::tr("Looked in:\n%1\n\n`man stackscope` and `stackscope --help` describe the options; "
                    "`stackscope-cli COMMAND --help` each command.")
            .arg(where));
    box.exec();
}

} // namespace stackscope::ui
