// A line edit for a file or folder path that would like to show the whole path: its size hint follows the text, so a
// layout with room shows it whole (the Training form's input and output at 1920x1080); its minimum stays a
// line edit's, so a narrow window still fits it.
#pragma once

#include <QLineEdit>

namespace stackscope::ui {

class PathLineEdit : public QLineEdit {
    Q_OBJECT
public:
    explicit PathLineEdit(const QString& text, QWidget* parent = nullptr);

    QSize sizeHint() const override;
};

} // namespace stackscope::ui
