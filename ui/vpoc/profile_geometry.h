// Volume-by-price histogram geometry as plain values: one horizontal bar per price level, tested with rows.
#pragma once

#include <QRectF>

#include <cstdint>
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

// Bars inside `area`: the highest price at the top, bar length proportional to volume (the largest
// level spans the full width), every level the same height. Empty input gives no bars.
std::vector<LevelBar> layoutProfile(const ProfileInput& in, const QRectF& area);

// Price level (tick) under a y coordinate, or nullopt-like `false` when outside the levels.
bool tickAtY(const ProfileInput& in, const QRectF& area, double y, int32_t* tick);

} // namespace stackscope::ui
