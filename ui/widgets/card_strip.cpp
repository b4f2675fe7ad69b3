#include "ui/widgets/card_strip.h"

#include <QEvent>
#include <QScrollBar>

#include <algorithm>

namespace stackscope::ui {

CardStrip::CardStrip(QWidget* cards, QWidget* parent)
    : QScrollArea(parent)
{
    setWidget(cards);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    cards->installEventFilter(this); // a card added or removed asks for another height
}

int CardStrip::heightForWidth(int width) const
{
    const QWidget* cards = widget();
    if (!cards)
        return 0;
    // The cards get the strip's width, or their least width with the sideways bar below them.
    const int room = width - 2 * frameWidth();
    const int least = cards->minimumSizeHint().width();
    const int cardsWidth = std::max(room, least);
    const int cardsHeight = cards->hasHeightForWidth() ? cards->heightForWidth(cardsWidth) : cards->sizeHint().height();
    const int bar = least > room ? horizontalScrollBar()->sizeHint().height() : 0;
    return std::max(cardsHeight, cards->minimumSizeHint().height()) + bar + 2 * frameWidth();
}

QSize CardStrip::sizeHint() const
{
    const int w = QScrollArea::sizeHint().width();
    return {w, heightForWidth(width() > 0 ? width() : w)};
}

QSize CardStrip::minimumSizeHint() const
{
    return {QScrollArea::minimumSizeHint().width(), sizeHint().height()};
}

bool CardStrip::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        updateGeometry();
    return QScrollArea::eventFilter(watched, event);
}

} // namespace stackscope::ui
