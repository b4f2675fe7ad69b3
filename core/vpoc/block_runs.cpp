// Cutting a block of rows into runs of one session day on several threads: a piece a task, joined in order.
#include "core/vpoc/block_runs.h"

#include <algorithm>

namespace stackscope::vpoc {

BlockRuns::BlockRuns(const SessionClock& clock, WorkPool& pool, size_t minRows)
    : BlockPieces(clock, pool, minRows)
{
}

void BlockRuns::findInPiece(Piece& piece, const MarketRecord* rows, size_t from, size_t to)
{
    for (size_t i = from; i < to; ++i) {
        const auto& r = rows[i];
        const auto day = piece.clock.sessionDay(r.timeUs);
        if (!day) {
            ++piece.outside;
            continue;
        }
        if (piece.runs.empty() || piece.runs.back().day != *day || piece.runs.back().end != i) {
            piece.runs.push_back({*day, r.low, r.high, i, i + 1});
        } else {
            auto& run = piece.runs.back();
            run.low = std::min(run.low, r.low);
            run.high = std::max(run.high, r.high);
            run.end = i + 1;
        }
        const auto& run = piece.runs.back();
        if (static_cast<int64_t>(run.high) - run.low + 1 > kMaxSessionLevels) {
            piece.tooWide = true; // the row-by-row path names the row
            return;
        }
    }
}

bool BlockRuns::find(const MarketRecord* rows, size_t count)
{
    return forPieces(count, [rows](Piece& piece, size_t from, size_t to) { findInPiece(piece, rows, from, to); });
}

bool BlockRuns::fitsAfter(SessionRange session) const
{
    bool fits = true;
    forEach([&](const RowRun& run) { fits = fits && session.join(run.day, run.low, run.high); });
    return fits;
}

} // namespace stackscope::vpoc
