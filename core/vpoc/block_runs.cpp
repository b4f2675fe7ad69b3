// Making a block of rows elements on several threads, cut into runs of one session day: a piece a task, joined in order.
#include "core/vpoc/block_runs.h"

#include <algorithm>

namespace stackscope::vpoc {

namespace {

// The rows [from, to) of `piece`: their elements into `sink` from index `from` on, their runs and the rows outside.
template <typename Piece>
void findInPiece(Piece& piece, const MarketRecord* rows, size_t from, size_t to, Distribution distribution,
                 const ElementSink& sink)
{
    size_t at = from;
    bool spans = false; // spans are written from the piece's first bar over more than one level on (zeros before it)
    for (size_t i = from; i < to; ++i) {
        const auto& r = rows[i];
        const auto day = piece.clock.sessionDay(r.timeUs);
        if (!day) {
            ++piece.outside;
            continue;
        }
        if (piece.runs.empty() || piece.runs.back().day != *day)
            piece.runs.push_back({*day, r.low, r.high, r.timeUs, r.timeUs, at, at, false});
        auto& run = piece.runs.back();
        run.low = std::min(run.low, r.low);
        run.high = std::max(run.high, r.high);
        run.lastUs = r.timeUs;
        run.end = at + 1;
        sink.tick[at] = targetTick(r, distribution);
        sink.volume[at] = r.volume;
        if (sink.span && (spans || r.high != r.low)) {
            if (!spans)
                std::fill(sink.span + from, sink.span + at, 0u);
            spans = true;
            sink.span[at] = static_cast<uint32_t>(r.high - r.low);
        }
        ++at;
        if (static_cast<int64_t>(run.high) - run.low + 1 > kMaxSessionLevels) {
            piece.tooWide = true; // the row-by-row path names the row
            return;
        }
    }
    for (auto& run : piece.runs)
        run.spans = spans;
}

} // namespace

BlockRuns::BlockRuns(const SessionClock& clock, TaskRunner& pool, size_t minRows)
    : BlockPieces(clock, pool, minRows)
{
}

bool BlockRuns::find(const MarketRecord* rows, size_t count, Distribution distribution, const ElementSink& sink)
{
    return forPieces(count, [&](Piece& piece, size_t from, size_t to) {
        findInPiece(piece, rows, from, to, distribution, sink);
    });
}

bool BlockRuns::fitsAfter(SessionRange session) const
{
    return runsFit(session, [](SessionRange& range, const RowRun& run) { return range.join(run.day, run.low, run.high); });
}

} // namespace stackscope::vpoc
