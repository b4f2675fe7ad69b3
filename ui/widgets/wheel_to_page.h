// The mouse wheel over a view inside a scrolling page moves the page, unless the view has focus (it was clicked into)
// and can still move that way, or the page cannot move: a page of tables then scrolls as one page under the pointer
// (walkthrough 2026-11-27 third, problem 9).
#pragma once

#include <QObject>

class QAbstractScrollArea;

namespace stackscope::ui {

class WheelToPage : public QObject {
    Q_OBJECT
public:
    // Watches `view`'s viewport; the page is the nearest scroll area around `view` in its window.
    static void install(QAbstractScrollArea* view);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WheelToPage(QAbstractScrollArea* view);

    QAbstractScrollArea* m_view;
};

} // namespace stackscope::ui
