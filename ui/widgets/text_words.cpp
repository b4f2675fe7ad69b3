// See text_words.h.
#include "ui/widgets/text_words.h"

#include <QRegularExpression>

namespace stackscope::ui {

QString mapWords(const QString& text, const std::function<QString(const QString&)>& word)
{
    static const QRegularExpression words(QStringLiteral("\\S+"));
    QString out;
    qsizetype at = 0;
    for (auto it = words.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        out += text.mid(at, m.capturedStart() - at);
        out += word(m.captured());
        at = m.capturedEnd();
    }
    return out + text.mid(at);
}

} // namespace stackscope::ui
