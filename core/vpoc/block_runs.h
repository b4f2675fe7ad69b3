// A block of rows cut on several threads into runs: consecutive rows of one session day, for the GPU path's batches.
#pragma once

#include "core/vpoc/block_pieces.h"
#include "core/vpoc/market_data.h"
#include "core/vpoc/session_accumulator.h"
#include "core/vpoc/sessions.h"
#include "core/vpoc/work_pool.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace stackscope::vpoc {

// Rows [begin, end) of a block, all of session `day`, spanning the ticks [low, high]. A row outside every session
// ends a run, so that a run's rows are contiguous (copied at once) even where the same session goes on after it.
struct RowRun {
    int32_t day = 0;
    int32_t low = 0;
    int32_t high = 0;
    size_t begin = 0;
    size_t end = 0;
};

// What BlockProfiler is for the CPU path, without profiles: each piece of a block is a task of the job's WorkPool
// with its own SessionClock (its cache is not thread-safe), which finds the session day of its rows, the rows
// outside every session and the runs; the caller then walks the runs in order (O(runs), not O(rows)).
class BlockRuns : public BlockPieces<RowRun> {
public:
    // A block is cut into at most pool.threads() x kTasksPerThread pieces of at least `minRows` rows.
    BlockRuns(const SessionClock& clock, WorkPool& pool, size_t minRows);

    // Finds the runs of rows[0, count). False when a run would span more than kMaxSessionLevels: the caller then
    // takes the block row by row, which reports the row that widens the session.
    bool find(const MarketRecord* rows, size_t count);
    // Whether joining the runs to `session` (the session in progress) keeps every session within kMaxSessionLevels.
    bool fitsAfter(SessionRange session) const;
    // f(run) for every run, in file order.
    template <typename F>
    void forEach(F&& f) const
    {
        for (const auto& piece : m_pieces)
            for (const auto& run : piece.runs)
                f(run);
    }

private:
    static void findInPiece(Piece& piece, const MarketRecord* rows, size_t from, size_t to);
};

} // namespace stackscope::vpoc
