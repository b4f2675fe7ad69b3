// The VPOC job as its CPU and GPU paths share it: the reader, the session clock, progress, cancel and errors.
#pragma once

#include "core/vpoc/market_source.h"
#include "core/vpoc/sessions.h"
#include "core/vpoc/vpoc_engine.h"
#include "core/util/cancel_token.h"
#include "core/util/task_runner.h"

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
    TaskRunner* runner; // the run's threads: the reader parses on them, the profiles run on them
    SessionClock sessions;
    const VpocProgressCallback& progress;
    CancelToken cancel;
    std::chrono::steady_clock::time_point lastReport = std::chrono::steady_clock::now();
    BorrowedRows block {}; // the rows in hand: lent by the reader, or in the two vectors below
    std::vector<MarketRecord> rows {};
    std::vector<int64_t> lines {};
    int64_t profileLevels = 0;   // levels of the profiles kept so far (keepProfiles)
    int64_t profileSessions = 0; // and their sessions
    int64_t developingRows = 0;  // rows given developing values so far
    int64_t developingLevels = 0; // levels their values read

    // A session of `width` levels is about to be finished: with keepProfiles its profile is kept, within
    // kMaxProfileLevelsTotal for the whole run. Throws std::invalid_argument (before the profile is copied).
    void keepProfileLevels(int64_t width, int32_t day)
    {
        if (!options.profile.keepProfiles)
            return;
        profileLevels += width;
        ++profileSessions;
        if (profileLevels <= kMaxProfileLevelsTotal)
            return;
        throw std::invalid_argument(fmt::format(
            "--profiles: the profiles up to the session of {} ({} sessions) hold {} price levels, more than the {} "
            "one run returns (about 24 B each in memory and 11 B in the JSON); give a coarser --tick, a file of "
            "fewer sessions, or leave out --profiles (the POC and value area need no profiles)",
            formatDate(day), profileSessions, profileLevels, kMaxProfileLevelsTotal));
    }
    // Row `row` of the block gets developing values from a session `width` levels wide so far: the run's work
    // stays within kDevelopingBaseLevels + kDevelopingLevelsPerRow a row. Throws the row's InputError past it.
    void countDeveloping(int64_t width, int32_t day, size_t row)
    {
        ++developingRows;
        developingLevels += width;
        if (developingLevels <= kDevelopingBaseLevels + kDevelopingLevelsPerRow * developingRows)
            return;
        reader.failAt(block.positions[row],
                      fmt::format("--developing: the session of {} is {} price levels wide at this row, and the POC "
                                  "and value area after each row read every level: {} rows have read {} levels, "
                                  "past the budget of {} + {} a row (seconds, not hours); give a coarser --tick, "
                                  "remove or fix the wide bar that opened the session (its low and high), or leave "
                                  "out --developing (the sessions' POC and value area need none of this)",
                                  formatDate(day), width, developingRows, developingLevels, kDevelopingBaseLevels,
                                  kDevelopingLevelsPerRow));
    }

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
        if (cancel.isCancelled())
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
