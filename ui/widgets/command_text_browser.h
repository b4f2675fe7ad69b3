// A text browser for rich text whose command words are held on one line by word joiners (U+2060); it copies, and
// gives as plain text, the text without them, so a pasted command is the command.
#pragma once

#include <QTextBrowser>

namespace stackscope::ui {

// U+2060 WORD JOINER: invisible, no line break on either side.
inline constexpr char16_t kWordJoiner = 0x2060;

// The text with every word joiner taken out.
QString withoutWordJoiners(QString text);

class CommandTextBrowser : public QTextBrowser {
    Q_OBJECT
public:
    using QTextBrowser::QTextBrowser;

    // The shown text as plain text, without the word joiners.
    QString plainText() const;

protected:
    QMimeData* createMimeDataFromSelection() const override;
};

} // namespace stackscope::ui
