// The GPU path's host side: rows gathered into batches of whole sessions, on the job's threads where it has several.
#include "core/vpoc/batched_run.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace stackscope::vpoc {

namespace {

// Asks for huge pages where the kernel gives them on request (transparent_hugepage=madvise): a batch's rows are
// 128 MiB and more, first touched by the copies; on the 2-core VM its 4 KiB page faults were 40 % of the faults of
// a run (70 K of 121 K, `perf stat`). Only a hint: nothing changes where it is refused.
void preferHugePages(void* data, size_t bytes)
{
#ifdef __linux__
    constexpr uintptr_t kHuge = uintptr_t(1) << 21;
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
    const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
    if (end > begin)
        madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace

BatchedRun::BatchedRun(Job& job, const BatchCompute& compute)
    : m_job(job)
    , m_compute(compute)
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
    // Developing values are computed per row in file order. On one thread the blocks cost less than the rows one by
    // one too (a run's rows are copied whole): 1.572 s against the CPU backend's 1.319 s row by row, H100 host.
    if (m_job.options.developing)
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
    BlockRuns blocks(m_job.sessions, *m_job.pool, m_job.options.minRowsPerThread);
    while (m_job.next(kBlockRowsPerThread * threads)) {
        // A session wider than kMaxSessionLevels: row by row, which names the row that widens it.
        if (!blocks.find(m_job.block.rows, m_job.block.count) || !blocks.fitsAfter(sessionRange())) {
            for (size_t i = 0; i < m_job.block.count; ++i)
                addRow(i);
            continue;
        }
        m_job.result.outsideSessions += blocks.outside();
        blocks.forEach([this](const RowRun& run) { addRun(run); });
        copyRows(); // the reader's next block replaces these rows
    }
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
        if (m_batch->rowCount >= m_job.options.gpuBatchRows)
            dispatch();
    }
    m_currentDay = *day;
    if (!m_large.empty()) {
        m_job.checkWidth(m_large.widthWith(r), *day, i);
        addLarge(r);
        return;
    }
    m_low = sessionRows() == 0 ? r.low : std::min(m_low, r.low);
    m_high = sessionRows() == 0 ? r.high : std::max(m_high, r.high);
    m_job.checkWidth(static_cast<int64_t>(m_high) - m_low + 1, *day, i);
    roomFor(1);
    m_batch->rows.construct(m_batch->rowCount++, r);
    if (static_cast<int64_t>(sessionRows()) > m_job.options.maxGpuSessionRows)
        moveToCpu();
}

// What addRow() does for each row of the run (found fitting by BlockRuns), the rows' copy left to the pool.
void BatchedRun::addRun(const RowRun& run)
{
    if (sessionOpen() && run.day != m_currentDay) {
        closeSession();
        if (m_batch->rowCount >= m_job.options.gpuBatchRows)
            dispatch();
    }
    m_currentDay = run.day;
    const size_t count = run.end - run.begin;
    if (m_large.empty() && static_cast<int64_t>(sessionRows() + count) > m_job.options.maxGpuSessionRows)
        moveToCpu();
    if (!m_large.empty()) {
        for (size_t i = run.begin; i < run.end; ++i)
            addLarge(m_job.block.rows[i]);
        return;
    }
    m_low = sessionRows() == 0 ? run.low : std::min(m_low, run.low);
    m_high = sessionRows() == 0 ? run.high : std::max(m_high, run.high);
    roomFor(count);
    m_copies.push_back({m_job.block.rows + run.begin, m_batch->rowCount, count});
    m_batch->rowCount += count;
}

