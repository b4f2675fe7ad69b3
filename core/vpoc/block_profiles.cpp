// Profiling a block of rows on several threads: pieces as tasks of the job's pool, runs of one session day, merged in order.
#include "core/vpoc/block_profiles.h"

#include <algorithm>

namespace stackscope::vpoc {

BlockProfiler::BlockProfiler(const SessionClock& clock, const ProfileOptions& options, TaskRunner& pool, size_t minRows)
    : BlockPieces(clock, pool, minRows)
    , m_options(options)
{
}

namespace {
// The most price levels the runs of one piece may span together: 2 MiB of levels (grown up to 3x that), so a block's
// pieces (at most threads x kTasksPerThread) hold a bounded amount however many sessions its rows open. A piece of
// real data spans a session or two of a few thousand levels; one row a session, each 2^20 levels wide, made 60 such
// sessions 509 MB on 2 threads before. Past it the caller takes the block row by row (one session's levels at once).
constexpr int64_t kPieceLevels = kMaxSessionLevels / 4;
} // namespace

void BlockProfiler::profilePiece(Piece& piece, const MarketRecord* rows, size_t count) const
{
    int64_t closedLevels = 0; // of the piece's runs before the last
    for (size_t i = 0; i < count; ++i) {
        const auto& r = rows[i];
        const auto day = piece.clock.sessionDay(r.timeUs);
        if (!day) {
            ++piece.outside;
            continue;
        }
        if (piece.runs.empty() || piece.runs.back().day() != *day) {
            if (!piece.runs.empty())
                closedLevels += static_cast<int64_t>(piece.runs.back().high()) - piece.runs.back().low() + 1;
            piece.runs.emplace_back(m_options);
        }
        auto& run = piece.runs.back();
        const int64_t width = run.widthWith(r);
        if (width > kMaxSessionLevels || closedLevels + width > kPieceLevels) {
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
