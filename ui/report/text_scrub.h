// The texts a page shows (labels, fields, buttons, item views), to check a screenshot by, and rich text redaction.
#pragma once

#include <QString>
#include <QStringList>

#include <functional>

class QWidget;

namespace stackscope::ui {

// Every text the widget tree draws: QLabel, QLineEdit, QTextEdit/QPlainTextEdit, buttons, group box
// titles, combo box items, tab titles, and the display text and headers of every item view's model
// (rows of trees too, up to `maxModelCells`). Tests check these instead of reading pixels.
QStringList widgetTexts(const QWidget* root, int maxModelCells = 200000);

// The texts `widget` itself draws (not its children's, not its tooltip): what a screenshot of it shows.
QStringList ownTexts(const QWidget* widget, int maxModelCells = 200000);

// The text runs of `html` redacted and escaped again; tags are kept.
QString redactRichText(const QString& html, const std::function<QString(const QString&)>& redact);

} // namespace stackscope::ui
