// The path's width as the line edit's size hint.
#include "ui/widgets/path_line_edit.h"

#include <algorithm>

namespace stackscope::ui {

PathLineEdit::PathLineEdit(const QString& text, QWidget* parent)
    : QLineEdit(text, parent)
{
    connect(this, &QLineEdit::textChanged, this, [this] { updateGeometry(); });
}

QSize PathLineEdit::sizeHint() const
{
    QSize hint = QLineEdit::sizeHint();
    // QLineEdit's hint is 17 "x" plus its frame and margins; the same frame around the whole text, and the cursor.
    const int frame = hint.width() - 17 * fontMetrics().horizontalAdvance(QLatin1Char('x'));
    hint.setWidth(std::max(hint.width(), fontMetrics().horizontalAdvance(text()) + frame + 2));
    return hint;
}

} // namespace stackscope::ui
