// The Report page's card column: "Summary card" over the card in a scroll area, beside the controls where the page
// is wide enough for both, else below them at the card's full height (the page then scrolls down, never sideways).
// A layout, so the page's widgets are laid out as they were when the page built the column itself.
#pragma once

#include <QVBoxLayout>

class QScrollArea;

namespace stackscope::ui {

class SummaryCard;

class CardPreviewColumn : public QVBoxLayout {
    Q_OBJECT
public:
    // The title and the scroll area are `page`'s widgets.
    CardPreviewColumn(SummaryCard* card, QWidget* page);

    // The direction of `columns` (controls, then this column) for a page `pageWidth` wide, and this column's
    // height when it is below the controls.
    void arrange(QBoxLayout* columns, int pageWidth);
    // The narrowest page that has the controls and the whole card side by side.
    int sideBySideWidth() const;

private:
    SummaryCard* m_card;
    QScrollArea* m_area;
};

} // namespace stackscope::ui
