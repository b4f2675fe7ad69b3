// The text a page shows (labels, fields, buttons, item views), to scrub before a screenshot and to check after.
#pragma once

#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

class QWidget;

namespace stackscope::ui {

// Every text the widget tree draws: QLabel, QLineEdit, QTextEdit/QPlainTextEdit, buttons, group box
// titles, combo box items, tab titles, and the display text and headers of every item view's model
// (rows of trees too, up to `maxModelCells`). Tests check these instead of reading pixels.
QStringList widgetTexts(const QWidget* root, int maxModelCells = 200000);

// The text runs of `html` redacted and escaped again; tags are kept.
QString redactRichText(const QString& html, const std::function<QString(const QString&)>& redact);

// Replaces the texts of labels, fields, text edits, buttons and group boxes under `root` with
// `redact(text)` until destroyed, then puts the originals back. Item models are not touched: pages
// that show private data through a model are fed redacted data instead.
class TextScrub {
public:
    TextScrub(QWidget* root, const std::function<QString(const QString&)>& redact);
    ~TextScrub();
    TextScrub(const TextScrub&) = delete;
    TextScrub& operator=(const TextScrub&) = delete;

    int changed() const { return static_cast<int>(m_restore.size()); }

private:
    std::vector<std::function<void()>> m_restore;
};

} // namespace stackscope::ui
