// A combo box that elides its current text to the box's width.
#include "ui/widgets/elided_combo_box.h"

#include <QHelpEvent>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <QToolTip>

namespace stackscope::ui {

ElidedComboBox::ElidedComboBox(QWidget* parent)
    : QComboBox(parent)
{
}

QString ElidedComboBox::shownText() const
{
    QStyleOptionComboBox option;
    initStyleOption(&option);
    const QRect textRect = style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
    // The style draws the text inside the edit field with a small margin on each side.
    const int width = textRect.width() - 2 * style()->pixelMetric(QStyle::PM_DefaultFrameWidth, &option, this);
    return fontMetrics().elidedText(option.currentText, Qt::ElideRight, std::max(0, width));
}

void ElidedComboBox::paintEvent(QPaintEvent*)
{
    QStylePainter painter(this);
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    option.currentText = shownText();
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

QString ElidedComboBox::toolTipText() const
{
    const QString whole = currentText();
    if (whole.isEmpty() || shownText() == whole)
        return toolTip();
    return toolTip().isEmpty() ? whole : whole + QStringLiteral("\n\n") + toolTip();
}

bool ElidedComboBox::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const QString tip = toolTipText();
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), tip, this);
        return true;
    }
    return QComboBox::event(event);
}

} // namespace stackscope::ui
