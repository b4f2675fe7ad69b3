// A combo box that elides its current text to the box's width.
#include "ui/widgets/elided_combo_box.h"

#include <QHelpEvent>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <QToolTip>

#include <algorithm>

namespace stackscope::ui {

ElidedComboBox::ElidedComboBox(QWidget* parent)
    : QComboBox(parent)
{
    // QComboBox recomputes its size hint on new items only when it adjusts to its contents; this hint follows them.
    const auto changed = [this] { updateGeometry(); };
    connect(model(), &QAbstractItemModel::rowsInserted, this, changed);
    connect(model(), &QAbstractItemModel::rowsRemoved, this, changed);
    connect(model(), &QAbstractItemModel::modelReset, this, changed);
    connect(model(), &QAbstractItemModel::dataChanged, this, changed);
}

int ElidedComboBox::textRoom(int boxWidth) const
{
    QStyleOptionComboBox option;
    initStyleOption(&option);
    option.rect.setWidth(boxWidth);
    const QRect textRect = style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
    // The style draws the text inside the edit field with a small margin on each side.
    return textRect.width() - 2 * style()->pixelMetric(QStyle::PM_DefaultFrameWidth, &option, this);
}

QString ElidedComboBox::shownText() const
{
    return fontMetrics().elidedText(currentText(), Qt::ElideRight, std::max(0, textRoom(width())));
}

QSize ElidedComboBox::sizeHint() const
{
    QSize hint = QComboBox::sizeHint();
    int longest = 0;
    for (int i = 0; i < count(); ++i)
        longest = std::max(longest, fontMetrics().horizontalAdvance(itemText(i)));
    const int lacking = longest - textRoom(hint.width());
    if (lacking > 0)
        hint.rwidth() += lacking;
    return hint;
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
