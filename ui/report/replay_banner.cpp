// A bar in a colour no page uses, so nobody mistakes a report's machine for this one.
#include "ui/report/replay_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace stackscope::ui {

ReplayBanner::ReplayBanner(QWidget* parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
    , m_runHere(new QPushButton(tr("Run these probes here"), this))
    , m_close(new QPushButton(tr("Close report"), this))
{
    setObjectName(QStringLiteral("replayBanner"));
    setAttribute(Qt::WA_StyledBackground);
    setStyleSheet(QStringLiteral("QFrame#replayBanner { background: #4a148c; border-radius: 4px; }"
                                 "QFrame#replayBanner QLabel { color: white; font-size: 13px; }"
                                 "QFrame#replayBanner QPushButton { background: #ffffff; color: #4a148c; font-weight: 600;"
                                 " border: none; border-radius: 3px; padding: 4px 10px; }"
                                 "QFrame#replayBanner QPushButton:disabled { background: #b39ddb; color: #4a148c; }"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_runHere->setToolTip(tr("Runs the report's probes and variants on this machine and shows both grids side by side"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(12, 6, 8, 6);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_runHere);
    layout->addWidget(m_close);
    connect(m_runHere, &QPushButton::clicked, this, &ReplayBanner::runHereRequested);
    connect(m_close, &QPushButton::clicked, this, &ReplayBanner::closeRequested);
    hide();
}

void ReplayBanner::showReport(const QString& host, const QString& capturedAt, const QString& source, bool hasProbes)
{
    m_main = tr("<b>Viewing a report from %1</b>, captured %2. Findings recomputed with this version's rules."
                "<br/><span style='color:#e1bee7'>%3</span>")
                 .arg(host.toHtmlEscaped(), capturedAt.toHtmlEscaped(), source.toHtmlEscaped());
    m_text->setText(m_main);
    m_runHere->setEnabled(hasProbes);
    m_runHere->setToolTip(hasProbes ? tr("Runs the report's probes and variants on this machine and shows both grids side by side")
                                    : tr("This report has no probe results to repeat"));
    show();
}

void ReplayBanner::showLoading(const QString& name)
{
    m_text->setText(tr("<b>Loading %1…</b> The pages keep what they show until it is read.").arg(name.toHtmlEscaped()));
    m_runHere->setEnabled(false);
    m_runHere->setToolTip(tr("Waits for the report to be read"));
    show();
}

void ReplayBanner::setPagesNote(const QString& note)
{
    m_text->setText(note.isEmpty() ? m_main
                                   : m_main + tr("<br/><span style='color:#e1bee7'>Also shown: %1</span>").arg(note.toHtmlEscaped()));
}

QString ReplayBanner::text() const
{
    return m_text->text();
}

} // namespace stackscope::ui
