// CPU volume profiles: distribution of bars to ticks, dense histograms, POC and value area, developing values.
#include "core/vpoc/volume_profile.h"

#include "core/util/task_runner.h"

#include <algorithm>
#include <atomic>

namespace stackscope::vpoc {

namespace {

int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

} // namespace

int32_t typicalTick(const MarketRecord& r)
{
    // round(s / 3) for an integer s: the remainder is 0, 1 or 2, so there is never a half to break.
    const int64_t s = static_cast<int64_t>(r.high) + r.low + r.close;
    const int64_t q = floorDiv(s, 3);
    return static_cast<int32_t>(s - 3 * q == 2 ? q + 1 : q);
}

void ProfileBatch::clear()
{
    sessions.clear();
    offset.clear();
    span.clear();
    volume.clear();
}

namespace {

// Elements of one session's rows: the target tick's offset from the session's low and the volume, and (into `span`
// when not null) the levels above the low that a bar covers.
void convertRows(const MarketRecord* records, size_t count, int32_t low, Distribution distribution, int32_t* offset,
                 uint32_t* volume, uint32_t* span)
{
    for (size_t i = 0; i < count; ++i) {
        offset[i] = targetTick(records[i], distribution) - low;
        volume[i] = records[i].volume;
    }
    if (span)
        for (size_t i = 0; i < count; ++i)
            span[i] = static_cast<uint32_t>(records[i].high - records[i].low);
}

} // namespace

void ProfileBatch::appendSession(int32_t day, const MarketRecord* records, size_t count, Distribution distribution)
{
    SessionSlice s;
    s.day = day;
    s.firstUs = records[0].timeUs;
    s.lastUs = records[count - 1].timeUs;
    s.bars = static_cast<int64_t>(count);
    int32_t lo = records[0].low;
    int32_t hi = records[0].high;
    for (size_t i = 1; i < count; ++i) {
        lo = std::min(lo, records[i].low);
        hi = std::max(hi, records[i].high);
    }
    s.lowTick = lo;
    s.width = static_cast<int32_t>(static_cast<int64_t>(hi) - lo + 1);
    const size_t at = volume.size();
    s.elemBegin = static_cast<int64_t>(at);
    const bool spans = distribution == Distribution::Uniform;
    bool anySpan = false;
    for (size_t i = 0; i < count; ++i)
        anySpan = anySpan || (spans && records[i].high != records[i].low);
    offset.resize(at + count);
    volume.resize(at + count);
    if (anySpan || !span.empty())
        span.resize(at + count, 0); // earlier sessions that were all points get spans of 0
    convertRows(records, count, lo, distribution, offset.data() + at, volume.data() + at,
                spans && !span.empty() ? span.data() + at : nullptr);
    s.elemEnd = static_cast<int64_t>(volume.size());
    sessions.push_back(s);
}

SessionResult finishSession(const SessionSlice& s, const LevelOffsets& levels, uint64_t volume)
{
    SessionResult r;
    r.day = s.day;
    r.firstUs = s.firstUs;
    r.lastUs = s.lastUs;
    r.bars = s.bars;
    r.volume = volume;
    r.lowTick = s.lowTick;
    r.highTick = s.lowTick + s.width - 1;
    r.pocTick = s.lowTick + levels.poc;
    r.vahTick = s.lowTick + levels.vah;
    r.valTick = s.lowTick + levels.val;
    return r;
}

SessionResult finishSession(const SessionSlice& s, const uint64_t* profile, const ProfileOptions& options)
{
    const auto levels = valueArea(profile, s.width, options.vaBasisPoints, options.method == ValueAreaMethod::Dual);
    uint64_t total = 0;
    for (int32_t i = 0; i < s.width; ++i)
        total += profile[i];
    auto r = finishSession(s, levels, total);
    if (options.keepProfiles)
        r.profile.assign(profile, profile + s.width);
    return r;
}

void addElementsToLevels(uint64_t* levels, int32_t shift, const int32_t* offset, const uint32_t* span,
                         const uint32_t* volume, size_t count)
{
    if (!span) {
        for (size_t i = 0; i < count; ++i)
            levels[shiftedLevel(offset[i], shift)] += volume[i];
    } else {
        for (size_t i = 0; i < count; ++i)
            addUniform(levels, shiftedLevel(offset[i], shift), span[i], volume[i]);
    }
}

void buildProfileCpu(const BatchView& batch, size_t session, std::vector<uint64_t>& scratch)
{
    const auto& s = batch.sessions[session];
    scratch.assign(static_cast<size_t>(s.width), 0);
    const auto b = static_cast<size_t>(s.elemBegin);
    addElementsToLevels(scratch.data(), s.levelShift, batch.offset + b, batch.span ? batch.span + b : nullptr,
                        batch.volume + b, static_cast<size_t>(s.elemEnd - s.elemBegin));
}

std::vector<SessionResult> computeBatchCpu(const BatchView& batch, const ProfileOptions& options, TaskRunner& runner)
{
    std::vector<SessionResult> out(batch.sessionCount);
    // One task a thread, each taking the next session as it comes free (sessions differ widely in size), with one
    // scratch buffer a task.
    const size_t tasks = std::min<size_t>(runner.threads(), std::max<size_t>(1, batch.sessionCount));
    std::atomic<size_t> next {0};
    runner.forEach(tasks, [&](size_t) {
        std::vector<uint64_t> scratch;
        for (size_t i = next++; i < batch.sessionCount; i = next++) {
            buildProfileCpu(batch, i, scratch);
            out[i] = finishSession(batch.sessions[i], scratch.data(), options);
        }
    });
    return out;
}

std::vector<SessionResult> computeBatchCpu(const BatchView& batch, const ProfileOptions& options, unsigned threads)
{
    TaskRunner runner(static_cast<unsigned>(std::min<size_t>(threadsOrAll(threads), std::max<size_t>(1, batch.sessionCount))));
    return computeBatchCpu(batch, options, runner);
}

std::vector<DevelopingPoint> developingValues(const MarketRecord* records, size_t count, const ProfileOptions& options)
{
    std::vector<DevelopingPoint> out;
    if (count == 0)
        return out;
    out.reserve(count);
    // One buffer over the range seen so far, grown at either end as new highs and lows arrive; the values
    // at bar t read only levels filled by bars 0..t.
    int32_t lo = records[0].low;
    int32_t hi = records[0].high;
    std::vector<uint64_t> vol(static_cast<size_t>(static_cast<int64_t>(hi) - lo + 1), 0);
    const bool dual = options.method == ValueAreaMethod::Dual;
    for (size_t t = 0; t < count; ++t) {
        const auto& r = records[t];
        if (r.low < lo) {
            vol.insert(vol.begin(), static_cast<size_t>(static_cast<int64_t>(lo) - r.low), 0);
            lo = r.low;
        }
        if (r.high > hi) {
            vol.insert(vol.end(), static_cast<size_t>(static_cast<int64_t>(r.high) - hi), 0);
            hi = r.high;
        }
        if (options.distribution == Distribution::Uniform)
            addUniform(vol.data(), r.low - lo, static_cast<uint32_t>(r.high - r.low), r.volume);
        else
            vol[static_cast<size_t>(targetTick(r, options.distribution) - lo)] += r.volume;
        const auto l = valueArea(vol.data(), static_cast<int32_t>(vol.size()), options.vaBasisPoints, dual);
        out.push_back({r.timeUs, lo + l.poc, lo + l.vah, lo + l.val, r.close});
    }
    return out;
}

} // namespace stackscope::vpoc
