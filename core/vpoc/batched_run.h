// The GPU path's host side: sessions gathered into batches that a BatchCompute (the GPU module) profiles.
#pragma once

#include "core/vpoc/block_runs.h"
#include "core/vpoc/session_accumulator.h"
#include "core/vpoc/unzeroed_array.h"
#include "core/vpoc/vpoc_job.h"

#include <future>
#include <memory>
#include <vector>

namespace stackscope::vpoc {

// Sessions gathered into batches of at least options.gpuBatchRows elements, profiled by `compute` on another thread
// while the next is read. A session that outgrows options.maxGpuSessionRows moves to a SessionAccumulator on the CPU
// (the batches before it are sent first and collected before its result, so the order of sessions is kept).
//
// A batch holds one element a row (the row's target tick, span and volume: what the GPU reads) in file order; the
// session in progress is at its end. Without developing values the job's pool makes a block's elements in place at
// the end of the batch and cuts them into runs of one session day (BlockRuns); the caller walks the runs, which moves
// elements only where rows outside every session left a gap. A batch is sent at the end of a block; the session in
// progress then starts the next one. With developing values the rows go one by one and are kept in the batch too.
class BatchedRun {
public:
    BatchedRun(Job& job, const BatchCompute& compute);
    // Waits for the batch in flight before unwinding: it reads the compute function and the options.
    ~BatchedRun();
    BatchedRun(const BatchedRun&) = delete;
    BatchedRun& operator=(const BatchedRun&) = delete;

    void run(unsigned threads);

private:
    struct Batch {
        std::vector<SessionSlice> sessions; // closed, their elements from 0 on
        UnzeroedArray<int32_t> tick;
        UnzeroedArray<uint32_t> span; // valid for every element while `spans` (Distribution::Uniform only)
        UnzeroedArray<uint32_t> volume;
        UnzeroedArray<MarketRecord> rows; // with developing values only
        size_t rowCount = 0;              // elements written: the closed sessions' and the open one's
        bool spans = false;               // some element covers more than one level: every span is written

        BatchView view() const
        {
            return {sessions.data(), sessions.size(), tick.data(), spans ? span.data() : nullptr, volume.data()};
        }
    };
    struct BatchOutput {
        std::vector<SessionResult> sessions;
        std::vector<std::vector<DevelopingPoint>> developing;
        std::shared_ptr<Batch> batch; // handed back: its storage (pages already touched) serves a later batch
    };

    void runRows();
    void runBlocks(unsigned threads);
    void addRow(size_t i);
    void addRun(const RowRun& run);
    void place(const Batch& from, size_t at, size_t count, bool spans);
    void settleSpans(bool written, size_t count);
    void joinOpenSession(int32_t low, int32_t high, int64_t firstUs, int64_t lastUs);
    void writeRow(const MarketRecord& r);
    void collect();
    void addLarge(const MarketRecord& r);
    void dispatch();
    void moveToCpu();
    void closeSession();
    SessionSlice openSlice() const;
    bool sessionOpen() const { return sessionRows() > 0 || !m_large.empty(); }
    size_t sessionRows() const { return m_batch->rowCount - m_sessionBegin; }
    SessionRange sessionRange() const;
    void roomFor(size_t rows);
    ElementSink sink();

    Job& m_job;
    const BatchCompute& m_compute;
    const bool m_spread;     // elements have spans (Distribution::Uniform)
    const bool m_developing; // rows kept for developing values
    std::future<BatchOutput> m_inFlight;
    std::shared_ptr<Batch> m_batch = std::make_shared<Batch>();
    std::shared_ptr<Batch> m_spare;  // the last batch collected
    std::shared_ptr<Batch> m_walked; // while runs are walked: the batch their elements were made in
    size_t m_walkBase = 0;           // and where in it the block's elements begin
    size_t m_sessionBegin = 0;       // the first element of the session in progress in m_batch
    int32_t m_currentDay = 0;
    int32_t m_low = 0, m_high = 0;       // of the session in progress in m_batch
    int64_t m_firstUs = 0, m_lastUs = 0; // of the session in progress in m_batch
    SessionAccumulator m_large;          // the session in progress, when it outgrew the GPU path
    std::vector<DevelopingPoint> m_largeDeveloping;
};

} // namespace stackscope::vpoc
