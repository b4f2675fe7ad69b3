// A bar in a colour no page uses, so nobody mistakes a report's machine for this one.
#include "ui/report/replay_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

namespace stackscope::ui {

ReplayBanner::ReplayBanner(QWidget* parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
    , m_details(new QLabel(this))
    , m_detailsButton(new QPushButton(tr("Details"), this))
    , m_runHere(new QPushButton(tr("Run these probes here"), this))
    , m_close(new QPushButton(tr("Close report"), this))
{
    setObjectName(QStringLiteral("replayBanner"));
    setAttribute(Qt::WA_StyledBackground);
    setStyleSheet(QStringLiteral("QFrame#replayBanner { background: #4a148c; border-radius: 4px; }"
                                 "QFrame#replayBanner QLabel { color: white; font-size: 13px; }"
                                 "QFrame#replayBanner QPushButton { background: #ffffff; color: #4a148c; font-weight: 600;"
                                 " border: none; border-radius: 3px; padding: 4px 10px; }"
                                 "QFrame#replayBanner QPushButton:disabled { background: transparent; color: #b39ddb;"
                                 " border: 1px solid #7e57c2; }"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_details->setWordWrap(true);
    m_details->setTextFormat(Qt::RichText);
    m_details->setObjectName(QStringLiteral("replayBannerDetails"));
    m_details->hide();
    m_detailsButton->setCheckable(true);
    m_detailsButton->setToolTip(tr("Shows where the report is and what the other pages got from it"));
    m_runHere->setToolTip(tr("Runs the report's probes and variants on this machine and shows both grids side by side"));
    auto* texts = new QVBoxLayout;
    texts->setContentsMargins(0, 0, 0, 0);
    texts->setSpacing(2);
    texts->addWidget(m_text);
    texts->addWidget(m_details);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(12, 6, 8, 6);
    layout->addLayout(texts, 1);
    layout->addWidget(m_detailsButton, 0, Qt::AlignTop);
    layout->addWidget(m_runHere, 0, Qt::AlignTop);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_detailsButton, &QPushButton::toggled, this, [this](bool shown) {
        m_details->setVisible(shown);
        m_detailsButton->setText(shown ? tr("Hide details") : tr("Details"));
    });
    connect(m_runHere, &QPushButton::clicked, this, &ReplayBanner::runHereRequested);
    connect(m_close, &QPushButton::clicked, this, &ReplayBanner::closeRequested);
    hide();
}

void ReplayBanner::showReport(const QString& host, const QString& capturedAt, const QString& source, bool hasProbes)
{
    m_text->setText(tr("<b>Viewing a report from %1</b>, captured %2.").arg(host.toHtmlEscaped(), capturedAt.toHtmlEscaped()));
    m_source = tr("Findings recomputed with this version's rules. %1").arg(source.toHtmlEscaped());
    setDetails(m_source);
    m_detailsButton->show();
    m_runHere->setEnabled(hasProbes);
    m_runHere->setToolTip(hasProbes ? tr("Runs the report's probes and variants on this machine and shows both grids side by side")
                                    : tr("This report has no probe results to repeat"));
    show();
}

void ReplayBanner::showLoading(const QString& name)
{
    m_text->setText(tr("<b>Loading %1…</b> The pages keep what they show until it is read.").arg(name.toHtmlEscaped()));
    setDetails(QString());
    m_detailsButton->hide();
    m_runHere->setEnabled(false);
    m_runHere->setToolTip(tr("Waits for the report to be read"));
    show();
}

void ReplayBanner::setPagesNote(const QString& note)
{
    setDetails(note.isEmpty() ? m_source : m_source + tr("<br/>Also shown: %1").arg(note.toHtmlEscaped()));
}

void ReplayBanner::setDetails(const QString& html)
{
    m_details->setText(html.isEmpty() ? QString() : QStringLiteral("<span style='color:#e1bee7'>%1</span>").arg(html));
    m_text->setToolTip(QTextDocumentFragment::fromHtml(html).toPlainText());
}

QString ReplayBanner::text() const
{
    return m_details->text().isEmpty() ? m_text->text() : m_text->text() + QStringLiteral("<br/>") + m_details->text();
}

} // namespace stackscope::ui
