// StaleBanner: one wording and one look for the VPOC, Training and Probes pages' out-of-date results.
#include "ui/widgets/stale_banner.h"

namespace stackscope::ui {

StaleBanner::StaleBanner(QWidget* parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; border: 1px solid #e0c36b; padding: 6px; }"));
    hide();
}

QString StaleBanner::message(const QString& computedWith, const QStringList& changes, const QString& action)
{
    return tr("Out of date: computed with %1; options changed since (now %2): %3.")
        .arg(computedWith, changes.join(QStringLiteral(", ")), action);
}

bool StaleBanner::update(const QString& computedWith, const QStringList& changes, const QString& action)
{
    m_stale = !changes.isEmpty();
    if (m_stale)
        setText(tr("<b>Out of date:</b> computed with %1; options changed since (now %2): %3.")
                    .arg(computedWith.toHtmlEscaped(), changes.join(QStringLiteral(", ")).toHtmlEscaped(),
                        action.toHtmlEscaped()));
    setVisible(m_stale);
    return m_stale;
}

} // namespace stackscope::ui
