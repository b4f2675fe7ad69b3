#include "core/perf/suite_run.h"

#include "core/inspect/inspector.h"
#include "core/runtime/torch_module.h"
#include "core/perf/clock_events.h"
#include "core/perf/perf_json.h"
#include "core/perf/preflight.h"
#include "core/perf/verdict.h"
#include "core/runtime/perf_module_api.h"

#include <fmt/format.h>

#include <algorithm>

namespace stackscope::perf {

using nlohmann::json;

std::uint64_t suiteBytesPerGpu(std::int64_t maxBytes)
{
    const std::uint64_t gemm = 3ull * 8192 * 8192 * 8;
    return std::max<std::uint64_t>(3ull * static_cast<std::uint64_t>(maxBytes), gemm);
}

SuiteRun runSuite(const SuiteOptions& o, const Snapshot& snapshot)
{
    SuiteRun run;
    run.capturedAt = nowIsoUtc();
    run.host = snapshot.host.hostname.value_or("");
    for (const auto& g : snapshot.gpus)
        run.gpuNames.push_back(g.name);
    json skip = json::object();
    for (const auto& h : gpuHeadroom(snapshot)) {
        run.preflight.push_back(describeHeadroom(h));
        if (!o.gpus.empty() && std::find(o.gpus.begin(), o.gpus.end(), h.gpu) == o.gpus.end())
            continue;
        if (const auto why = whyNoRoom(h, suiteBytesPerGpu(o.maxBytes)))
            skip[std::to_string(h.gpu)] = *why;
    }
    std::string error;
    const auto lib = openTorchModule("stackscope_torch_perf_abi", STACKSCOPE_TORCH_PERF_ABI, "the bandwidth suite", error);
    if (!error.empty())
        throw SuiteError(error);
    const auto runPerf = lib.symbol<decltype(&stackscope_torch_run_perf)>("stackscope_torch_run_perf");
    const auto release = lib.symbol<decltype(&stackscope_torch_free)>("stackscope_torch_free");
    if (!runPerf || !release)
        throw SuiteError("the torch module has no stackscope_torch_run_perf: rebuild StackScope with its torch module");
    // The collectives are judged against the kernel peer copy measured beside them (expectation.cpp).
    auto tests = o.tests;
    const bool collective = std::any_of(tests.begin(), tests.end(), [](const std::string& t) {
        const auto test = testFromId(t);
        return test && isCollective(*test);
    });
    if (collective && std::find(tests.begin(), tests.end(), "peer_kernel") == tests.end())
        tests.push_back("peer_kernel");
    const json request {{"gpus", o.gpus}, {"tests", tests}, {"min_bytes", o.minBytes}, {"max_bytes", o.maxBytes},
                        {"trials", o.trials}, {"gemm_dtypes", o.gemmDtypes},
                        {"collective_timeout_ms", o.collectiveTimeout.count()}, {"skip", skip}};
    ClockEventSampler sampler;
    sampler.start();
    char* raw = runPerf(request.dump().c_str());
    const auto samples = sampler.stop();
    run.clockEventsSampled = sampler.available();
    const std::string text = raw ? raw : "";
    release(raw);
    const auto answer = json::parse(text, nullptr, false);
    if (answer.is_discarded() || !answer.is_object())
        throw SuiteError("the torch module answered something that is not JSON; rebuild StackScope");
    if (answer.contains("error"))
        throw SuiteError(answer.value("error", std::string("the suite failed")));
    run.torchVersion = answer.value("torch_version", std::string());
    run.gpuCount = answer.value("gpu_count", 0);
    run.figures = figuresFromJson(answer.value("figures", json::array()));
    attachClockEvents(run.figures, samples);
    judgeRun(run.figures, snapshot);
    return run;
}

json toJson(const SuiteRun& run)
{
    json figures = json::array();
    for (const auto& f : run.figures)
        figures.push_back(toJson(f));
    return {{"schema", kBandwidthSchema}, {"captured_at", run.capturedAt}, {"torch_version", run.torchVersion},
            {"preflight", run.preflight}, {"clock_events_sampled", run.clockEventsSampled},
            {"gpu_count", run.gpuCount}, {"machine", {{"host", run.host}, {"gpus", run.gpuNames}}},
            {"summary", verdictSummary(run.figures)}, {"verdict", verdictId(worstVerdict(run.figures))},
            {"figures", figures}};
}

SuiteRun suiteRunFromJson(const json& d)
{
    if (!d.is_object() || d.value("schema", std::string()) != kBandwidthSchema)
        throw PerfJsonError(fmt::format("not a bandwidth run (schema {} expected)", kBandwidthSchema));
    SuiteRun run;
    try {
        run.capturedAt = d.value("captured_at", std::string());
        run.torchVersion = d.value("torch_version", std::string());
        run.preflight = d.value("preflight", std::vector<std::string>());
        run.clockEventsSampled = d.value("clock_events_sampled", false);
        if (const auto n = d.find("gpu_count"); n != d.end() && !n->is_null() && !n->is_number_integer())
            throw PerfJsonError(fmt::format("a bandwidth run's 'gpu_count' must be a whole number, not {}", n->dump()));
        run.gpuCount = d.value("gpu_count", 0);
        if (const auto m = d.find("machine"); m != d.end() && !m->is_null()) {
            if (!m->is_object())
                throw PerfJsonError("a bandwidth run's 'machine' must be an object");
            run.host = m->value("host", std::string());
            run.gpuNames = m->value("gpus", std::vector<std::string>());
        }
    } catch (const json::exception& e) {
        throw PerfJsonError(fmt::format("a bandwidth run's header has a value of the wrong type ({})", e.what()));
    }
    run.figures = figuresFromJson(d.value("figures", json::array()));
    return run;
}

} // namespace stackscope::perf
