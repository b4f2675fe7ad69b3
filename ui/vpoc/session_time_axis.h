// Time-axis labels for a session's price chart in the session's own time zone (New York for globex),
// at round clock times, as plain values tested with rows.
#pragma once

#include <QString>
#include <QTimeZone>

#include <cstdint>
#include <utility>
#include <vector>

namespace stackscope::ui {

// Labels ("Sun 18:00") at round local clock times in `zone`: every 1, 2, 5, 10, 15 or 30 minutes (on the minute's
// multiples: 09:30, 09:45) or every 1, 2, 3, 4, 6 or 12 hours (from the first whole hour), the smallest step that gives
// at most maxLabels labels in [firstMs, lastMs], so a session of three one-minute bars is labelled too; each with its
// time in ms since the epoch. None when lastMs <= firstMs.
std::vector<std::pair<std::int64_t, QString>> sessionTimeTicks(std::int64_t firstMs, std::int64_t lastMs, const QTimeZone& zone,
                                                               int maxLabels = 6);

} // namespace stackscope::ui
