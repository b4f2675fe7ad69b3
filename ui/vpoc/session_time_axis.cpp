// Round clock times in a named time zone; the tz database (QTimeZone) handles DST.
#include "ui/vpoc/session_time_axis.h"

#include <QDateTime>

namespace stackscope::ui {

namespace {

// The ticks every `minutes` from the first round time at or after firstMs, at most `limit` + 1 of them (one more than
// fits tells the caller to try a longer step).
std::vector<std::pair<std::int64_t, QString>> ticksEvery(std::int64_t firstMs, std::int64_t lastMs, const QTimeZone& zone,
                                                         int minutes, int limit)
{
    const QDateTime start = QDateTime::fromMSecsSinceEpoch(firstMs, zone);
    // Under an hour: on the minute's multiples (09:30, 09:45); hours: from the first whole hour (18:00 for globex).
    const int minute = minutes < 60 ? start.time().minute() / minutes * minutes : 0;
    QDateTime first(start.date(), QTime(start.time().hour(), minute), zone);
    if (first.toMSecsSinceEpoch() < firstMs)
        first = first.addSecs(qint64(std::min(minutes, 60)) * 60);
    // Steps on the local clock (a DST change inside the session keeps the labels on the clock's times).
    const QDateTime clock(first.date(), first.time(), QTimeZone::utc());
    std::vector<std::pair<std::int64_t, QString>> ticks;
    for (int k = 0; int(ticks.size()) <= limit; ++k) {
        const QDateTime local = clock.addSecs(qint64(k) * minutes * 60);
        const QDateTime t(local.date(), local.time(), zone);
        if (t.toMSecsSinceEpoch() > lastMs)
            break;
        ticks.emplace_back(t.toMSecsSinceEpoch(), t.toString(QStringLiteral("ddd HH:mm")));
    }
    return ticks;
}

} // namespace

std::vector<std::pair<std::int64_t, QString>> sessionTimeTicks(std::int64_t firstMs, std::int64_t lastMs, const QTimeZone& zone,
                                                               int maxLabels)
{
    if (lastMs <= firstMs || !zone.isValid())
        return {};
    const int steps[] = { 1, 2, 5, 10, 15, 30, 60, 120, 180, 240, 360, 720 };
    for (int minutes : steps) {
        auto ticks = ticksEvery(firstMs, lastMs, zone, minutes, maxLabels);
        if (int(ticks.size()) <= maxLabels || minutes == steps[std::size(steps) - 1]) {
            if (int(ticks.size()) > maxLabels)
                ticks.resize(size_t(maxLabels));
            return ticks;
        }
    }
    return {};
}

} // namespace stackscope::ui
