// One run of the bandwidth and compute suite: pre-flight, the measurements in the torch module, NVML's clock-event
// reasons alongside, and the verdicts. Used by `bench bandwidth` (and by anything that shows its figures).
#pragma once

#include "core/util/error.h"

#include "core/perf/perf_types.h"
#include "core/snapshot/snapshot.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace stackscope::perf {

struct SuiteOptions {
    std::vector<int> gpus;          // empty: every GPU libtorch sees
    std::vector<std::string> tests; // test ids (perf_types.h); empty: all
    std::int64_t minBytes = 4096;
    std::int64_t maxBytes = std::int64_t(1) << 30;
    int trials = 5;
    std::vector<std::string> gemmDtypes {"fp32", "tf32", "bf16", "fp16", "fp64"};
    // A collective whose peer never joins fails after this (kCollectiveJoinTimeout's model, probe_collectives).
    std::chrono::milliseconds collectiveTimeout {30000};
};

// The torch module is missing or failed as a whole (not one figure): what to do is in the message.
class SuiteError : public Error {
public:
    explicit SuiteError(const std::string& what)
        : Error(what, ErrorKind::Failed)
    {
    }
};

struct SuiteRun {
    std::string capturedAt;
    std::string torchVersion;
    std::vector<std::string> preflight; // one line per GPU: free memory and who holds the rest
    std::vector<Figure> figures;        // judged
    bool clockEventsSampled = false;
    int gpuCount = 0; // GPUs the torch module's libtorch sees
    // The machine that ran it, from its snapshot ("machine" in JSON; absent in runs recorded before): its host name
    // (a report redacts it) and its GPUs' names by index, so a run is judged again only beside its own machine.
    std::string host;
    std::vector<std::string> gpuNames;
};

// The memory one GPU needs for the suite at `maxBytes` (triad: three buffers; GEMM fp64: three 8192^2 matrices).
std::uint64_t suiteBytesPerGpu(std::int64_t maxBytes);

SuiteRun runSuite(const SuiteOptions& options, const Snapshot& snapshot);

nlohmann::json toJson(const SuiteRun& run);
SuiteRun suiteRunFromJson(const nlohmann::json& document); // throws PerfJsonError

} // namespace stackscope::perf
