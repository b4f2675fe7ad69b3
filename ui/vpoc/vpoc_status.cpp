// VpocStatus: the run controls and the one status line of the VPOC page.
#include "ui/vpoc/vpoc_status.h"

#include "ui/widgets/gui_message.h"
#include "ui/widgets/wrapped_label.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPalette>
#include <QProgressBar>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace stackscope::ui {

VpocStatus::VpocStatus(QWidget* parent)
    : QWidget(parent)
{
    addButtons();
    addStatusLine();
    setRunning(false);
}

void VpocStatus::addButtons()
{
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    m_run = new QPushButton(tr("Run"), this);
    m_run->setObjectName(QStringLiteral("vpocRun"));
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("Cancel"), this);
    connect(m_run, &QPushButton::clicked, this, &VpocStatus::runClicked);
    connect(m_cancel, &QPushButton::clicked, this, &VpocStatus::cancelClicked);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
}

void VpocStatus::addStatusLine()
{
    m_status = new WrappedLabel(this);
    m_status->setObjectName(QStringLiteral("vpocStatus"));
    m_status->setFullText(tr("Choose a file or the sample data, then Run."));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detailsButton = new QPushButton(tr("Details…"), this);
    m_detailsButton->setObjectName(QStringLiteral("vpocDetails"));
    m_detailsButton->setToolTip(tr("The whole message"));
    m_detailsButton->hide();
    connect(m_detailsButton, &QPushButton::clicked, this, [this] {
        QMessageBox box(m_isError ? QMessageBox::Warning : QMessageBox::Information, tr("VPOC"), m_status->fullText(),
            QMessageBox::Close, this);
        box.setDetailedText(m_details);
        box.exec();
    });
    // A warning sign beside an error: the same red line was easy to take for a note.
    m_icon = new QLabel(this);
    m_icon->setObjectName(QStringLiteral("vpocStatusIcon"));
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(iconSize, iconSize));
    m_icon->setAlignment(Qt::AlignTop);
    m_icon->hide();
    auto* row = new QHBoxLayout;
    row->addWidget(m_icon, 0, Qt::AlignTop);
    row->addWidget(m_status, 1);
    auto* v = static_cast<QVBoxLayout*>(layout());
    v->addLayout(row);
    v->addWidget(m_detailsButton, 0, Qt::AlignLeft);
    // The line grows upwards and Run stays put at the column's foot: with the line under it, Run moved about 28 px
    // whenever the line changed length, and a click aimed at it missed (walkthrough 2026-11-27 third, problem 7).
    v->addWidget(m_progress);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    v->addLayout(buttons);
}

void VpocStatus::setRunning(bool running)
{
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
}

void VpocStatus::setProgress(int permille)
{
    m_progress->setValue(permille);
}

void VpocStatus::setStatus(const QString& text, const QString& details)
{
    m_status->setPalette(QPalette());
    m_status->setFullText(text);
    m_details = details;
    m_detailsButton->setVisible(!details.isEmpty());
    m_isError = false;
    m_icon->hide();
}

void VpocStatus::showError(const QString& message)
{
    const QString worded = guiWording(message.trimmed());
    const GuiMessage m = worded.size() <= kMaxShownError && !worded.contains(QLatin1Char('\n'))
        ? GuiMessage { worded, {} }
        : guiMessage(message);
    // No percentage of a run that did not happen (it read "0%" after a failed run).
    m_progress->reset();
    QPalette red = m_status->palette();
    red.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    m_status->setPalette(red);
    m_status->setFullText(m.line);
    m_details = m.details;
    m_detailsButton->setVisible(!m.details.isEmpty());
    m_isError = true;
    m_icon->show();
}

QString VpocStatus::text() const
{
    return m_status->fullText();
}

} // namespace stackscope::ui
