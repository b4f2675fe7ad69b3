// Whole-hour ticks in a named time zone; the tz database (QTimeZone) handles DST.
#include "ui/vpoc/session_time_axis.h"

#include <QDateTime>

namespace stackscope::ui {

std::vector<std::pair<std::int64_t, QString>> sessionTimeTicks(std::int64_t firstMs, std::int64_t lastMs, const QTimeZone& zone,
                                                               int maxLabels)
{
    std::vector<std::pair<std::int64_t, QString>> ticks;
    if (lastMs <= firstMs || !zone.isValid())
        return ticks;
    // The first whole local hour at or after the start (18:00 for a globex day).
    const QDateTime start = QDateTime::fromMSecsSinceEpoch(firstMs, zone);
    QDateTime first(start.date(), QTime(start.time().hour(), 0), zone);
    if (first.toMSecsSinceEpoch() < firstMs)
        first = first.addSecs(3600);
    const double hours = double(lastMs - first.toMSecsSinceEpoch()) / 3.6e6;
    int step = 12;
    for (int s : {1, 2, 3, 4, 6, 12}) {
        if (int(hours / s) + 1 <= maxLabels) {
            step = s;
            break;
        }
    }
    // Steps on the local clock (a DST change inside the session keeps the labels on the clock's hours).
    const QDateTime clock(first.date(), first.time(), QTimeZone::utc());
    for (int k = 0;; ++k) {
        const QDateTime local = clock.addSecs(qint64(k) * step * 3600);
        const QDateTime t(local.date(), local.time(), zone);
        if (t.toMSecsSinceEpoch() > lastMs)
            break;
        ticks.emplace_back(t.toMSecsSinceEpoch(), t.toString(QStringLiteral("ddd HH:mm")));
    }
    return ticks;
}

} // namespace stackscope::ui
