// The VPOC job: reads a market data file in a stream, cuts it into sessions and profiles them on the CPU or GPU.
#pragma once

#include "core/util/cancel_token.h"
#include "core/vpoc/market_data.h"
#include "core/vpoc/sessions.h"
#include "core/vpoc/volume_profile.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace stackscope::vpoc {

enum class Backend { Auto, Cpu, Gpu };

// The job's options, typed; the text a person gives becomes these in vpoc_options.h, one parse function a field.
struct VpocOptions {
    std::string input;
    ReadOptions read;
    SessionRule session; // the window (--session) in its zone (--session-tz), parsed once (vpoc_options.h)
    ProfileOptions profile;
    Backend backend = Backend::Auto;
    uint64_t vramBudgetMiB = 1024;
    bool developing = false;
    // With `developing`: when set, the developing values go here in order, on the job's thread, as they are made:
    // a session's values in consecutive pieces of at most kDevelopingPiece points (a GPU batch's session whole, at
    // most maxGpuSessionRows), and VpocResult::developing stays empty, so memory holds one piece, not a session
    // (vpoc --developing streams them to its file this way).
    std::function<void(int32_t day, const DevelopingPoint* points, std::size_t count)> developingSink;
    unsigned threads = 0; // 0 = every usable thread (usableThreads())
    // The most threads a run uses: 0 = usableThreads(), the machine's hardware threads within the CPU affinity mask.
    // More would only queue for the same cores and cost memory (the reader's window is 8 MiB a thread, a block
    // 2^17 rows a thread), and tens of thousands abort thread creation; a larger `threads` is capped and the result
    // says so (VpocResult::threadsNote). Tests raise it to run 7 threads on a 2-core machine.
    unsigned threadCap = 0;
    // The CPU path on several threads profiles blocks of rows in pieces (tasks of the job's threads) of at least this
    // many rows: a task's hand-off (a lock, a wake-up, a SessionClock's first look-ups) costs a few microseconds, 16 Ki
    // rows about 0.15 ms of profiling (~10 ns a row), so the hand-off stays near 2 %. Tests make it 1.
    size_t minRowsPerThread = size_t(1) << 14;
    // The GPU backend gathers a session's rows into a batch as elements (8 B a trade, 12 B a bar; 32 B rows with
    // developing values); a session with more rows than this is profiled on the CPU instead (SessionAccumulator:
    // memory is its price range, at most 8 MiB), in its place among the others, with the same results. 2^22 rows =
    // 48 MiB of bars' elements held for the session.
    int64_t maxGpuSessionRows = int64_t(1) << 22;
    // The GPU backend profiles a batch of whole sessions while the next is read, sent at the end of the first block of
    // rows after its closed sessions hold at least this many rows. The last batch is uploaded and profiled after
    // reading ends, so its size is the run's tail: 1 Mi rows makes it a quarter of 4 Mi's, while a batch's fixed cost
    // (a task, the module's begin and finish: well under a millisecond) stays small beside the ~20 ms its rows take to
    // read at 16 threads. A/B on one H100 host VM, 16 threads, three rounds (rows then copied and converted on the
    // host): 4 Mi 0.193/0.181/0.175 s, 1 Mi 0.182/0.161/0.162 s; peak RSS 696 -> 432 MB. With elements made in
    // place, a traced run's tail was 0.9-2.3 ms (tests/bench/RESULTS.md). Tests make it small, for many batches.
    size_t gpuBatchRows = size_t(1) << 20;
};

// The most profile levels one run returns across all its sessions with ProfileOptions::keepProfiles (vpoc --profiles,
// the VPOC page). Model: a level is 8 B in the result and 16 B as a value of the JSON document that --json builds,
// and 3 to 30 B of JSON text (about 11 B as printed with its indentation); 2^23 levels are then about 200 MiB in
// memory and about 90 MB of JSON. kMaxSessionLevels bounds one session; this bounds their sum, checked as each
// session closes, before its profile is copied: a run over it stops with std::invalid_argument naming the fix.
inline constexpr int64_t kMaxProfileLevelsTotal = int64_t(1) << 23;

