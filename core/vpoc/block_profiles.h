// A block of rows profiled on several threads: contiguous pieces, each cut into runs of one session day.
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

// Each piece of a block is a task of the job's TaskRunner, profiled with its own SessionClock (its cache is not
// thread-safe): its rows' session days, the rows outside every session, and per run of consecutive rows of one
// session day a SessionAccumulator. Merged in order into the session in progress they give the profiles of the
// row-by-row path bit for bit (integer volumes summed in another order; the same first and last times, bars,
// low and high).
class BlockProfiler : public BlockPieces<SessionAccumulator> {
public:
    // A block is cut into at most pool.threads() x kTasksPerThread pieces of at least `minRows` rows.
    BlockProfiler(const SessionClock& clock, const ProfileOptions& options, TaskRunner& pool, size_t minRows);

    // Profiles rows[0, count). False when a run would span more than kMaxSessionLevels: the caller then
    // takes the block row by row, which reports the row that widens the session.
    bool profile(const MarketRecord* rows, size_t count);
    // Whether merging the runs into `session` (the session in progress) keeps every session within
    // kMaxSessionLevels.
    bool fitsAfter(const SessionAccumulator& session) const;
    // The runs into `session` in file order; `close(session)` is called when a run starts another session day
    // while `session` holds rows (it must finish `session`, leaving it empty).
    template <typename Close>
    void mergeInto(SessionAccumulator& session, Close&& close)
    {
        for (auto& piece : m_pieces)
            for (auto& run : piece.runs) {
                if (!session.empty() && run.day() != session.day())
                    close(session);
                session.absorb(run);
            }
    }

private:
    void profilePiece(Piece& piece, const MarketRecord* rows, size_t count) const;

    ProfileOptions m_options;
};

} // namespace stackscope::vpoc
