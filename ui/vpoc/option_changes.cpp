// Text for the VPOC options of a run, and the options changed since it.
#include "ui/vpoc/option_changes.h"

#include <QObject>

namespace stackscope::ui {

namespace {

using vpoc::VpocOptions;

QString number(double v)
{
    return QString::number(v, 'g', 10);
}

QString valueArea(const VpocOptions& o)
{
    return QObject::tr("value area %1 %").arg(number(o.profile.vaBasisPoints / 100.0));
}

QString tick(const VpocOptions& o)
{
    return QObject::tr("tick %1").arg(number(o.read.tick.value));
}

QString session(const VpocOptions& o)
{
    return QObject::tr("session %1").arg(QString::fromStdString(o.session));
}

QString sessionZone(const VpocOptions& o)
{
    return QObject::tr("session zone %1").arg(QString::fromStdString(o.sessionTimeZone));
}

QString dataZone(const VpocOptions& o)
{
    return QObject::tr("data zone %1").arg(QString::fromStdString(o.read.timeZone));
}

QString format(const VpocOptions& o)
{
    return QObject::tr("format %1").arg(QString::fromLatin1(vpoc::formatName(o.read.format)));
}

QString distribution(const VpocOptions& o)
{
    return QObject::tr("distribution %1").arg(QString::fromLatin1(vpoc::distributionName(o.profile.distribution)));
}

QString vaMethod(const VpocOptions& o)
{
    return o.profile.method == vpoc::ValueAreaMethod::Single ? QObject::tr("VA method single")
                                                             : QObject::tr("VA method dual");
}

QString skipBad(const VpocOptions& o)
{
    return o.read.skipBad ? QObject::tr("bad rows skipped") : QObject::tr("bad rows not skipped");
}

QString developing(const VpocOptions& o)
{
    return o.developing ? QObject::tr("developing values on") : QObject::tr("developing values off");
}

// When the summary names an option: always, where it is not core's default, or never (only as a change: the page
// turns the developing values on by default, and they only draw the price line).
enum class InSummary { Always, NotDefault, Never };

// The options that change the numbers or the charts, in the order they are said.
struct OptionText {
    QString (*text)(const VpocOptions&);
    InSummary shown;
};
constexpr OptionText kOptions[] {
    { valueArea, InSummary::Always },
    { tick, InSummary::Always },
    { session, InSummary::Always },
    { sessionZone, InSummary::NotDefault },
    { dataZone, InSummary::NotDefault },
    { format, InSummary::NotDefault },
    { distribution, InSummary::NotDefault },
    { vaMethod, InSummary::NotDefault },
    { skipBad, InSummary::NotDefault },
    { developing, InSummary::Never },
};

} // namespace

QString vpocOptionsSummary(const VpocOptions& options)
{
    const VpocOptions defaults;
    QStringList parts;
    for (const auto& o : kOptions) {
        const QString text = o.text(options);
        if (o.shown == InSummary::Always || (o.shown == InSummary::NotDefault && text != o.text(defaults)))
            parts << text;
    }
    return parts.join(QStringLiteral(", "));
}

QStringList vpocOptionChanges(const VpocOptions& ran, const VpocOptions& now)
{
    QStringList changed;
    for (const auto& o : kOptions) {
        const QString text = o.text(now);
        if (text != o.text(ran))
            changed << text;
    }
    return changed;
}

} // namespace stackscope::ui
