// One probe result as the diagnosis sees it: which probe, on which device, under which environment, what happened.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <optional>
#include <string>

namespace stackscope {

enum class ProbeResult { Ok, Error, Crash, Hang, Wrong, Unsupported };

const char* probeResultName(ProbeResult r);
std::optional<ProbeResult> probeResultFromName(const std::string& name);
// A result that is not ok and not "unsupported": error, crash, hang, wrong.
bool isFailure(ProbeResult r);

// A plain value so the probe runner (a child process per device and environment variant) can feed
// the diagnosis without the diagnosis knowing how probes run.
struct ProbeOutcome {
    std::string probeId;             // "matmul_fp16"
    std::string device;              // the snapshot's gpus[].index as text ("0"), or "cpu"
    std::string variant = "baseline"; // "baseline", "TORCH_BLAS_PREFER_HIPBLASLT=0", ...
    // The PyTorch that ran it: "libtorch" (StackScope's module) or "python:" + the interpreter's path.
    std::string environment = "libtorch";
    // The GPU-related environment the child ran with, complete: a variable not listed was unset.
    // Fix verification compares a fix's env change with this map.
    std::map<std::string, std::string> env;
    ProbeResult outcome = ProbeResult::Ok;
    std::string message;        // the error text, signal name, max error, or why unsupported
    std::string capturedStderr; // everything the libraries printed, warnings included
};

nlohmann::json toJson(const ProbeOutcome& p);
// Throws std::runtime_error naming the key when `j` is not a probe outcome.
ProbeOutcome probeOutcomeFromJson(const nlohmann::json& j);

} // namespace stackscope
