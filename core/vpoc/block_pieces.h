// A block of rows cut into pieces, one a task of the job's TaskRunner: what the CPU path's profiles (BlockProfiler) and
// the GPU path's runs (BlockRuns) share.
#pragma once

#include "core/vpoc/market_data.h"
#include "core/vpoc/session_accumulator.h"
#include "core/vpoc/sessions.h"
#include "core/util/task_runner.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace stackscope::vpoc {

// Each piece has its own SessionClock (its cache is not thread-safe), its runs of one session day (`Run`), the rows
// outside every session, and whether a run spans more than kMaxSessionLevels.
template <typename Run>
class BlockPieces {
public:
    // Rows of the block outside every session.
    int64_t outside() const
    {
        int64_t n = 0;
        for (const auto& piece : m_pieces)
            n += piece.outside;
        return n;
    }

protected:
    struct Piece {
        SessionClock clock;
        std::vector<Run> runs;
        int64_t outside = 0;
        bool tooWide = false;
    };

    // A block is cut into at most pool.threads() x kTasksPerThread pieces of at least `minRows` rows.
    BlockPieces(const SessionClock& clock, TaskRunner& pool, size_t minRows)
        : m_pool(pool)
        , m_minRows(std::max<size_t>(1, minRows))
        , m_pieces(pool.threads() * kTasksPerThread, Piece {clock, {}, 0, false})
    {
    }
    // Whether joining the runs in file order to `session` (the session in progress) keeps every session within
    // kMaxSessionLevels; join(range, run) joins one run to `range` and says whether it still fits.
    template <typename Join>
    bool runsFit(SessionRange session, Join&& join) const
    {
        for (const auto& piece : m_pieces)
            for (const auto& run : piece.runs)
                if (!join(session, run))
                    return false;
        return true;
    }
    // f(piece, from, to) for the pieces of rows [0, count) on the pool; false when a piece found a run too wide.
    template <typename F>
    bool forPieces(size_t count, F&& f)
    {
        const size_t pieces = pieceCount(count, m_minRows, m_pieces.size());
        for (auto& piece : m_pieces) {
            piece.runs.clear();
            piece.outside = 0;
            piece.tooWide = false;
        }
        m_pool.forEach(pieces, [&](size_t i) {
            f(m_pieces[i], pieceBegin(count, pieces, i), pieceBegin(count, pieces, i + 1));
        });
        return std::none_of(m_pieces.begin(), m_pieces.end(), [](const Piece& p) { return p.tooWide; });
    }

    TaskRunner& m_pool;
    size_t m_minRows;
    std::vector<Piece> m_pieces; // one a task; those a small block leaves unused hold no runs
};

} // namespace stackscope::vpoc
