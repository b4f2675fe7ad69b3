// Histogram bar layout.
#include "ui/vpoc/profile_geometry.h"

#include <algorithm>

namespace stackscope::ui {

PriceTicks priceAxisTicks(int32_t lowTick, int32_t highTick, double tick, int maxIntervals)
{
    const int64_t lo = int64_t {std::min(lowTick, highTick)} - 2, hi = int64_t {std::max(lowTick, highTick)} + 2;
    maxIntervals = std::max(1, maxIntervals);
    auto fits = [&](int64_t ticks) {
        const int64_t low = lo >= 0 ? lo / ticks * ticks : -((-lo + ticks - 1) / ticks) * ticks;
        const int64_t high = hi >= 0 ? (hi + ticks - 1) / ticks * ticks : -((-hi) / ticks) * ticks;
        return (high - low) / ticks <= maxIntervals;
    };
    // Round price steps in increasing order; the first that is a whole number of ticks and fits is taken.
    int64_t step = 0;
    const double span = double(hi - lo) * tick;
    for (double decade = 1e-4; step == 0 && decade <= std::max(1.0, span); decade *= 10) {
        for (double m : {1.0, 2.0, 2.5, 5.0}) {
            const double ratio = m * decade / tick;
            const int64_t ticks = std::llround(ratio);
            if (ticks >= 1 && std::fabs(ratio - double(ticks)) <= 1e-9 * ratio && fits(ticks)) {
                step = ticks;
                break;
            }
        }
    }
    // A tick no round price is a multiple of (0.3): 1, 2, 5, 10, ... ticks.
    for (int64_t decade = 1; step == 0; decade *= 10) {
        for (int64_t m : {1, 2, 5}) {
            if (fits(m * decade)) {
                step = m * decade;
                break;
            }
        }
    }
    PriceTicks t;
    t.stepTicks = step;
    t.lowTick = lo >= 0 ? lo / step * step : -((-lo + step - 1) / step) * step;
    t.highTick = hi >= 0 ? (hi + step - 1) / step * step : -((-hi) / step) * step;
    if (t.highTick <= t.lowTick)
        t.highTick = t.lowTick + step;
    return t;
}

VolumeTicks volumeAxisTicks(uint64_t peak, int maxIntervals)
{
    maxIntervals = std::max(1, maxIntervals);
    peak = std::max<uint64_t>(peak, 1);
    for (uint64_t decade = 1;; decade *= 10) {
        for (uint64_t m : {1, 2, 5}) {
            const uint64_t step = m * decade;
            const uint64_t intervals = (peak + step - 1) / step;
            if (intervals <= static_cast<uint64_t>(maxIntervals))
                return {step, intervals * step};
        }
        if (decade > UINT64_MAX / 100)
            return {decade, peak};
    }
}

std::vector<LevelBar> layoutProfile(const ProfileInput& in, const QRectF& area, uint64_t scaleTop)
{
    std::vector<LevelBar> bars;
    const size_t n = in.volume.size();
    if (n == 0 || area.width() <= 0 || area.height() <= 0)
        return bars;
    const uint64_t peak = std::max(scaleTop, *std::max_element(in.volume.begin(), in.volume.end()));
    const double h = area.height() / static_cast<double>(n);
    bars.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        LevelBar b;
        b.tick = in.lowTick + static_cast<int32_t>(i);
        const double w = peak == 0 ? 0.0 : area.width() * static_cast<double>(in.volume[i]) / static_cast<double>(peak);
        // Level 0 (the low) is at the bottom.
        b.rect = QRectF(area.left(), area.bottom() - h * static_cast<double>(i + 1), w, h);
        if (b.tick == in.pocTick)
            b.kind = LevelKind::Poc;
        else if (b.tick >= in.valTick && b.tick <= in.vahTick)
            b.kind = LevelKind::ValueArea;
        bars.push_back(b);
    }
    return bars;
}

bool tickAtY(const ProfileInput& in, const QRectF& area, double y, int32_t* tick)
{
    const size_t n = in.volume.size();
    if (n == 0 || y < area.top() || y >= area.bottom())
        return false;
    const double h = area.height() / static_cast<double>(n);
    const auto fromBottom = static_cast<int32_t>((area.bottom() - y) / h);
    *tick = in.lowTick + std::min<int32_t>(fromBottom, static_cast<int32_t>(n) - 1);
    return true;
}

double frameY(const PriceFrame& frame, double tick)
{
    const double span = frame.axisHighTick - frame.axisLowTick;
    if (span <= 0)
        return frame.bottom;
    return frame.top + (frame.axisHighTick - tick) / span * (frame.bottom - frame.top);
}

QRectF alignedProfileArea(const ProfileInput& in, const PriceFrame& frame, double left, double width)
{
    const auto n = static_cast<int32_t>(in.volume.size());
    if (n == 0)
        return {};
    // Level i is drawn from tick - 0.5 to tick + 0.5, so its band centre is the tick's own row.
    const double top = frameY(frame, in.lowTick + n - 1 + 0.5);
    const double bottom = frameY(frame, in.lowTick - 0.5);
    return QRectF(left, top, width, bottom - top);
}

} // namespace stackscope::ui
