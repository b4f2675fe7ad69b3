// The VPOC pipeline: streaming reader -> sessions -> batches profiled on the CPU threads or the GPU module.
#include "core/vpoc/vpoc_engine.h"

#include "core/vpoc/batched_run.h"
#include "core/vpoc/block_profiles.h"
#include "core/vpoc/gpu_profiles.h"
#include "core/vpoc/market_source.h"
#include "core/vpoc/session_accumulator.h"
#include "core/vpoc/vpoc_job.h"
#include "core/util/task_runner.h"

#include <fmt/format.h>

#include <cmath>

namespace stackscope::vpoc {

namespace {

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
        BlockProfiler blocks(m_job.sessions, m_job.options.profile, *m_job.runner, m_job.options.minRowsPerThread);
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
    m_job.keepProfileLevels(static_cast<int64_t>(m_session.high()) - m_session.low() + 1, m_session.day());
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
            m_job.countDeveloping(static_cast<int64_t>(m_session.high()) - m_session.low() + 1, *day, i);
            m_developing.push_back(m_session.developing(r));
            m_job.passOn(*day, m_developing);
        }
    }
}

// The backend: a batch computation for the GPU path (none for the CPU path), and what names it in the result once
// the run is over (none: the chooser did).
struct ChosenBackend {
    BatchCompute compute;
    std::function<void(VpocResult&)> describe;
};
// Sets the result's backend and note where it knows them before the run; `runner` is the run's.
using ChooseBackend = std::function<ChosenBackend(VpocResult&, TaskRunner& runner)>;

std::shared_ptr<GpuProfiler> openGpu(uint64_t budgetBytes)
{
    std::string why;
    std::shared_ptr<GpuProfiler> gpu = GpuProfiler::open(budgetBytes, why);
    if (!gpu)
        throw std::runtime_error(fmt::format("--backend gpu: no usable GPU module ({}); build StackScope with "
                                             "CUDA or HIP, or use --backend cpu",
                                             why.empty() ? "none found" : why));
    return gpu;
}

// The GPU module when the options ask for it, its compute function owning it.
ChosenBackend chooseGpu(const VpocOptions& options, VpocResult& result, TaskRunner& runner)
{
    // auto is the CPU: a run from a file is bound by reading and parsing it, which both backends share. With the
    // elements made in place on the job's threads the GPU backend measured on either side of the CPU at every thread
    // count (16 threads, six interleaved rounds: 7 % faster to 8 % slower, median 3 % slower; 352 MB of trades, H100
    // host, tests/bench/RESULTS.md, "Elements made in place"; with the twelfth session's eight rounds on H100 and H200
    // hosts, 14 in all: 12 % faster to 24 % slower, median 4 % slower, "Session windows and the reader's window"), and
    // a process's first run adds the CUDA context (0.2-0.3 s); the CPU also needs no module, device memory or driver.
    // The kernel only wins on data already on the GPU.
    result.backend = "cpu";
    if (options.backend == Backend::Auto)
        result.backendNote = "auto: the CPU (reading the file bounds the run; end to end the GPU backend measured "
                             "no faster on all cores; choose gpu to use it)";
    if (options.backend != Backend::Gpu)
        return {};
    // Opening the module starts the device's context, 0.2-0.3 s in a new process (CUDA, H100 host), and allocates
    // the VRAM budget (0.7-1.0 ms after that): done on a thread of the run's runner while the first rows are read.
    // The first batch waits for it and throws its error, which reaches the caller as before, a block or so of reading
    // later.
    const uint64_t budget = options.vramBudgetMiB << 20;
    const std::shared_future<std::shared_ptr<GpuProfiler>> gpu = runner.start([budget] { return openGpu(budget); }).share();
    return {[gpu](const BatchView& batch, const ProfileOptions& profile) { return gpu.get()->compute(batch, profile); },
            [gpu](VpocResult& r) {
                r.backend = gpu.get()->vendor();
                r.backendNote = fmt::format("{} via {}", gpu.get()->deviceName(), gpu.get()->modulePath());
            }};
}

// Opens the file, profiles it on the path the backend asks for, and fills in the result.
std::shared_ptr<const VpocResult> runJob(const VpocOptions& options, const ChooseBackend& chooseBackend,
                                         const VpocProgressCallback& progress, const CancelToken& cancel)
{
    auto result = std::make_shared<VpocResult>();
    result->options = options;
    // More threads than the machine runs at once only queue (and tens of thousands abort): capped, and said.
    const unsigned asked = threadsOrAll(options.threads);
    const unsigned cap = options.threadCap ? options.threadCap : usableThreads();
    if (asked > cap)
        result->threadsNote = fmt::format("--threads {}: capped at {}, the hardware threads this process may use "
                                          "(more would only queue for the same cores); give at most {}, or 0 for all",
                                          options.threads, cap, cap);
    // The run's one runner, sized here once: the reader parses on it, the profiles and the GPU module's opening too.
    ReadOptions read = options.read;
    read.pool = std::make_shared<TaskRunner>(std::min(asked, cap));
    TaskRunner& runner = *read.pool;
    result->threads = runner.threads();
    auto reader = openMarketFile(options.input, read);
    result->format = reader->format();
    const ChosenBackend backend = chooseBackend(*result, runner);

    Job job {options, *result, *reader, &runner, SessionClock(options.session), progress, cancel};
    if (backend.compute)
        BatchedRun(job, backend.compute).run(runner.threads());
    else
        StreamingRun(job).run(runner.threads());
    if (backend.describe)
        backend.describe(*result); // a file with no rows in a session sent no batch: the open's error is thrown here
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

} // namespace

std::shared_ptr<const VpocResult> runVpoc(const VpocOptions& options, const VpocProgressCallback& progress,
                                          const CancelToken& cancel)
{
    return runJob(options, [&options](VpocResult& result, TaskRunner& runner) { return chooseGpu(options, result, runner); },
                  progress, cancel);
}

std::shared_ptr<const VpocResult> runVpocBatched(const VpocOptions& options, const BatchCompute& compute,
                                                 const VpocProgressCallback& progress, const CancelToken& cancel)
{
    if (!compute)
        throw std::invalid_argument("runVpocBatched: no batch computation given; pass computeBatchCpu or the GPU "
                                    "module's compute");
    return runJob(options, [&compute](VpocResult& result, TaskRunner&) {
        result.backend = "cpu";
        result.backendNote = "the GPU backend's path with batches computed by the caller";
        return ChosenBackend {compute, {}};
    }, progress, cancel);
}

} // namespace stackscope::vpoc
