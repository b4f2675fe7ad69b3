// The VPOC job as its CPU and GPU paths share it: the reader, the session clock, progress, cancel and errors.
#pragma once

#include "core/vpoc/market_source.h"
#include "core/vpoc/sessions.h"
#include "core/vpoc/vpoc_engine.h"
#include "core/vpoc/work_pool.h"

#include <fmt/format.h>

#include <chrono>

namespace stackscope::vpoc {

inline constexpr size_t kReadRows = 1 << 16;
// Both paths on several threads take blocks of this many rows a thread (the reader lends them, no copy): the
// smallest block that gives each thread kTasksPerThread pieces of VpocOptions::minRowsPerThread's default (8 x 16 Ki).
// A block also ends with the reader's window (about 415 K trades in 16 MiB), which bounds it from 4 threads up.
inline constexpr size_t kBlockRowsPerThread = 1 << 17;

// What both paths share: the reader, the session clock, progress and cancel. Internal to the engine (vpoc_engine.cpp
// and batched_run.cpp); callers use runVpoc().
struct Job {
    const VpocOptions& options;
    VpocResult& result;
    MarketSource& reader;
    WorkPool* pool; // the threads the reader parses on, shared with the profiles
    SessionClock sessions;
    const VpocProgressCallback& progress;
    const std::atomic<bool>* cancel;
    std::chrono::steady_clock::time_point lastReport = std::chrono::steady_clock::now();
    BorrowedRows block {}; // the rows in hand: lent by the reader, or in the two vectors below
    std::vector<MarketRecord> rows {};
    std::vector<int64_t> lines {};

    void report(bool force, VpocPhase phase = VpocPhase::Reading)
    {
        if (!progress)
            return;
        const auto now = std::chrono::steady_clock::now();
        if (!force && now - lastReport < std::chrono::milliseconds(100))
            return;
        lastReport = now;
        progress(VpocProgress {reader.bytesParsed(), reader.totalBytes(), reader.bytesConsumed(),
                               static_cast<int64_t>(result.sessions.size()), phase});
    }
    // The next block of rows into `block`; false at the end. Throws VpocCancelled.
    bool next(size_t maxRows = kReadRows)
    {
        if (cancel && cancel->load(std::memory_order_relaxed))
            throw VpocCancelled();
        report(false);
        if (reader.borrow(maxRows, block, rows, lines))
            return true;
        report(true, VpocPhase::Finishing);
        return false;
    }
    // A finished session's developing values (or its last piece, after passOn): to the sink when there is one, else
    // kept in the result.
    void keepDeveloping(const SessionResult& session, std::vector<DevelopingPoint>&& points)
    {
        if (!options.developingSink) {
            result.developing.push_back(std::move(points));
            return;
        }
        if (!points.empty())
            options.developingSink(session.day, points.data(), points.size());
        points.clear();
    }
    // The values of the session in progress, `day`: handed to the sink a piece at a time when there is one.
    void passOn(int32_t day, std::vector<DevelopingPoint>& points)
    {
        if (!options.developingSink || points.size() < kDevelopingPiece)
            return;
        options.developingSink(day, points.data(), points.size());
        points.clear();
    }
    void checkWidth(int64_t width, int32_t day, size_t row) const
    {
        if (width <= kMaxSessionLevels)
            return;
        const auto& r = block.rows[row];
        const auto& tick = options.read.tick;
        reader.failAt(block.positions[row],
                      fmt::format("this row ({:.{}f} .. {:.{}f}) makes the session of {} span {} price levels, more "
                                  "than the {} one session may span; check --tick (ES: 0.25) or the row's prices",
                                  tick.price(r.low), tick.decimals, tick.price(r.high), tick.decimals, formatDate(day),
                                  width, kMaxSessionLevels));
    }
};

} // namespace stackscope::vpoc
