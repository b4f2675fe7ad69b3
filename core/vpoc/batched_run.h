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

// Sessions gathered into batches (about 4 M elements) profiled by `compute` while the next is read. A session that
// outgrows options.maxGpuSessionRows moves to a SessionAccumulator on the CPU (the batches before it are sent first
// and collected before its result, so the order of sessions is kept).
//
// A batch holds its sessions' rows in order; the session in progress is at its end. Without developing values
// a block of rows is cut into runs of one session day on the job's pool, the caller walks the
// runs, and the pool copies their rows into the batch; the rows become the batch's elements
// (ProfileBatch::fillSessions) on the pool in the batch's own task, while the caller reads on.
class BatchedRun {
public:
    BatchedRun(Job& job, const BatchCompute& compute);
    // Waits for the batch in flight before unwinding: it reads the compute function, the pool and the options.
    ~BatchedRun();
    BatchedRun(const BatchedRun&) = delete;
    BatchedRun& operator=(const BatchedRun&) = delete;

    void run(unsigned threads);

private:
    struct Batch {
        ProfileBatch profile; // sessions added as they close; elements filled in the batch's task
        UnzeroedArray<MarketRecord> rows;
        size_t rowCount = 0;
    };
    struct BatchOutput {
        std::vector<SessionResult> sessions;
        std::vector<std::vector<DevelopingPoint>> developing;
        std::shared_ptr<Batch> batch; // handed back: its storage (pages already touched) serves a later batch
    };
    // A run's rows, copied into the batch by the pool before the reader's next block (or the batch's dispatch).
    struct Copy {
        const MarketRecord* from;
        size_t to;
        size_t count;
    };

    void runRows();
    void runBlocks(unsigned threads);
    void addRow(size_t i);
    void addRun(const RowRun& run);
    void collect();
    void addLarge(const MarketRecord& r);
    void dispatch();
    void moveToCpu();
    void closeSession();
    bool sessionOpen() const { return sessionRows() > 0 || !m_large.empty(); }
    size_t sessionRows() const { return m_batch->rowCount - m_sessionBegin; }
    SessionRange sessionRange() const;
    void roomFor(size_t rows);
    void copyRows();

    Job& m_job;
    const BatchCompute& m_compute;
    std::future<BatchOutput> m_inFlight;
    std::shared_ptr<Batch> m_batch = std::make_shared<Batch>();
    std::shared_ptr<Batch> m_spare; // the last batch collected
    std::vector<Copy> m_copies;
    size_t m_sessionBegin = 0; // the first row of the session in progress in m_batch
    int32_t m_currentDay = 0;
    int32_t m_low = 0, m_high = 0; // of the session in progress in m_batch
    SessionAccumulator m_large;    // the session in progress, when it outgrew the GPU path
    std::vector<DevelopingPoint> m_largeDeveloping;
};

} // namespace stackscope::vpoc
