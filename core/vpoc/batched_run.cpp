// The GPU path's host side: rows made elements and gathered into batches of whole sessions, on the job's threads.
#include "core/vpoc/batched_run.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

namespace stackscope::vpoc {

namespace {

// `a` with room for `capacity` elements, its first `keep` kept.
template <typename T>
void growKeeping(UnzeroedArray<T>& a, size_t keep, size_t capacity)
{
    UnzeroedArray<T> grown;
    grown.ensure(capacity);
    std::uninitialized_copy(a.data(), a.data() + keep, grown.data());
    a = std::move(grown);
}

// `count` elements from from[at] to to[where]; the ranges may overlap (a run moved down into a gap).
template <typename T>
void moveElements(const UnzeroedArray<T>& from, size_t at, UnzeroedArray<T>& to, size_t where, size_t count)
{
    if (count) // storage not yet allocated is null, and memmove's pointers must not be, even for no bytes
        std::memmove(to.data() + where, from.data() + at, count * sizeof(T));
}

} // namespace

BatchedRun::BatchedRun(Job& job, const BatchCompute& compute)
    : m_job(job)
    , m_compute(compute)
    , m_spread(job.options.profile.distribution == Distribution::Uniform)
    , m_developing(job.options.developing)
    , m_large(job.options.profile)
{
}

BatchedRun::~BatchedRun()
{
    if (m_inFlight.valid())
        m_inFlight.wait();
}

void BatchedRun::run(unsigned threads)
{
    // Developing values are computed per row in file order, from the rows kept in the batch.
    if (m_developing)
        runRows();
    else
        runBlocks(threads);
    closeSession();
    dispatch();
    collect();
}

// Developing values (computed per row in file order): the rows one by one, on this thread.
void BatchedRun::runRows()
{
    while (m_job.next()) {
        for (size_t i = 0; i < m_job.block.count; ++i)
            addRow(i);
    }
}

void BatchedRun::runBlocks(unsigned threads)
{
    BlockRuns blocks(m_job.sessions, *m_job.runner, m_job.options.minRowsPerThread);
    const Distribution distribution = m_job.options.profile.distribution;
    while (m_job.next(kBlockRowsPerThread * threads)) {
        const BorrowedRows& block = m_job.block;
        roomFor(block.count);
        // A session wider than kMaxSessionLevels: row by row (over the elements just made), which names the row.
        if (!blocks.find(block.rows, block.count, distribution, sink()) || !blocks.fitsAfter(sessionRange())) {
            for (size_t i = 0; i < block.count; ++i)
                addRow(i);
            continue;
        }
        m_job.result.outsideSessions += blocks.outside();
        m_walked = m_batch;
        m_walkBase = m_batch->rowCount;
        blocks.forEach([this](const RowRun& run) { addRun(run); });
        m_walked.reset();
        if (m_sessionBegin >= m_job.options.gpuBatchRows)
            dispatch();
    }
}

ElementSink BatchedRun::sink()
{
    auto& b = *m_batch;
    return {b.tick.data() + b.rowCount, m_spread ? b.span.data() + b.rowCount : nullptr, b.volume.data() + b.rowCount};
}

SessionRange BatchedRun::sessionRange() const
{
    if (!m_large.empty())
        return {m_currentDay, m_large.low(), m_large.high()};
    if (sessionRows() > 0)
        return {m_currentDay, m_low, m_high};
    return {};
}

void BatchedRun::addRow(size_t i)
{
    const auto& r = m_job.block.rows[i];
    const auto day = m_job.sessions.sessionDay(r.timeUs);
    if (!day) {
        ++m_job.result.outsideSessions;
        return;
    }
    if (sessionOpen() && *day != m_currentDay) {
        closeSession();
        if (m_sessionBegin >= m_job.options.gpuBatchRows)
            dispatch();
    }
    m_currentDay = *day;
    if (!m_large.empty()) {
        m_job.checkWidth(m_large.widthWith(r), *day, i);
        if (m_developing)
            m_job.countDeveloping(m_large.widthWith(r), *day, i);
        addLarge(r);
        return;
    }
    joinOpenSession(r.low, r.high, r.timeUs, r.timeUs);
    m_job.checkWidth(static_cast<int64_t>(m_high) - m_low + 1, *day, i);
    if (m_developing)
        m_job.countDeveloping(static_cast<int64_t>(m_high) - m_low + 1, *day, i);
    roomFor(1);
    writeRow(r);
    if (static_cast<int64_t>(sessionRows()) > m_job.options.maxGpuSessionRows)
        moveToCpu();
}

// Rows spanning [low, high] from firstUs to lastUs join the session in progress in m_batch (or start it).
void BatchedRun::joinOpenSession(int32_t low, int32_t high, int64_t firstUs, int64_t lastUs)
{
    const bool first = sessionRows() == 0;
    m_low = first ? low : std::min(m_low, low);
    m_high = first ? high : std::max(m_high, high);
    m_firstUs = first ? firstUs : m_firstUs;
    m_lastUs = lastUs;
}

void BatchedRun::writeRow(const MarketRecord& r)
{
    auto& b = *m_batch;
    b.tick.construct(b.rowCount, targetTick(r, m_job.options.profile.distribution));
    b.volume.construct(b.rowCount, r.volume);
    if (m_spread && (b.spans || r.high != r.low)) {
        settleSpans(true, 0);
        b.span.construct(b.rowCount, static_cast<uint32_t>(r.high - r.low));
    }
    if (m_developing)
        b.rows.construct(b.rowCount, r);
    ++b.rowCount;
}

// What addRow() does for each row of the run (found fitting by BlockRuns), its elements made already.
void BatchedRun::addRun(const RowRun& run)
{
    if (sessionOpen() && run.day != m_currentDay)
        closeSession();
    m_currentDay = run.day;
    const size_t count = run.end - run.begin;
    const Batch& from = *m_walked;
    const size_t at = m_walkBase + run.begin;
    if (m_large.empty() && static_cast<int64_t>(sessionRows() + count) > m_job.options.maxGpuSessionRows)
        moveToCpu();
    if (!m_large.empty()) {
        SessionSlice part;
        part.day = run.day;
        part.firstUs = run.firstUs;
        part.lastUs = run.lastUs;
        part.bars = static_cast<int64_t>(count);
        part.lowTick = run.low;
        part.width = run.high - run.low + 1;
        part.levelShift = shiftOfLow(run.low);
        m_large.addElements(part, from.tick.data() + at, run.spans ? from.span.data() + at : nullptr,
                            from.volume.data() + at);
        return;
    }
    joinOpenSession(run.low, run.high, run.firstUs, run.lastUs);
    place(from, at, count, run.spans);
    settleSpans(run.spans, count);
    m_batch->rowCount += count;
}

// Keeps every span of the batch written while one element covers more than one level (trades write none): `count`
// elements placed at the end, whose spans were `written`.
void BatchedRun::settleSpans(bool written, size_t count)
{
    auto& b = *m_batch;
    if (!m_spread || written == b.spans)
        return;
    if (written) {
        std::fill(b.span.data(), b.span.data() + b.rowCount, 0u); // the points before the first bar with a span
        b.spans = true;
    } else {
        std::fill(b.span.data() + b.rowCount, b.span.data() + b.rowCount + count, 0u);
    }
}

// The `count` elements at from[at] to the end of the batch: nothing to do unless rows outside every session left a
// gap before them, or the batch was sent while the block was walked (a session moved to the CPU).
void BatchedRun::place(const Batch& from, size_t at, size_t count, bool spans)
{
    auto& b = *m_batch;
    if (&from == &b && at == b.rowCount)
        return;
    if (&from != &b)
        roomFor(count); // `from` is not m_batch, whose storage may grow
    moveElements(from.tick, at, b.tick, b.rowCount, count);
    moveElements(from.volume, at, b.volume, b.rowCount, count);
    if (spans)
        moveElements(from.span, at, b.span, b.rowCount, count);
}

// Room in the batch for `rows` more elements. Storage is not zeroed: an element's first write (on the pool, for a
// block) is its first touch. Grows rarely (a session of several M rows), copying on this thread.
void BatchedRun::roomFor(size_t rows)
{
    auto& b = *m_batch;
    const size_t need = b.rowCount + rows;
    if (need <= b.volume.capacity())
        return;
    const size_t capacity = std::max({need, 2 * b.volume.capacity(), 2 * m_job.options.gpuBatchRows});
    growKeeping(b.tick, b.rowCount, capacity);
    growKeeping(b.volume, b.rowCount, capacity);
    if (m_spread)
        growKeeping(b.span, b.rowCount, capacity);
    if (m_developing)
        growKeeping(b.rows, b.rowCount, capacity);
}

// The sessions of the batch in flight, into the result in order; its storage is kept for the next batch.
void BatchedRun::collect()
{
    if (!m_inFlight.valid())
        return;
    auto out = m_inFlight.get();
    for (size_t i = 0; i < out.sessions.size(); ++i) {
        m_job.result.sessions.push_back(std::move(out.sessions[i]));
        if (i < out.developing.size())
            m_job.keepDeveloping(m_job.result.sessions.back(), std::move(out.developing[i]));
    }
    m_spare = std::move(out.batch);
}

void BatchedRun::addLarge(const MarketRecord& r)
{
    m_large.add(m_currentDay, r);
    if (m_developing) {
        m_largeDeveloping.push_back(m_large.developing(r));
        if (m_largeDeveloping.size() >= kDevelopingPiece && m_job.options.developingSink) {
            collect(); // the sessions before this one are written first
            m_job.passOn(m_currentDay, m_largeDeveloping);
        }
    }
}

// Sends the batch's closed sessions to `compute` (after collecting the batch in flight); the elements of the session
// in progress start the next batch.
void BatchedRun::dispatch()
{
    if (m_batch->sessions.empty())
        return;
    collect();
    // The spare storage, unless runs still being walked have their elements in it.
    std::shared_ptr<Batch> full = std::exchange(
        m_batch, m_spare && m_spare != m_walked ? std::exchange(m_spare, nullptr) : std::make_shared<Batch>());
    m_batch->sessions.clear();
    m_batch->rowCount = 0;
    const size_t open = full->rowCount - m_sessionBegin;
    m_batch->spans = open > 0 && full->spans; // of the batch: true where the open session's may be false
    roomFor(open);
    moveElements(full->tick, m_sessionBegin, m_batch->tick, 0, open);
    moveElements(full->volume, m_sessionBegin, m_batch->volume, 0, open);
    if (full->spans)
        moveElements(full->span, m_sessionBegin, m_batch->span, 0, open);
    if (m_developing)
        moveElements(full->rows, m_sessionBegin, m_batch->rows, 0, open);
    m_batch->rowCount = open;
    full->rowCount = m_sessionBegin;
    m_sessionBegin = 0;
    // The task gets copies of what it reads (the compute function outlives it: see ~BatchedRun).
    auto profileBatch = [compute = &m_compute, options = m_job.options.profile,
                         developing = m_developing](std::shared_ptr<Batch> b) {
        BatchOutput out;
        out.sessions = (*compute)(b->view(), options);
        if (developing)
            for (const auto& s : b->sessions)
                out.developing.push_back(
                    developingValues(b->rows.data() + s.elemBegin, static_cast<size_t>(s.bars), options));
        out.batch = std::move(b);
        return out;
    };
    // On a thread of the run's runner of its own (it mostly waits for the device), while this one reads on.
    m_inFlight = m_job.runner->start([profileBatch, full = std::move(full)]() mutable { return profileBatch(std::move(full)); });
}

// The session in progress outgrew the GPU path: its elements (with developing values its rows) so far into the CPU
// accumulator, after the sessions before it are sent (with developing values their pieces are written in order).
void BatchedRun::moveToCpu()
{
    const Batch& b = *m_batch;
    std::vector<MarketRecord> rows;
    if (m_developing)
        rows.assign(b.rows.data() + m_sessionBegin, b.rows.data() + b.rowCount);
    else if (sessionRows() > 0)
        m_large.addElements(openSlice(), b.tick.data() + m_sessionBegin,
                            b.spans ? b.span.data() + m_sessionBegin : nullptr, b.volume.data() + m_sessionBegin);
    m_batch->rowCount = m_sessionBegin;
    dispatch();
    for (const auto& r : rows)
        addLarge(r);
}

// The session in progress as a slice of the batch (its elements are ticks: levelShift is minus its low).
SessionSlice BatchedRun::openSlice() const
{
    SessionSlice s;
    s.day = m_currentDay;
    s.firstUs = m_firstUs;
    s.lastUs = m_lastUs;
    s.bars = static_cast<int64_t>(sessionRows());
    s.lowTick = m_low;
    s.width = static_cast<int32_t>(static_cast<int64_t>(m_high) - m_low + 1);
    s.levelShift = shiftOfLow(m_low);
    s.elemBegin = static_cast<int64_t>(m_sessionBegin);
    s.elemEnd = static_cast<int64_t>(m_batch->rowCount);
    return s;
}

// The session in progress: its CPU result into the result, or its slice into the batch.
void BatchedRun::closeSession()
{
    if (!m_large.empty()) {
        collect();
        m_job.keepProfileLevels(static_cast<int64_t>(m_large.high()) - m_large.low() + 1, m_currentDay);
        m_job.result.sessions.push_back(m_large.finish());
        if (m_developing)
            m_job.keepDeveloping(m_job.result.sessions.back(), std::move(m_largeDeveloping));
        m_largeDeveloping = {};
        return;
    }
    if (sessionRows() == 0)
        return;
    m_job.keepProfileLevels(static_cast<int64_t>(m_high) - m_low + 1, m_currentDay);
    m_batch->sessions.push_back(openSlice());
    m_sessionBegin = m_batch->rowCount;
}

} // namespace stackscope::vpoc
