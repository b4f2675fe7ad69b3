// Reads the `command` spans the rules files put in fix texts.
#include "ui/system/fix_command.h"

#include "ui/widgets/command_text_browser.h"
#include "ui/widgets/text_words.h"

#include <QStringList>

namespace stackscope::ui {

QString fixCommand(const QString& fix)
{
    const int open = fix.indexOf(QLatin1Char('`'));
    const int close = open < 0 ? -1 : fix.indexOf(QLatin1Char('`'), open + 1);
    return close < 0 ? QString() : fix.mid(open + 1, close - open - 1).trimmed();
}

namespace {

// A word of the prose that a shell reads: an option, a path, a variable or an assignment.
bool commandLike(const QString& word)
{
    return (word.size() > 1 && word.front() == QLatin1Char('-') && !word.at(1).isSpace())
           || word.startsWith(QLatin1Char('/')) || word.startsWith(QStringLiteral("~/")) || word.startsWith(QLatin1Char('$'))
           || word.contains(QLatin1Char('='));
}

// A joiner after each inner mark a line may break after (Unicode's line breaking: a hyphen, a slash, a bar, "?", "!",
// a closing bracket); the others ("_", ".", "=", ":") hold on to the next letter already.
bool breaksAfter(QChar c)
{
    return QStringView(u"-/|?!}])\u2010").contains(c);
}

// The word with those breaks closed; a word too long for a line keeps them.
QString joined(const QString& word)
{
    if (word.size() > kWholeWordMax)
        return word;
    QString out;
    for (int i = 0; i < word.size(); ++i) {
        out += word.at(i);
        if (i + 1 < word.size() && breaksAfter(word.at(i)))
            out += QChar(kWordJoiner);
    }
    return out;
}

// The words of a text with their spaces kept; `all`: every word (a command span), else the command-like ones.
QString joinWords(const QString& text, bool all)
{
    return mapWords(text, [all](const QString& w) { return all || commandLike(w) ? joined(w) : w; });
}

QString html(const QString& fix, bool wholeWords)
{
    const QStringList parts = fix.split(QLatin1Char('`'));
    QString html;
    for (int i = 0; i < parts.size(); ++i) {
        // Odd parts sit between a pair of backticks; an unpaired last one stays plain text.
        const bool code = i % 2 == 1 && i + 1 < parts.size();
        const QString text = wholeWords ? joinWords(parts[i], code) : parts[i];
        html += code ? QStringLiteral("<code>%1</code>").arg(text.toHtmlEscaped())
                     : (i % 2 == 1 ? QStringLiteral("`") : QString()) + text.toHtmlEscaped();
    }
    return html;
}

} // namespace

QString fixHtml(const QString& fix)
{
    return html(fix, false);
}

QString fixHtmlWholeWords(const QString& fix)
{
    return html(fix, true);
}

QString fixPlain(const QString& fix)
{
    return QString(fix).remove(QLatin1Char('`'));
}

} // namespace stackscope::ui
