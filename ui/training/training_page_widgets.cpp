// ProgressStrip and FormScrollArea.
#include "ui/training/training_page_widgets.h"

#include <QEvent>
#include <QPainter>
#include <QScrollBar>
#include <QShowEvent>
#include <QSplitter>

#include <algorithm>

namespace stackscope::ui {

ProgressStrip::ProgressStrip(QWidget* parent)
    : QWidget(parent)
{
    setFixedHeight(6);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void ProgressStrip::setFraction(double fraction)
{
    fraction = std::clamp(fraction, 0.0, 1.0);
    if (qRound(fraction * width()) != qRound(m_fraction * width()))
        update();
    m_fraction = fraction;
}

void ProgressStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Midlight));
    p.fillRect(QRect(0, 0, qRound(m_fraction * width()), height()), palette().color(QPalette::Highlight));
}

FormScrollArea::FormScrollArea(QWidget* form, QWidget* parent)
    : QScrollArea(parent)
{
    setWidget(form);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    form->installEventFilter(this);
}

QSize FormScrollArea::sizeHint() const
{
    return {preferred(), QScrollArea::sizeHint().height()};
}

QSize FormScrollArea::minimumSizeHint() const
{
    return {wanted(), QScrollArea::minimumSizeHint().height()};
}

bool FormScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        fit();
    return QScrollArea::eventFilter(watched, event);
}

void FormScrollArea::showEvent(QShowEvent* event)
{
    QScrollArea::showEvent(event);
    fit();
}

int FormScrollArea::wanted() const
{
    return widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth();
}

int FormScrollArea::preferred() const
{
    const int liked = widget()->sizeHint().width() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth();
    return std::max(wanted(), std::min(liked, kPreferredMax));
}

// Sets this pane of the splitter to the width the form likes, within a third of the splitter and what the other pane
// leaves above its minimum, and never under the form's minimum; after a drag, only to the minimum if below it.
void FormScrollArea::fit()
{
    setMaximumWidth(std::max(kPreferredMax, wanted()));
    updateGeometry();
    auto* split = qobject_cast<QSplitter*>(parentWidget());
    if (!split || !isVisible() || split->count() != 2)
        return;
    if (!m_watchingSplitter) {
        // splitterMoved comes from a drag of the handle only, never from setSizes.
        connect(split, &QSplitter::splitterMoved, this, [this] { m_draggedByPerson = true; });
        m_watchingSplitter = true;
    }
    const int self = split->indexOf(this), other = 1 - self;
    auto sizes = split->sizes();
    const int total = sizes[self] + sizes[other];
    int target = m_draggedByPerson ? sizes[self] : std::min(preferred(), total / 3);
    target = std::min(target, total - split->widget(other)->minimumSizeHint().width());
    target = std::max(target, wanted());
    if (target == sizes[self])
        return;
    sizes[other] -= target - sizes[self];
    sizes[self] = target;
    split->setSizes(sizes);
}

} // namespace stackscope::ui