// Room in the batch for `rows` more rows. Its storage is not zeroed: each row's first write (a copy on the pool)
// is its first touch. Grows rarely (a session over 4 M rows), copying on this thread.
void BatchedRun::roomFor(size_t rows)
{
    auto& batch = *m_batch;
    const size_t need = batch.rowCount + rows;
    if (need <= batch.rows.capacity())
        return;
    copyRows(); // into the storage they were meant for, before it is copied
    UnzeroedArray<MarketRecord> grown;
    grown.ensure(std::max({need, 2 * batch.rows.capacity(), 2 * m_job.options.gpuBatchRows}));
    preferHugePages(grown.data(), grown.capacity() * sizeof(MarketRecord));
    std::uninitialized_copy(batch.rows.data(), batch.rows.data() + batch.rowCount, grown.data());
    batch.rows = std::move(grown);
}

void BatchedRun::copyRows()
{
    if (m_copies.empty())
        return;
    MarketRecord* to = m_batch->rows.data();
    m_job.pool->run(m_copies.size(), [&](size_t i) {
        const Copy& c = m_copies[i];
        std::uninitialized_copy(c.from, c.from + c.count, to + c.to);
    });
    m_copies.clear();
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
    if (m_job.options.developing) {
        m_largeDeveloping.push_back(m_large.developing(r));
        if (m_largeDeveloping.size() >= kDevelopingPiece && m_job.options.developingSink) {
            collect(); // the sessions before this one are written first
            m_job.passOn(m_currentDay, m_largeDeveloping);
        }
    }
}

// Sends the gathered batch to `compute` (after collecting the one in flight) and starts a new one.
void BatchedRun::dispatch()
{
    if (m_batch->profile.sessions.empty())
        return;
    copyRows();
    collect();
    // The task gets copies of what it reads (the compute function and the pool outlive it: see ~BatchedRun).
    auto profileBatch = [compute = &m_compute, pool = m_job.pool, options = m_job.options.profile,
                         minElements = m_job.options.minRowsPerThread,
                         developing = m_job.options.developing](std::shared_ptr<Batch> b) {
        auto& profile = b->profile;
        const MarketRecord* rows = b->rows.data();
        profile.fillSessions(rows, options.distribution, *pool, minElements);
        BatchOutput out;
        out.sessions = (*compute)(profile, options);
        if (developing)
            for (const auto& s : profile.sessions)
                out.developing.push_back(developingValues(rows + s.elemBegin, static_cast<size_t>(s.bars), options));
        out.batch = std::move(b);
        return out;
    };
    m_inFlight = std::async(std::launch::async, profileBatch, std::move(m_batch));
    m_batch = m_spare ? std::move(m_spare) : std::make_shared<Batch>();
    m_batch->profile.clear();
    m_batch->rowCount = 0;
    m_sessionBegin = 0;
}

// The session in progress outgrew the GPU path: its rows so far into the CPU accumulator, after the sessions before
// it are sent (with developing values their pieces are written in order).
void BatchedRun::moveToCpu()
{
    copyRows();
    const MarketRecord* rows = m_batch->rows.data();
    std::vector<MarketRecord> session(rows + m_sessionBegin, rows + m_batch->rowCount);
    m_batch->rowCount = m_sessionBegin;
    dispatch();
    for (const auto& r : session)
        addLarge(r);
}

// The session in progress: its CPU result into the result, or its rows into the batch.
void BatchedRun::closeSession()
{
    if (!m_large.empty()) {
        collect();
        m_job.result.sessions.push_back(m_large.finish());
        if (m_job.options.developing)
            m_job.keepDeveloping(m_job.result.sessions.back(), std::move(m_largeDeveloping));
        m_largeDeveloping = {};
        return;
    }
    if (sessionRows() == 0)
        return;
    SessionSlice s;
    s.day = m_currentDay;
    s.lowTick = m_low;
    s.width = static_cast<int32_t>(static_cast<int64_t>(m_high) - m_low + 1);
    s.elemBegin = static_cast<int64_t>(m_sessionBegin);
    s.elemEnd = static_cast<int64_t>(m_batch->rowCount);
    m_batch->profile.sessions.push_back(s); // the rest of it when the batch is filled (fillSessions)
    m_sessionBegin = m_batch->rowCount;
}

} // namespace stackscope::vpoc
