// The CLI-flag-to-control table and the one-line cut.
#include "ui/widgets/gui_message.h"

#include <QObject>
#include <QRegularExpression>

#include <utility>

namespace stackscope::ui {

QString guiWording(const QString& message)
{
    // Longest flags first, so "--va-method" is not read as "--va" followed by "-method".
    static const std::pair<const char*, const char*> table[] = {
        {"--backend cpu", "Backend: cpu"},
        {"--backend gpu", "Backend: gpu"},
        {"--vram-budget", "the VRAM budget option"},
        {"--session-tz", "the Session zone option"},
        {"--va-method", "the VA method option"},
        {"--skip-bad", "Skip bad rows"},
        {"--timeout", "the Timeout box"},
        {"--backend", "the Backend option"},
        {"--session", "the Session option"},
        {"--format", "the Format option"},
        {"--tick", "the Tick option"},
        {"--va", "the Value area option"},
        {"--tz", "the Data zone option"},
    };
    QString out = message;
    for (const auto& [flag, control] : table) {
        // "pass the right --tick" reads "pass the right Tick option": after "the" (and one word) the control's own
        // "the" goes.
        const QRegularExpression re(QStringLiteral("(\\bthe (?:[a-z]+ )?)?") + QRegularExpression::escape(QString::fromLatin1(flag))
                                    + QStringLiteral("(?![A-Za-z-])"));
        const QString wording = QObject::tr(control);
        QString replaced;
        qsizetype from = 0;
        for (auto it = re.globalMatch(out); it.hasNext();) {
            const auto m = it.next();
            const QString lead = m.captured(1);
            replaced += out.mid(from, m.capturedStart() - from) + lead
                + (!lead.isEmpty() && wording.startsWith(QStringLiteral("the ")) ? wording.mid(4) : wording);
            from = m.capturedEnd();
        }
        out = replaced + out.mid(from);
    }
    return out;
}

GuiMessage guiMessage(const QString& message)
{
    const QString worded = guiWording(message.trimmed());
    QString line = worded.section(QLatin1Char('\n'), 0, 0).trimmed();
    if (line.size() > kMaxLine) {
        // The last sentence end (". " or "; ") that keeps the line short; else a hard cut.
        int cut = -1;
        for (const QString& end : {QStringLiteral(". "), QStringLiteral("; "), QStringLiteral(" (")}) {
            const int at = line.lastIndexOf(end, kMaxLine);
            if (at > 20) {
                cut = at;
                break;
            }
        }
        line = cut > 0 ? line.left(cut + (line[cut] == QLatin1Char('.') ? 1 : 0)) : line.left(kMaxLine - 1) + QStringLiteral("\u2026");
    }
    return {line, line == worded ? QString() : worded};
}

} // namespace stackscope::ui
