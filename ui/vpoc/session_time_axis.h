// Time-axis labels for a session's price chart in the session's own time zone (New York for globex),
// at whole hours, as plain values tested with rows.
#pragma once

#include <QString>
#include <QTimeZone>

#include <cstdint>
#include <utility>
#include <vector>

namespace stackscope::ui {

// Labels ("Sun 18:00") at whole-hour steps of 1, 2, 3, 4, 6 or 12 hours in `zone`, the smallest step
// that gives at most maxLabels labels in [firstMs, lastMs]; each with its time in ms since the epoch.
std::vector<std::pair<std::int64_t, QString>> sessionTimeTicks(std::int64_t firstMs, std::int64_t lastMs, const QTimeZone& zone,
                                                               int maxLabels = 6);

} // namespace stackscope::ui
