// One session's profile built row by row (the CPU path): memory is the session's price range, not its rows.
#pragma once

#include "core/vpoc/volume_profile.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace stackscope::vpoc {

// The most price levels one session may span: 2^20 ticks (262,144 points of ES at 0.25, a hundred times
// any real session), so one profile is at most 8 MiB. A wider range is bad input (a wrong --tick or a
// broken price), reported at the row that widens it.
constexpr int64_t kMaxSessionLevels = int64_t(1) << 20;

// The price range of the session in progress as runs of rows (in file order) are joined to it: whether every session
// stays within kMaxSessionLevels. A block profiled in pieces is checked with it before any state changes, so that a
// session too wide is reported by the row-by-row path, which names the row that widens it.
class SessionRange {
public:
    SessionRange() = default; // no session in progress
    SessionRange(int32_t day, int64_t low, int64_t high)
        : m_open(true)
        , m_day(day)
        , m_low(low)
        , m_high(high)
    {
    }
    // Joins a run of session `day` spanning [low, high] (a new session when the day differs); false when its
    // session then spans more than kMaxSessionLevels.
    bool join(int32_t day, int64_t low, int64_t high)
    {
        if (!m_open || day != m_day) {
            m_open = true;
            m_day = day;
            m_low = low;
            m_high = high;
        } else {
            m_low = std::min(m_low, low);
            m_high = std::max(m_high, high);
        }
        return m_high - m_low + 1 <= kMaxSessionLevels;
    }

private:
    bool m_open = false;
    int32_t m_day = 0;
    int64_t m_low = 0;
    int64_t m_high = 0;
};

// Dense levels over the range seen so far, grown geometrically at either end so that a run of new highs
// or lows costs amortised O(1) per level. Gives the same profile, levels and developing values as a
// ProfileBatch of the same rows: sums of integers do not depend on the order they are added in.
class SessionAccumulator {
public:
    explicit SessionAccumulator(const ProfileOptions& options)
        : m_options(options)
    {
    }
    bool empty() const { return m_bars == 0; }
    int32_t day() const { return m_day; }
    int32_t low() const { return m_low; }
    int32_t high() const { return m_high; }
    // Levels the session would span with `r` added.
    int64_t widthWith(const MarketRecord& r) const;
    void add(int32_t day, const MarketRecord& r);
    // Rows already made elements (the GPU path's), as if each had been add()ed: `part` gives their session day, first
    // and last times, count (bars), low, width and levelShift; offset, span (null: points) and volume point at the
    // first of its `bars` elements.
    void addElements(const SessionSlice& part, const int32_t* offset, const uint32_t* span, const uint32_t* volume);
    // The rows of `later` (the same session day, its rows all after this one's) as if each had been add()ed here:
    // how the profiles built on several threads are joined. `later` is left as it was.
    void absorb(const SessionAccumulator& later);
    // POC/VAH/VAL of the rows added so far (call after add()).
    DevelopingPoint developing(const MarketRecord& r) const;
    // The session's result; the accumulator is empty afterwards.
    SessionResult finish();

private:
    void cover(int32_t low, int32_t high);

    ProfileOptions m_options;
    std::vector<uint64_t> m_levels; // m_levels[i] is tick m_base + i
    int32_t m_base = 0;
    int32_t m_low = 0;
    int32_t m_high = 0;
    int32_t m_day = 0;
    int64_t m_bars = 0;
    int64_t m_firstUs = 0;
    int64_t m_lastUs = 0;
};

} // namespace stackscope::vpoc
