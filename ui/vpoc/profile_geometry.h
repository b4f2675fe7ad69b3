// Volume-by-price histogram geometry as plain values: one horizontal bar per price level, tested with rows.
#pragma once

#include <QRectF>

#include <cstdint>
#include <cmath>
#include <vector>

namespace stackscope::ui {

enum class LevelKind { Outside, ValueArea, Poc };

struct LevelBar {
    int32_t tick = 0;
    QRectF rect;
    LevelKind kind = LevelKind::Outside;
};

struct ProfileInput {
    std::vector<uint64_t> volume; // dense, level 0 = lowTick
    int32_t lowTick = 0;
    int32_t pocTick = 0;
    int32_t vahTick = 0;
    int32_t valTick = 0;
};

// Bars inside `area`: the highest price at the top, bar length proportional to volume (a volume of `scaleTop` spans
// the full width; 0: the largest level does), every level the same height. Empty input gives no bars.
std::vector<LevelBar> layoutProfile(const ProfileInput& in, const QRectF& area, uint64_t scaleTop = 0);

// The price axis a profile shares with the price chart beside it: the chart's y range in ticks and
// the pixel rows of its plot area, in the profile widget's coordinates.
struct PriceFrame {
    double axisLowTick = 0;  // price at the plot's bottom edge, in ticks
    double axisHighTick = 1; // price at the plot's top edge, in ticks
    double top = 0;          // y of the plot's top edge
    double bottom = 1;       // y of the plot's bottom edge
};

// The histogram area whose level bands are centred on the frame's y for each level's price, so a
// price reads at the same pixel row in both charts. `left`/`width` give the horizontal extent.
QRectF alignedProfileArea(const ProfileInput& in, const PriceFrame& frame, double left, double width);
// The frame's y of a price given in ticks.
double frameY(const PriceFrame& frame, double tick);

// The price axis on the instrument's tick grid: both ends and every label a whole number of ticks (ES 0.25: 5095.75,
// never 5095.81), the step a round price (0.25, 0.5, 1, 2.5, 5, 10, 25, ...) that is a whole number of ticks, at most
// `maxIntervals` intervals, and two ticks of room above the high and below the low.
struct PriceTicks {
    int64_t lowTick = 0;  // the axis' bottom, in ticks
    int64_t highTick = 1; // its top
    int64_t stepTicks = 1;
};
PriceTicks priceAxisTicks(int32_t lowTick, int32_t highTick, double tick, int maxIntervals);

// A volume axis of round numbers (1, 2, 5 x 10^k) from 0 to at least `peak`, at most `maxIntervals` intervals: the
// volume-by-price chart's scale.
struct VolumeTicks {
    uint64_t step = 1;
    uint64_t top = 1; // a whole number of steps, >= peak
};
VolumeTicks volumeAxisTicks(uint64_t peak, int maxIntervals);

// Price level (tick) under a y coordinate, or nullopt-like `false` when outside the levels.
bool tickAtY(const ProfileInput& in, const QRectF& area, double y, int32_t* tick);

} // namespace stackscope::ui
