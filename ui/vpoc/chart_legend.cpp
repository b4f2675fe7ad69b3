// ChartLegend: a word-wrapped rich-text label whose only break points are the gaps between entries.
#include "ui/vpoc/chart_legend.h"

#include <QStringList>

namespace stackscope::ui {

ChartLegend::ChartLegend(QWidget* parent)
    : QLabel(parent)
{
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
}

QString ChartLegend::markup(const QList<LegendEntry>& entries)
{
    QStringList parts;
    for (const LegendEntry& e : entries) {
        const QString text = e.text.toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
        parts << QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2").arg(e.colour.name(), text);
    }
    return parts.join(QStringLiteral("&nbsp;&nbsp; "));
}

void ChartLegend::setEntries(const QList<LegendEntry>& entries)
{
    m_entries = entries;
    setText(markup(entries));
}

} // namespace stackscope::ui
