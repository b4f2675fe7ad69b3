// Session profiles: the input layout shared by the CPU and GPU paths, and the CPU computation.
#pragma once

#include "core/vpoc/market_data.h"
#include "core/vpoc/profile_levels.h"

#include <cstdint>
#include <vector>

namespace stackscope::vpoc {

enum class Distribution { Uniform, Close, Typical };
enum class ValueAreaMethod { Dual, Single };

struct ProfileOptions {
    Distribution distribution = Distribution::Uniform;
    uint32_t vaBasisPoints = 7000; // 70% = 7000 (integer arithmetic)
    ValueAreaMethod method = ValueAreaMethod::Dual;
    bool keepProfiles = false; // return the dense profile of each session
};

// One session of a batch. Element i of the session adds `volume[i]` spread uniformly over
// levels offset[i] + levelShift .. offset[i] + levelShift + span[i] of the session's dense profile (span 0 for a point).
struct SessionSlice {
    int32_t day = 0; // days since 1970-01-01
    int64_t firstUs = 0;
    int64_t lastUs = 0;
    int64_t bars = 0;
    int32_t lowTick = 0; // the session's low (bars' lows), level 0 of the profile
    int32_t width = 0;   // high - low + 1 levels
    // Added to an element's offset to give its level (shiftedLevel(), modulo 2^32): 0 where offsets count from the
    // session's low (appendSession), shiftOfLow(lowTick) where they are ticks (the GPU path writes them before it knows
    // the session's low).
    int32_t levelShift = 0;
    int64_t elemBegin = 0;
    int64_t elemEnd = 0;
};

// A batch as the computations read it (structure of arrays, copied to the GPU as it is): ProfileBatch::view(), or
// the GPU path's own storage.
struct BatchView {
    const SessionSlice* sessions = nullptr;
    size_t sessionCount = 0;
    const int32_t* offset = nullptr;
    const uint32_t* span = nullptr; // null while every element is a point
    const uint32_t* volume = nullptr;
};

// Sessions with their elements, built one session at a time.
struct ProfileBatch {
    std::vector<SessionSlice> sessions;
    std::vector<int32_t> offset;
    std::vector<uint32_t> span; // empty while every element is a point (trades, close, typical)
    std::vector<uint32_t> volume;

    size_t elementCount() const { return volume.size(); }
    void clear();
    // Converts one session's records by the distribution rule. `records` must be non-empty.
    void appendSession(int32_t day, const MarketRecord* records, size_t count, Distribution distribution);
    BatchView view() const
    {
        return {sessions.data(), sessions.size(), offset.data(), span.empty() ? nullptr : span.data(), volume.data()};
    }
};

struct SessionResult {
    int32_t day = 0;
    int64_t firstUs = 0;
    int64_t lastUs = 0;
    int64_t bars = 0;
    uint64_t volume = 0;
    int32_t lowTick = 0;
    int32_t highTick = 0;
    int32_t pocTick = 0;
    int32_t vahTick = 0;
    int32_t valTick = 0;
    std::vector<uint64_t> profile; // dense over [lowTick, highTick] when asked for
};

// POC/VAH/VAL after each bar of a session, from that bar and the ones before it only.
struct DevelopingPoint {
    int64_t timeUs = 0;
    int32_t pocTick = 0;
    int32_t vahTick = 0;
    int32_t valTick = 0;
    int32_t closeTick = 0; // the bar's own close, for charts
};

// The tick a bar's volume goes to under `close` / `typical` (round((H+L+C)/3) in ticks, halves never occur).
int32_t typicalTick(const MarketRecord& r);
// The tick an element of the bar starts at: its low (Uniform, spread up to its high), close or typical tick.
inline int32_t targetTick(const MarketRecord& r, Distribution d)
{
    switch (d) {
    case Distribution::Close:
        return r.close;
    case Distribution::Typical:
        return typicalTick(r);
    case Distribution::Uniform:
        break;
    }
    return r.low;
}

// Fills a session's result from its dense profile (shared by the CPU and GPU paths).
SessionResult finishSession(const SessionSlice& s, const uint64_t* profile, const ProfileOptions& options);
SessionResult finishSession(const SessionSlice& s, const LevelOffsets& levels, uint64_t volume);

// Adds `count` elements to the dense `levels`: element i's volume at level shiftedLevel(offset[i], shift), spread
// uniformly over span[i] + 1 levels when `span` is not null.
void addElementsToLevels(uint64_t* levels, int32_t shift, const int32_t* offset, const uint32_t* span,
                         const uint32_t* volume, size_t count);

// Builds one session's profile on the CPU into `scratch` (resized to the session's width).
void buildProfileCpu(const BatchView& batch, size_t session, std::vector<uint64_t>& scratch);

// Every session of the batch, on the runner's CPU lane.
std::vector<SessionResult> computeBatchCpu(const BatchView& batch, const ProfileOptions& options, TaskRunner& runner);
// The same on a runner of `threads` threads (0 = all usable threads; no more than the sessions) made for the call:
// the tests' and benchmarks' reference, and the GPU self-check's.
std::vector<SessionResult> computeBatchCpu(const BatchView& batch, const ProfileOptions& options, unsigned threads);

// Developing values of one session, causal by construction: point t is computed from bars 0..t.
std::vector<DevelopingPoint> developingValues(const MarketRecord* records, size_t count, const ProfileOptions& options);

} // namespace stackscope::vpoc
