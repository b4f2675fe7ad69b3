// Profiling a block of rows on several threads: a piece a thread, runs of one session day, merged in order.
#include "core/vpoc/block_profiles.h"

#include <algorithm>

namespace stackscope::vpoc {

BlockProfiler::BlockProfiler(const SessionClock& clock, const ProfileOptions& options, WorkPool& pool, size_t minRows)
    : m_options(options)
    , m_pool(pool)
    , m_minRows(std::max<size_t>(1, minRows))
    , m_pieces(pool.threads() * kTasksPerThread, Piece {clock, {}, 0, false})
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
    const size_t pieces = pieceCount(count, m_minRows, m_pieces.size());
    for (auto& piece : m_pieces) {
        piece.runs.clear();
        piece.outside = 0;
        piece.tooWide = false;
    }
    m_pool.run(pieces, [&](size_t i) {
        const size_t from = pieceBegin(count, pieces, i), to = pieceBegin(count, pieces, i + 1);
        profilePiece(m_pieces[i], rows + from, to - from);
    });
    return std::none_of(m_pieces.begin(), m_pieces.end(), [](const Piece& p) { return p.tooWide; });
}

bool BlockProfiler::fitsAfter(const SessionAccumulator& session) const
{
    SessionRange range = session.empty() ? SessionRange() : SessionRange(session.day(), session.low(), session.high());
    for (const auto& piece : m_pieces)
        for (const auto& run : piece.runs)
            if (!range.join(run.day(), run.low(), run.high()))
                return false;
    return true;
}

int64_t BlockProfiler::outside() const
{
    int64_t n = 0;
    for (const auto& piece : m_pieces)
        n += piece.outside;
    return n;
}

} // namespace stackscope::vpoc
