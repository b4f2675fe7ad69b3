// A block of rows made elements on several threads and cut into runs of one session day, for the GPU path's batches.
#pragma once

#include "core/vpoc/block_pieces.h"
#include "core/vpoc/market_data.h"
#include "core/vpoc/session_accumulator.h"
#include "core/vpoc/sessions.h"
#include "core/util/task_runner.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace stackscope::vpoc {

// Where a block's elements go: one for each row in a session, its target tick (targetTick()), span and volume, from
// these pointers on, with room for one a row of the block.
struct ElementSink {
    int32_t* tick = nullptr;
    uint32_t* span = nullptr; // null unless bars are spread over their range (Distribution::Uniform); see RowRun::spans
    uint32_t* volume = nullptr;
};

// Elements [begin, end) of the sink, made from consecutive rows of session `day` (rows outside every session in
// between leave no element) spanning the ticks [low, high], the first and last at firstUs and lastUs. `spans`: their
// spans are written; else every one of its bars is a point and its spans are not (trades write no spans).
struct RowRun {
    int32_t day = 0;
    int32_t low = 0;
    int32_t high = 0;
    int64_t firstUs = 0;
    int64_t lastUs = 0;
    size_t begin = 0;
    size_t end = 0;
    bool spans = false;
};

// What BlockProfiler is for the CPU path, with elements in place of profiles: each piece of a block is a task of the
// job's TaskRunner with its own SessionClock (its cache is not thread-safe), which finds the session day of its rows,
// writes their elements and finds the runs. A piece's elements start at its first row's index, so a piece with rows
// outside every session leaves a gap after its runs (RowRun::begin says where each run is). The caller then walks the
// runs in order (O(runs), not O(rows)).
class BlockRuns : public BlockPieces<RowRun> {
public:
    // A block is cut into at most pool.threads() x kTasksPerThread pieces of at least `minRows` rows.
    BlockRuns(const SessionClock& clock, TaskRunner& pool, size_t minRows);

    // Makes the elements of rows[0, count) into `sink` and finds their runs. False when a run would span more than
    // kMaxSessionLevels: the caller then takes the block row by row, which reports the row that widens the session.
    bool find(const MarketRecord* rows, size_t count, Distribution distribution, const ElementSink& sink);
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
};

} // namespace stackscope::vpoc
