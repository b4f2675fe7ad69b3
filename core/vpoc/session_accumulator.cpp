// Row-by-row session profiles on the CPU: geometric growth of the dense levels, the distribution rules of ProfileBatch.
#include "core/vpoc/session_accumulator.h"

#include <algorithm>

namespace stackscope::vpoc {

int64_t SessionAccumulator::widthWith(const MarketRecord& r) const
{
    if (empty())
        return static_cast<int64_t>(r.high) - r.low + 1;
    return static_cast<int64_t>(std::max(m_high, r.high)) - std::min(m_low, r.low) + 1;
}

void SessionAccumulator::cover(int32_t low, int32_t high)
{
    const int64_t have = static_cast<int64_t>(m_levels.size());
    if (have > 0 && low >= m_base && static_cast<int64_t>(high) - m_base < have)
        return;
    // Grow to twice the needed range on the side that grew (exactly the range for a new session).
    const int64_t top = static_cast<int64_t>(m_base) + have - 1;
    const int64_t lo = have > 0 ? std::min<int64_t>(low, m_base) : low;
    const int64_t hi = have > 0 ? std::max<int64_t>(high, top) : high;
    const int64_t slack = have > 0 ? hi - lo + 1 : 0;
    const int64_t newBase = std::max<int64_t>(have > 0 && low < m_base ? lo - slack : lo, INT32_MIN);
    const int64_t newTop = std::min<int64_t>(have > 0 && high > top ? hi + slack : hi, INT32_MAX);
    std::vector<uint64_t> grown(static_cast<size_t>(newTop - newBase + 1), 0);
    if (have > 0)
        std::copy(m_levels.begin(), m_levels.end(), grown.begin() + (m_base - newBase));
    m_levels.swap(grown);
    m_base = static_cast<int32_t>(newBase);
}

void SessionAccumulator::add(int32_t day, const MarketRecord& r)
{
    if (empty()) {
        m_day = day;
        m_low = r.low;
        m_high = r.high;
        m_firstUs = r.timeUs;
        m_levels.clear();
    }
    m_low = std::min(m_low, r.low);
    m_high = std::max(m_high, r.high);
    cover(r.low, r.high);
    switch (m_options.distribution) {
    case Distribution::Uniform:
        addUniform(m_levels.data(), r.low - m_base, static_cast<uint32_t>(r.high - r.low), r.volume);
        break;
    case Distribution::Close:
        m_levels[static_cast<size_t>(r.close - m_base)] += r.volume;
        break;
    case Distribution::Typical:
        m_levels[static_cast<size_t>(typicalTick(r) - m_base)] += r.volume;
        break;
    }
    m_lastUs = r.timeUs;
    ++m_bars;
}

void SessionAccumulator::addElements(const SessionSlice& part, const int32_t* offset, const uint32_t* span,
                                     const uint32_t* volume)
{
    const int32_t high = part.lowTick + part.width - 1;
    if (empty()) {
        m_day = part.day;
        m_low = part.lowTick;
        m_high = high;
        m_firstUs = part.firstUs;
        m_levels.clear();
    }
    m_low = std::min(m_low, part.lowTick);
    m_high = std::max(m_high, high);
    cover(part.lowTick, high);
    // m_levels[i] is tick m_base + i: the part's level 0 (its low) is index lowTick - m_base.
    addElementsToLevels(m_levels.data(), shiftedLevel(part.lowTick - m_base, part.levelShift), offset, span, volume,
                        static_cast<size_t>(part.bars));
    m_lastUs = part.lastUs;
    m_bars += part.bars;
}

void SessionAccumulator::absorb(const SessionAccumulator& later)
{
    if (later.empty())
        return;
    const uint64_t* from = later.m_levels.data() + (later.m_low - later.m_base);
    const size_t width = static_cast<size_t>(later.m_high - later.m_low) + 1;
    if (empty()) {
        m_day = later.m_day;
        m_firstUs = later.m_firstUs;
        m_low = m_base = later.m_low;
        m_high = later.m_high;
        m_levels.assign(from, from + width);
    } else {
        m_low = std::min(m_low, later.m_low);
        m_high = std::max(m_high, later.m_high);
        cover(later.m_low, later.m_high);
        uint64_t* to = m_levels.data() + (later.m_low - m_base);
        for (size_t i = 0; i < width; ++i)
            to[i] += from[i]; // integer sums: the order rows are added in does not matter
    }
    m_lastUs = later.m_lastUs;
    m_bars += later.m_bars;
}

DevelopingPoint SessionAccumulator::developing(const MarketRecord& r) const
{
    const uint64_t* vol = m_levels.data() + (m_low - m_base);
    const auto l = valueArea(vol, m_high - m_low + 1, m_options.vaBasisPoints, m_options.method == ValueAreaMethod::Dual);
    return {r.timeUs, m_low + l.poc, m_low + l.vah, m_low + l.val, r.close};
}

SessionResult SessionAccumulator::finish()
{
    SessionSlice s;
    s.day = m_day;
    s.firstUs = m_firstUs;
    s.lastUs = m_lastUs;
    s.bars = m_bars;
    s.lowTick = m_low;
    s.width = m_high - m_low + 1;
    auto result = finishSession(s, m_levels.data() + (m_low - m_base), m_options);
    m_bars = 0;
    return result;
}

} // namespace stackscope::vpoc
