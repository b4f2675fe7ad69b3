// The VPOC pipeline: streaming reader -> sessions -> batches profiled on the CPU threads or the GPU module.
#include "core/vpoc/vpoc_engine.h"

#include "core/vpoc/block_profiles.h"
#include "core/vpoc/gpu_profiles.h"
#include "core/vpoc/market_source.h"
#include "core/vpoc/session_accumulator.h"
#include "core/vpoc/work_pool.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <future>

namespace stackscope::vpoc {

namespace {

constexpr size_t kReadRows = 1 << 16;
// The CPU path on several threads takes blocks of this many rows a thread (the reader lends them, no copy).
constexpr size_t kBlockRowsPerThread = 1 << 17;
// A batch is profiled while the next one is read: about 4 M elements keeps both busy and memory bounded.
constexpr size_t kBatchElements = 1 << 22;

struct Batch {
    ProfileBatch profile;
    std::vector<std::vector<MarketRecord>> records; // per session, only for developing values
};

struct BatchOutput {
    std::vector<SessionResult> sessions;
    std::vector<std::vector<DevelopingPoint>> developing;
};

} // namespace

uint32_t percentToBasisPoints(double percent)
{
    if (!(percent > 0) || percent > 100 || !std::isfinite(percent))
        throw std::invalid_argument(fmt::format("--va {}: give a percentage above 0 and at most 100, such as 70",
                                                percent));
    const double bp = percent * 100.0;
    if (std::fabs(bp - std::round(bp)) > 1e-6)
        throw std::invalid_argument(fmt::format("--va {}: at most two decimals (basis points) are supported", percent));
    return static_cast<uint32_t>(std::lround(bp));
}

const char* distributionName(Distribution d)
{
    switch (d) {
    case Distribution::Close:
        return "close";
    case Distribution::Typical:
        return "typical";
    case Distribution::Uniform:
        break;
    }
    return "uniform";
}

const char* formatName(DataFormat f)
{
    switch (f) {
    case DataFormat::Bars:
        return "bars";
    case DataFormat::Trades:
        return "trades";
    case DataFormat::Auto:
        break;
    }
    return "auto";
}

namespace {

// What both paths share: the reader, the session clock, progress and cancel.
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

// CPU: each session's profile is built as its rows stream by; memory is one session's price range. On several
// threads (without developing values) blocks of rows are profiled in pieces on the job's threads and joined in order.
class StreamingRun {
public:
    explicit StreamingRun(Job& job)
        : m_job(job)
        , m_session(job.options.profile)
    {
    }
    void run(unsigned threads);

private:
    void addRows();
    void close();

    Job& m_job;
    SessionAccumulator m_session;
    std::vector<DevelopingPoint> m_developing;
};

void StreamingRun::run(unsigned threads)
{
    if (threads <= 1 || m_job.options.developing) {
        while (m_job.next())
            addRows();
    } else {
        BlockProfiler blocks(m_job.sessions, m_job.options.profile, *m_job.pool, m_job.options.minRowsPerThread);
        while (m_job.next(kBlockRowsPerThread * threads)) {
            // A session wider than kMaxSessionLevels: row by row, which names the row that widens it.
            if (!blocks.profile(m_job.block.rows, m_job.block.count) || !blocks.fitsAfter(m_session)) {
                addRows();
                continue;
            }
            m_job.result.outsideSessions += blocks.outside();
            blocks.mergeInto(m_session, [this](SessionAccumulator&) { close(); });
        }
    }
    if (!m_session.empty())
        close();
}

void StreamingRun::close()
{
    m_job.result.sessions.push_back(m_session.finish());
    if (m_job.options.developing)
        m_job.keepDeveloping(m_job.result.sessions.back(), std::move(m_developing));
    m_developing = {};
}

// The rows in hand one by one, on this thread.
void StreamingRun::addRows()
{
    for (size_t i = 0; i < m_job.block.count; ++i) {
        const auto& r = m_job.block.rows[i];
        const auto day = m_job.sessions.sessionDay(r.timeUs);
        if (!day) {
            ++m_job.result.outsideSessions;
            continue;
        }
        if (!m_session.empty() && *day != m_session.day())
            close();
        m_job.checkWidth(m_session.widthWith(r), *day, i);
        m_session.add(*day, r);
        if (m_job.options.developing) {
            m_developing.push_back(m_session.developing(r));
            m_job.passOn(*day, m_developing);
        }
    }
}

// GPU: sessions gathered into batches (about 4 M elements) profiled on the device while the next is read. A session
// that outgrows options.maxGpuSessionRows moves to a SessionAccumulator on the CPU (the batches before it are sent
// first and collected before its result, so the order of sessions is kept).
class BatchedRun {
public:
    BatchedRun(Job& job, GpuProfiler& gpu)
        : m_job(job)
        , m_gpu(gpu)
        , m_large(job.options.profile)
    {
    }
    // Waits for the batch in flight before unwinding: it reads the GPU profiler and the options.
    ~BatchedRun()
    {
        if (m_inFlight.valid())
            m_inFlight.wait();
    }
    BatchedRun(const BatchedRun&) = delete;
    BatchedRun& operator=(const BatchedRun&) = delete;

