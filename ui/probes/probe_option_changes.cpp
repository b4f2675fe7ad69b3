// Text for a probe run's choices and the choices changed since it.
#include "ui/probes/probe_option_changes.h"

#include <QObject>

namespace stackscope::ui {

namespace {

QString environments(const ProbeRunChoice& c)
{
    QStringList names;
    for (const QString& e : c.environments)
        names << (e.startsWith(QLatin1String("python:")) ? QObject::tr("Python %1").arg(e.mid(7)) : e);
    return names.isEmpty() ? QObject::tr("no environment")
                           : QObject::tr("environments %1").arg(names.join(QStringLiteral(", ")));
}

QString timeout(const ProbeRunChoice& c)
{
    return QObject::tr("timeout %1 s").arg(QString::number(c.timeoutS, 'g', 6));
}

QString variants(const ProbeRunChoice& c)
{
    return c.ruleVariants ? QObject::tr("with the rules' fix variants")
                          : QObject::tr("without the rules' fix variants");
}

constexpr QString (*kParts[])(const ProbeRunChoice&) = { environments, timeout, variants };

} // namespace

QString probeChoiceSummary(const ProbeRunChoice& choice)
{
    QStringList parts;
    for (auto part : kParts)
        parts << part(choice);
    return parts.join(QStringLiteral("; "));
}

QStringList probeChoiceChanges(const ProbeRunChoice& ran, const ProbeRunChoice& now)
{
    QStringList changed;
    for (auto part : kParts) {
        if (part(ran) != part(now))
            changed << part(now);
    }
    return changed;
}

} // namespace stackscope::ui