// The developing values' work budget (VpocOptions::developing): each row's POC and value area read the session's
// levels so far (a scan for the POC and the total, then the walk out from it), so a row costs its session's width in
// level reads, about 1.2 ns each (62 s for 50,000 rows after one 2^20-level bar on the 2-core VM, tests/bench/
// RESULTS.md). A run may read kDevelopingBaseLevels plus kDevelopingLevelsPerRow for each row with developing values
// (2^32 is about 5 s there; 4096 levels a row is 1,000 points of ES at 0.25, wider than any real session), so the
// time stays linear in the rows. Past it the run stops with an InputError at the row, naming the fix.
inline constexpr int64_t kDevelopingBaseLevels = int64_t(1) << 32;
inline constexpr int64_t kDevelopingLevelsPerRow = 4096;

// The most developing values the CPU path holds before it hands them to VpocOptions::developingSink (1.5 MiB).
inline constexpr std::size_t kDevelopingPiece = std::size_t(1) << 16;

struct VpocResult {
    std::string backend;     // "cpu", "cuda" or "hip"
    std::string backendNote; // why auto fell back to the CPU, or the GPU's name and module
    VpocOptions options;
    DataFormat format = DataFormat::Bars;
    std::vector<std::string> extraColumns;
    std::vector<SessionResult> sessions;
    std::vector<std::vector<DevelopingPoint>> developing; // per session when asked for
    int64_t rows = 0;
    int64_t outsideSessions = 0; // rows in the daily halt or outside a custom window
    unsigned threads = 1;        // the threads the run used
    std::string threadsNote;     // set when `threads` was capped (VpocOptions::threadCap): what was asked and why
    SkipReport skipped;
};

// Reading: rows are parsed and profiled as they stream by. Finishing: every byte was read; what is left is
// the work after parsing (the last GPU batch's profiles, developing values), whose length bytes cannot tell.
enum class VpocPhase { Reading, Finishing };

struct VpocProgress {
    uint64_t bytesDone = 0; // bytes whose rows were parsed and handed to the profiles (not read ahead)
    uint64_t bytesTotal = 0;
    uint64_t bytesRead = 0; // bytes read and parsed by the reader, up to a window (8 MiB a thread, at most 32) ahead
    int64_t sessionsDone = 0;
    VpocPhase phase = VpocPhase::Reading;
};
// Called from the job's thread at most every 100 ms while reading, once when reading ends (Finishing),
// and once at the end.
using VpocProgressCallback = std::function<void(const VpocProgress&)>;

class VpocCancelled : public std::runtime_error {
public:
    VpocCancelled()
        : std::runtime_error("cancelled")
    {
    }
};

// A batch of sessions profiled: the GPU module's GpuProfiler::compute, or computeBatchCpu in tests.
using BatchCompute = std::function<std::vector<SessionResult>(const BatchView&, const ProfileOptions&)>;

// Runs the whole job. Throws InputError (file:line:column), std::invalid_argument (a bad option),
// std::runtime_error (I/O, GPU), VpocCancelled when `cancel` was cancelled (checked every block of rows).
std::shared_ptr<const VpocResult> runVpoc(const VpocOptions& options, const VpocProgressCallback& progress = {},
                                          const CancelToken& cancel = {});

// The GPU backend's path (sessions gathered into batches) with another batch computation: tests give it
// computeBatchCpu, so that the path runs without a GPU. options.backend is not read; the result's backend is "cpu".
// Throws what runVpoc() throws, and std::invalid_argument when `compute` is empty.
std::shared_ptr<const VpocResult> runVpocBatched(const VpocOptions& options, const BatchCompute& compute,
                                                 const VpocProgressCallback& progress = {},
                                                 const CancelToken& cancel = {});

} // namespace stackscope::vpoc
