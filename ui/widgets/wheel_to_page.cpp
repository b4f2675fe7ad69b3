#include "ui/widgets/wheel_to_page.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QScrollBar>
#include <QWheelEvent>

#include <cstdlib>

namespace stackscope::ui {

namespace {

// The scroll area the view sits in, within its own window (a combo box's popup list is a window of its own).
QAbstractScrollArea* pageAround(QWidget* view)
{
    for (QWidget* w = view; w && !w->isWindow(); w = w->parentWidget()) {
        if (auto* area = qobject_cast<QAbstractScrollArea*>(w->parentWidget()); area && area != view)
            return area;
    }
    return nullptr;
}

bool canMove(const QScrollBar* bar, bool down)
{
    return down ? bar->value() < bar->maximum() : bar->value() > bar->minimum();
}

} // namespace

WheelToPage::WheelToPage(QAbstractScrollArea* view)
    : QObject(view)
    , m_view(view)
{
}

void WheelToPage::install(QAbstractScrollArea* view)
{
    view->viewport()->installEventFilter(new WheelToPage(view));
}

bool WheelToPage::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::Wheel)
        return QObject::eventFilter(watched, event);
    auto* wheel = static_cast<QWheelEvent*>(event);
    const QPoint delta = wheel->angleDelta().isNull() ? wheel->pixelDelta() : wheel->angleDelta();
    // Sideways wheels and Ctrl+wheel (zoom) stay the view's.
    if (std::abs(delta.y()) <= std::abs(delta.x()) || wheel->modifiers() != Qt::NoModifier)
        return false;
    QAbstractScrollArea* page = pageAround(m_view);
    if (!page)
        return false;
    const bool down = wheel->inverted() ? delta.y() > 0 : delta.y() < 0;
    if (!canMove(page->verticalScrollBar(), down))
        return false;
    if (m_view->hasFocus() && canMove(m_view->verticalScrollBar(), down))
        return false;
    QCoreApplication::sendEvent(page->verticalScrollBar(), wheel);
    return true;
}

} // namespace stackscope::ui
