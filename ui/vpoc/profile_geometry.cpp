// Histogram bar layout.
#include "ui/vpoc/profile_geometry.h"

#include <algorithm>

namespace stackscope::ui {

std::vector<LevelBar> layoutProfile(const ProfileInput& in, const QRectF& area)
{
    std::vector<LevelBar> bars;
    const size_t n = in.volume.size();
    if (n == 0 || area.width() <= 0 || area.height() <= 0)
        return bars;
    const uint64_t peak = *std::max_element(in.volume.begin(), in.volume.end());
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
