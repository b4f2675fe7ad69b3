// Cuts over-wide words to the label's width on every text change and resize; wraps the rest as QLabel does.
#include "ui/widgets/wrapped_label.h"

#include "ui/widgets/text_words.h"

#include <QResizeEvent>

#include <algorithm>
#include <utility>

namespace stackscope::ui {

QString elideLongWords(const QString& text, const QFontMetrics& metrics, int room)
{
    if (room <= 0)
        return text;
    return mapWords(text, [&](const QString& w) {
        return metrics.horizontalAdvance(w) > room ? metrics.elidedText(w, Qt::ElideMiddle, room) : w;
    });
}

WrappedLabel::WrappedLabel(QWidget* parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(true);
    // Its width comes from the column, never from its longest word.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void WrappedLabel::setFullText(const QString& text)
{
    m_full = text;
    elide();
    updateGeometry();
}

void WrappedLabel::setReservedTexts(const QStringList& texts)
{
    m_reserved = texts;
    updateGeometry();
}

QSize WrappedLabel::minimumSizeHint() const
{
    return { 0, heightForWidth(width()) };
}

int WrappedLabel::heightForWidth(int width) const
{
    const QMargins m = contentsMargins();
    const int room = width - m.left() - m.right() - 2 * margin();
    if (room <= 0)
        return QLabel::heightForWidth(width);
    int tallest = 0;
    QStringList texts = m_reserved;
    texts << m_full;
    for (const QString& text : std::as_const(texts)) {
        const QRect r = fontMetrics().boundingRect(QRect(0, 0, room, QWIDGETSIZE_MAX),
                                                   Qt::TextWordWrap | int(alignment()), shownFor(text, room));
        tallest = std::max(tallest, r.height());
    }
    return tallest + m.top() + m.bottom() + 2 * margin();
}

void WrappedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    if (event->size().width() != event->oldSize().width()) {
        elide();
        updateGeometry(); // its minimum height follows the width
    }
}

QString WrappedLabel::shownFor(int room) const
{
    return shownFor(m_full, room);
}

QString WrappedLabel::shownFor(const QString& text, int room) const
{
    return elideLongWords(text, fontMetrics(), room);
}

void WrappedLabel::elide()
{
    const int room = contentsRect().width() - 2 * margin();
    const QString shown = shownFor(room);
    if (shown != text())
        setText(shown);
    setToolTip(shown == m_full ? QString() : m_full);
}

} // namespace stackscope::ui