    void run()
    {
        while (m_job.next()) {
            for (size_t i = 0; i < m_job.block.count; ++i)
                addRow(i);
        }
        closeSession();
        dispatch();
        collect();
    }

private:
    void addRow(size_t i);
    void collect();
    void addLarge(const MarketRecord& r);
    void dispatch();
    void moveToCpu();
    void closeSession();

    Job& m_job;
    GpuProfiler& m_gpu;
    std::future<BatchOutput> m_inFlight;
    std::shared_ptr<Batch> m_batch = std::make_shared<Batch>();
    std::vector<MarketRecord> m_current;
    int32_t m_currentDay = 0;
    int32_t m_low = 0, m_high = 0; // of the session in m_current
    SessionAccumulator m_large;     // the session in progress, when it outgrew the GPU path
    std::vector<DevelopingPoint> m_largeDeveloping;
};

void BatchedRun::addRow(size_t i)
{
    const auto& r = m_job.block.rows[i];
    const auto day = m_job.sessions.sessionDay(r.timeUs);
    if (!day) {
        ++m_job.result.outsideSessions;
        return;
    }
    if ((!m_current.empty() || !m_large.empty()) && *day != m_currentDay) {
        closeSession();
        if (m_batch->profile.elementCount() >= kBatchElements)
            dispatch();
    }
    m_currentDay = *day;
    if (!m_large.empty()) {
        m_job.checkWidth(m_large.widthWith(r), *day, i);
        addLarge(r);
        return;
    }
    m_low = m_current.empty() ? r.low : std::min(m_low, r.low);
    m_high = m_current.empty() ? r.high : std::max(m_high, r.high);
    m_job.checkWidth(static_cast<int64_t>(m_high) - m_low + 1, *day, i);
    m_current.push_back(r);
    if (static_cast<int64_t>(m_current.size()) > m_job.options.maxGpuSessionRows)
        moveToCpu();
}

// The sessions of the batch in flight, into the result in order.
void BatchedRun::collect()
{
    if (!m_inFlight.valid())
        return;
    auto out = m_inFlight.get();
    for (size_t i = 0; i < out.sessions.size(); ++i) {
        m_job.result.sessions.push_back(std::move(out.sessions[i]));
        if (i < out.developing.size())
            m_job.keepDeveloping(m_job.result.sessions.back(), std::move(out.developing[i]));
    }
}

void BatchedRun::addLarge(const MarketRecord& r)
{
    m_large.add(m_currentDay, r);
    if (m_job.options.developing) {
        m_largeDeveloping.push_back(m_large.developing(r));
        if (m_largeDeveloping.size() >= kDevelopingPiece && m_job.options.developingSink) {
            collect(); // the sessions before this one are written first
            m_job.passOn(m_currentDay, m_largeDeveloping);
        }
    }
}

// Sends the gathered batch to the GPU (after collecting the one in flight) and starts a new one.
void BatchedRun::dispatch()
{
    if (m_batch->profile.sessions.empty())
        return;
    collect();
    // The thread gets copies of what it reads (the profiler outlives it: see ~BatchedRun).
    auto profileBatch = [gpuPtr = &m_gpu, profileOptions = m_job.options.profile,
                         developing = m_job.options.developing](std::shared_ptr<Batch> b) {
        BatchOutput out;
        out.sessions = gpuPtr->compute(b->profile, profileOptions);
        if (developing)
            for (const auto& recs : b->records)
                out.developing.push_back(developingValues(recs.data(), recs.size(), profileOptions));
        return out;
    };
    m_inFlight = std::async(std::launch::async, profileBatch, m_batch);
    m_batch = std::make_shared<Batch>();
}

void BatchedRun::moveToCpu()
{
    dispatch(); // the sessions before this one
    for (const auto& r : m_current)
        addLarge(r);
    std::vector<MarketRecord>().swap(m_current);
}

// The session in progress: its CPU result into the result, or its rows into the batch.
void BatchedRun::closeSession()
{
    if (!m_large.empty()) {
        collect();
        m_job.result.sessions.push_back(m_large.finish());
        if (m_job.options.developing)
            m_job.keepDeveloping(m_job.result.sessions.back(), std::move(m_largeDeveloping));
        m_largeDeveloping = {};
        return;
    }
    if (m_current.empty())
        return;
    m_batch->profile.appendSession(m_currentDay, m_current.data(), m_current.size(), m_job.options.profile.distribution);
    if (m_job.options.developing)
        m_batch->records.push_back(m_current);
    m_current.clear();
}

} // namespace

std::shared_ptr<const VpocResult> runVpoc(const VpocOptions& options, const VpocProgressCallback& progress,
                                          const std::atomic<bool>* cancel)
{
    auto result = std::make_shared<VpocResult>();
    result->options = options;
    const SessionRule rule = SessionRule::parse(options.session, options.sessionTimeZone);
    ReadOptions read = options.read;
    read.threads = options.threads;
    read.pool = std::make_shared<WorkPool>(options.threads);
    auto reader = openMarketFile(options.input, read);
    result->format = reader->format();

    // auto is the CPU: a run from a file is bound by reading and parsing it, and the GPU backend (upload and
    // kernel after the same parse) measured slower end to end at every thread count, 1 to 16, on 352 MB of
    // trades (tests/bench/RESULTS.md, "VPOC end to end"); its kernel only wins on data already on the GPU.
    std::unique_ptr<GpuProfiler> gpu;
    if (options.backend == Backend::Gpu) {
        std::string why;
        gpu = GpuProfiler::open(options.vramBudgetMiB << 20, why);
        if (!gpu)
            throw std::runtime_error(fmt::format("--backend gpu: no usable GPU module ({}); build StackScope with "
                                                 "CUDA or HIP, or use --backend cpu",
                                                 why.empty() ? "none found" : why));
        result->backendNote = fmt::format("{} via {}", gpu->deviceName(), gpu->modulePath());
    } else if (options.backend == Backend::Auto) {
        result->backendNote = "auto: the CPU (reading the file bounds the run; the GPU backend measured slower end to "
                              "end; choose gpu to use it)";
    }
    result->backend = gpu ? gpu->vendor() : "cpu";

    Job job {options, *result, *reader, read.pool.get(), SessionClock(rule), progress, cancel};
    if (gpu)
        BatchedRun(job, *gpu).run();
    else
        StreamingRun(job).run(read.pool->threads());
    result->options.developingSink = nullptr; // it refers to the caller's writer: not kept past the run
    result->extraColumns = reader->extraColumns(); // decided on the first data row
    result->format = reader->format();              // a mixed DBN file: decided by its first record
    result->rows = reader->rowsAccepted();
    result->skipped = reader->skipped();
    if (result->rows == 0)
        reader->failAt(reader->endPosition() + 1,
                       result->skipped.count
                           ? fmt::format("every data row was bad ({} skipped, the first: {}); fix the rows or give "
                                         "the right file",
                                         result->skipped.count, result->skipped.first.front())
                           : std::string("no data rows after the header; give a file with at least one bar or trade"));
    job.report(true, VpocPhase::Finishing);
    return result;
}

} // namespace stackscope::vpoc
