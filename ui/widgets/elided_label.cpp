// Elides in the middle to the label's width on every text change and resize.
#include "ui/widgets/elided_label.h"

#include <QResizeEvent>

namespace stackscope::ui {

ElidedLabel::ElidedLabel(QWidget* parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
}

void ElidedLabel::setFullText(const QString& text)
{
    m_full = text;
    elide();
}

QSize ElidedLabel::minimumSizeHint() const
{
    // Any width: the text is cut to it, not the window widened for it.
    return { 0, QLabel::minimumSizeHint().height() };
}

void ElidedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::elide()
{
    const int room = contentsRect().width();
    const QString shown = fontMetrics().elidedText(m_full, Qt::ElideMiddle, std::max(room, 0));
    setText(shown);
    setToolTip(shown == m_full ? QString() : m_full);
}

} // namespace stackscope::ui
