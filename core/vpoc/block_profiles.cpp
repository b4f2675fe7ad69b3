// Profiling a block of rows on several threads: pieces as tasks of the job's pool, runs of one session day, merged in order.
#include "core/vpoc/block_profiles.h"

#include <algorithm>

namespace stackscope::vpoc {

BlockProfiler::BlockProfiler(const SessionClock& clock, const ProfileOptions& options, WorkPool& pool, size_t minRows)
    : BlockPieces(clock, pool, minRows)
    , m_options(options)
{
}

void BlockProfiler::profilePiece(Piece& piece, const MarketRecord* rows, size_t count) const
{
    for (size_t i = 0; i < count; ++i) {
        const auto& r = rows[i];
        const auto day = piece.clock.sessionDay(r.timeUs);
        if (!day) {
            ++piece.outside;
            continue;
        }
        if (piece.runs.empty() || piece.runs.back().day() != *day)
            piece.runs.emplace_back(m_options);
        auto& run = piece.runs.back();
        if (run.widthWith(r) > kMaxSessionLevels) {
            piece.tooWide = true; // the row-by-row path names the row; no memory is spent on the range
            return;
        }
        run.add(*day, r);
    }
}

bool BlockProfiler::profile(const MarketRecord* rows, size_t count)
{
    return forPieces(count,
                     [&](Piece& piece, size_t from, size_t to) { profilePiece(piece, rows + from, to - from); });
}

bool BlockProfiler::fitsAfter(const SessionAccumulator& session) const
{
    return runsFit(session.empty() ? SessionRange() : SessionRange(session.day(), session.low(), session.high()),
                   [](SessionRange& range, const SessionAccumulator& run) {
                       return range.join(run.day(), run.low(), run.high());
                   });
}

} // namespace stackscope::vpoc
