// Copies a command as it was written: the word joiners that keep it on one line stay in the view.
#include "ui/widgets/command_text_browser.h"

#include <QMimeData>
#include <QTextCursor>
#include <QTextDocumentFragment>

namespace stackscope::ui {

QString withoutWordJoiners(QString text)
{
    return text.remove(QChar(kWordJoiner));
}

QString CommandTextBrowser::plainText() const
{
    return withoutWordJoiners(toPlainText());
}

// Plain text only: the selection's HTML would carry the joiners into a rich-text paste.
QMimeData* CommandTextBrowser::createMimeDataFromSelection() const
{
    auto* data = new QMimeData;
    data->setText(withoutWordJoiners(textCursor().selection().toPlainText()));
    return data;
}

} // namespace stackscope::ui
