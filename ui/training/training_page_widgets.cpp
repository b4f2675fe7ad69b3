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
    return {wanted(), QScrollArea::sizeHint().height()};
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

// Widens this pane of the splitter by what the form lacks, taken from the other pane's room above its minimum.
void FormScrollArea::fit()
{
    setMaximumWidth(std::max(400, wanted()));
    updateGeometry();
    auto* split = qobject_cast<QSplitter*>(parentWidget());
    if (!split || !isVisible() || split->count() != 2)
        return;
    const int need = wanted() - width();
    const int self = split->indexOf(this), other = 1 - self;
    auto sizes = split->sizes();
    const int spare = sizes[other] - split->widget(other)->minimumSizeHint().width();
    const int give = std::min(need, spare);
    if (give <= 0)
        return;
    sizes[self] += give;
    sizes[other] -= give;
    split->setSizes(sizes);
}

} // namespace stackscope::ui
