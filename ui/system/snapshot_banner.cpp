// The "Not this machine" line's text.
#include "ui/system/snapshot_banner.h"

#include <QCoreApplication>
#include <QFile>

namespace stackscope::ui {

namespace {
QString tr(const char* text)
{
    return QCoreApplication::translate("stackscope::ui::SystemPage", text);
}
} // namespace

QString rootRecordedAt(const QString& root)
{
    QFile file(root + QLatin1String(kRootRecordedAtFile));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readLine(200)).trimmed();
}

QString notThisMachineText(const Snapshot& s, const QString& origin)
{
    const QString read = QString::fromStdString(s.capturedAt);
    if (!s.root)
        return tr("<b>Not this machine:</b> showing %1, captured %2.").arg(origin.toHtmlEscaped(), read.toHtmlEscaped());
    // Inspecting a root reads its files now: the snapshot's time is the reading, not the recording.
    const QString root = QString::fromStdString(*s.root);
    const QString what = tr("the recorded machine in %1").arg(root).toHtmlEscaped();
    const QString recorded = rootRecordedAt(root);
    if (!recorded.isEmpty())
        return tr("<b>Not this machine:</b> showing %1, recorded %2 (read %3).")
            .arg(what, recorded.toHtmlEscaped(), read.toHtmlEscaped());
    return tr("<b>Not this machine:</b> showing %1, read %2; when recorded: unknown (the folder has no "
              ".stackscope/recorded-at).")
        .arg(what, read.toHtmlEscaped());
}

} // namespace stackscope::ui
