// A row of cards that scrolls sideways only: as tall as its cards at its width (plus the sideways bar when the cards
// do not fit), so it never shows a vertical scroll bar inside the page's own (walkthrough 2026-11-27 third, problem 9:
// at 1024x640 the GPU cards sat in an inner area with a second vertical bar and their last line cut).
#pragma once

#include <QScrollArea>

namespace stackscope::ui {

class CardStrip : public QScrollArea {
    Q_OBJECT
public:
    // `cards` is the widget laid out with the cards; the strip owns it.
    explicit CardStrip(QWidget* cards, QWidget* parent = nullptr);

    // The height is the cards' at the width given: the page's layout asks for it.
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace stackscope::ui
