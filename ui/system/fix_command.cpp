// Reads the `command` spans the rules files put in fix texts.
#include "ui/system/fix_command.h"

#include <QStringList>

namespace stackscope::ui {

QString fixCommand(const QString& fix)
{
    const int open = fix.indexOf(QLatin1Char('`'));
    const int close = open < 0 ? -1 : fix.indexOf(QLatin1Char('`'), open + 1);
    return close < 0 ? QString() : fix.mid(open + 1, close - open - 1).trimmed();
}

QString fixHtml(const QString& fix)
{
    const QStringList parts = fix.split(QLatin1Char('`'));
    QString html;
    for (int i = 0; i < parts.size(); ++i) {
        // Odd parts sit between a pair of backticks; an unpaired last one stays plain text.
        const bool code = i % 2 == 1 && i + 1 < parts.size();
        html += code ? QStringLiteral("<code>%1</code>").arg(parts[i].toHtmlEscaped())
                     : (i % 2 == 1 ? QStringLiteral("`") : QString()) + parts[i].toHtmlEscaped();
    }
    return html;
}

QString fixPlain(const QString& fix)
{
    return QString(fix).remove(QLatin1Char('`'));
}

} // namespace stackscope::ui
