// Where the support report went, and Open folder.
#include "ui/report/export_location_box.h"

#include "ui/report/report_exporter.h"

#include <QDesktopServices>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QUrl>

namespace stackscope::ui {

ExportLocationBox::ExportLocationBox(QWidget* parent)
    : QGroupBox(tr("Written to"), parent)
    , m_where(new QLabel(this))
    , m_openFolder(new QPushButton(tr("Open folder"), this))
{
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_where->setTextFormat(Qt::PlainText);
    m_where->setWordWrap(true);
    m_where->setText(tr("Not exported yet."));
    m_openFolder->setEnabled(false);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(m_where, 1);
    layout->addWidget(m_openFolder, 0, Qt::AlignTop);
    connect(m_openFolder, &QPushButton::clicked, this, [this] {
        if (!m_folder.isEmpty())
            QDesktopServices::openUrl(QUrl::fromLocalFile(m_folder));
    });
}

QString ExportLocationBox::text() const
{
    return m_where->text();
}

void ExportLocationBox::showWriting(const QString& parentDir)
{
    m_where->setText(tr("Writing a new report into %1…").arg(parentDir.isEmpty() ? tr("the chosen folder") : parentDir));
    m_openFolder->setEnabled(false);
}

void ExportLocationBox::showWritten(const ReportResult& result)
{
    m_where->setText(tr("%1\n%2").arg(result.folder, result.zip));
    setFolder(result.folder);
}

void ExportLocationBox::showFailed(const ReportResult& last)
{
    if (last.folder.isEmpty()) {
        m_where->setText(tr("Not exported yet (the last try failed: see above)."));
        return;
    }
    m_where->setText(tr("The new report was not written; the last one written:\n%1\n%2").arg(last.folder, last.zip));
    setFolder(last.folder);
}

void ExportLocationBox::setFolder(const QString& folder)
{
    m_folder = folder;
    m_openFolder->setEnabled(true);
}

} // namespace stackscope::ui
