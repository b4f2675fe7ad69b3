// The VPOC pipeline: streaming reader -> sessions -> batches profiled on the CPU threads or the GPU module.
#include "core/vpoc/vpoc_engine.h"

#include "core/vpoc/csv_reader.h"
#include "core/vpoc/gpu_profiles.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <future>

namespace stackscope::vpoc {

namespace {

constexpr size_t kReadRows = 1 << 16;
// A batch is profiled while the next one is read: about 4 M elements keeps both busy and memory bounded.
constexpr size_t kBatchElements = 1 << 22;
constexpr int64_t kMaxWidth = 1 << 26;

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

std::shared_ptr<const VpocResult> runVpoc(const VpocOptions& options, const VpocProgressCallback& progress,
                                          const std::atomic<bool>* cancel)
{
    auto result = std::make_shared<VpocResult>();
    result->options = options;
    const SessionRule rule = SessionRule::parse(options.session, options.sessionTimeZone);
    SessionClock sessions(rule);
    MarketDataReader reader(options.input, options.read);
    result->format = reader.format();
    result->extraColumns = reader.extraColumns();
    ProfileOptions profileOptions = options.profile;

    std::unique_ptr<GpuProfiler> gpu;
    if (options.backend != Backend::Cpu) {
        std::string why;
        gpu = GpuProfiler::open(options.vramBudgetMiB << 20, why);
        if (!gpu && options.backend == Backend::Gpu)
            throw std::runtime_error(fmt::format("--backend gpu: no usable GPU module ({}); build StackScope with "
                                                 "CUDA or HIP, or use --backend cpu",
                                                 why.empty() ? "none found" : why));
        result->backendNote = gpu ? fmt::format("{} via {}", gpu->deviceName(), gpu->modulePath())
                                  : fmt::format("no GPU, so the CPU was used ({})", why);
    }
    result->backend = gpu ? gpu->vendor() : "cpu";

    auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
    auto lastReport = std::chrono::steady_clock::now();
    auto report = [&](bool force) {
        if (!progress)
            return;
        const auto now = std::chrono::steady_clock::now();
        if (!force && now - lastReport < std::chrono::milliseconds(100))
            return;
        lastReport = now;
        progress(VpocProgress {reader.bytesConsumed(), reader.totalBytes(),
                               static_cast<int64_t>(result->sessions.size())});
    };

    auto profileBatch = [gpuPtr = gpu.get(), profileOptions, developing = options.developing,
                         threads = options.threads](std::shared_ptr<Batch> b) {
        BatchOutput out;
        out.sessions = gpuPtr ? gpuPtr->compute(b->profile, profileOptions)
                              : computeBatchCpu(b->profile, profileOptions, threads);
        if (developing)
            for (const auto& recs : b->records)
                out.developing.push_back(developingValues(recs.data(), recs.size(), profileOptions));
        return out;
    };
    std::future<BatchOutput> inFlight;
    auto collect = [&] {
        if (!inFlight.valid())
            return;
        auto out = inFlight.get();
        for (auto& s : out.sessions)
            result->sessions.push_back(std::move(s));
        for (auto& d : out.developing)
            result->developing.push_back(std::move(d));
    };

    auto batch = std::make_shared<Batch>();
    std::vector<MarketRecord> rows;
    std::vector<MarketRecord> current;
    int32_t currentDay = 0;
    auto closeSession = [&] {
        if (current.empty())
            return;
        int32_t lo = current[0].low, hi = current[0].high;
        for (const auto& r : current) {
            lo = std::min(lo, r.low);
            hi = std::max(hi, r.high);
        }
        if (static_cast<int64_t>(hi) - lo + 1 > kMaxWidth)
            throw std::invalid_argument(fmt::format(
                "the session of {} spans {} price levels ({} .. {}); check --tick or the prices", formatDate(currentDay),
                static_cast<int64_t>(hi) - lo + 1, options.read.tick.price(lo), options.read.tick.price(hi)));
        batch->profile.appendSession(currentDay, current.data(), current.size(), profileOptions.distribution);
        if (options.developing)
            batch->records.push_back(current);
        current.clear();
    };
    auto dispatch = [&] {
        if (batch->profile.sessions.empty())
            return;
        collect();
        inFlight = std::async(std::launch::async, profileBatch, batch);
        batch = std::make_shared<Batch>();
    };

    while (true) {
        if (cancelled()) {
            if (inFlight.valid())
                inFlight.wait();
            throw VpocCancelled();
        }
        rows.clear();
        if (!reader.read(rows, kReadRows))
            break;
        for (const auto& r : rows) {
            const auto day = sessions.sessionDay(r.timeUs);
            if (!day) {
                ++result->outsideSessions;
                continue;
            }
            if (!current.empty() && *day != currentDay) {
                closeSession();
                if (batch->profile.elementCount() >= kBatchElements)
                    dispatch();
            }
            currentDay = *day;
            current.push_back(r);
        }
        report(false);
    }
    closeSession();
    dispatch();
    collect();
    result->extraColumns = reader.extraColumns(); // decided on the first data row
    result->rows = reader.rowsAccepted();
    result->skipped = reader.skipped();
    report(true);
    return result;
}

} // namespace stackscope::vpoc
