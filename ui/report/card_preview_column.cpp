// The summary card's preview beside or below the Report page's controls.
#include "ui/report/card_preview_column.h"

#include "ui/report/summary_card.h"

#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>

namespace stackscope::ui {

CardPreviewColumn::CardPreviewColumn(SummaryCard* card, QWidget* page)
    : m_card(card)
    , m_area(new QScrollArea(page))
{
    m_area->setWidget(m_card);
    m_area->setWidgetResizable(false);
    m_area->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_area->setFrameShape(QFrame::NoFrame);
    // Narrower than the card: the preview scrolls rather than push the page wider than a 1280 screen.
    m_area->setMinimumWidth(360);
    // Where the window has room the whole card shows (at 1920 it was cut off while the redaction list
    // took the rest): the card's column grows with the page up to the card's own width.
    m_area->setMaximumWidth(SummaryCard::kWidth + m_area->verticalScrollBar()->sizeHint().width() + 4);
    auto* title = new QLabel(tr("<b>Summary card</b> (summary-card.png: post it alone, like a GPU-Z screenshot)"), page);
    title->setWordWrap(true); // a long unbreakable line would set the page's minimum width
    addWidget(title);
    addWidget(m_area, 1);
}

int CardPreviewColumn::sideBySideWidth() const
{
    // The controls read well from ~380 px; the card is kWidth wide.
    return 380 + SummaryCard::kWidth + m_area->verticalScrollBar()->sizeHint().width() + 40;
}

void CardPreviewColumn::arrange(QBoxLayout* columns, int pageWidth)
{
    const auto direction = pageWidth >= sideBySideWidth() ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (columns->direction() != direction)
        columns->setDirection(direction);
    const int height = direction == QBoxLayout::TopToBottom ? m_card->height() + 4 : 0;
    if (m_area->minimumHeight() != height)
        m_area->setMinimumHeight(height);
}

} // namespace stackscope::ui
