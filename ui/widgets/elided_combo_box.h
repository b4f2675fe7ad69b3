// A combo box whose closed box cuts a long choice at its end ("…") instead of clipping it mid-letter: the Training
// page's Device box at 1024x640 read "auto (a GPU wher" (walkthrough 2026-11-27, problem 16). The open list and the
// tooltip show whole texts.
#pragma once

#include <QComboBox>

namespace stackscope::ui {

class ElidedComboBox : public QComboBox {
    Q_OBJECT
public:
    explicit ElidedComboBox(QWidget* parent = nullptr);

    // Wide enough for the longest choice whole (a layout with room gives it that); the minimum stays the policy's.
    QSize sizeHint() const override;

    // The text the closed box paints for its current choice at its present width.
    QString shownText() const;
    // What hovering shows: the current choice whole when the box cuts it, above the box's own toolTip().
    QString toolTipText() const;

private:
    // The width the closed box has for its text at the given box width.
    int textRoom(int boxWidth) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
};

} // namespace stackscope::ui
