// The JSON-lines protocol between the probe runner and `stackscope-cli probe-worker` (the child).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace stackscope {

// One line on the worker's stdout, one JSON object each:
//   {"type":"hello","protocol":2,"pid":123}
//    "protocol" is kProbeProtocolVersion. The runner refuses a worker whose "protocol" is not its own (every probe of
//    the cell is an error saying so, and the worker is stopped): the worker and the runner come from one build.
//    A worker without a usable torch (the C++ worker: no module; the Python worker: `import torch` failed) adds
//    "error": why, as one sentence; the runner shows it where the devices or probe results would be.
//    The Python worker adds "python" (its interpreter's path) and "python_version", and once torch imports
//    "backend" and "torch_version" (as in the devices line).
//   {"type":"start","probe":"matmul_fp16"}
//   {"type":"result","probe":"matmul_fp16","outcome":"ok","message":"","seconds":0.01,
//    "max_error":0.12,"tolerance":0.4,"error_ratio":0.3,"details":{"error_model":[...],...}}
//    max_error is the |out - ref| of the compared element with the largest error / bound ratio, tolerance that
//    element's bound from the error model (core/probes/error_model.h), error_ratio their ratio (<= 1 is ok);
//    each is a number or null (no comparison, or a non-finite result).
//   {"type":"devices","backend":"cuda","torch_version":"2.5.1","devices":[{"id":"cpu","name":"CPU"},...]}
//    (--list-devices) "backend" is "cpu", "cuda" or "rocm"; "torch_version" is the libtorch (C++ worker) or
//    torch.__version__ (Python worker) that listed them. Without a usable torch the line is
//    {"type":"devices","backend":null,"devices":[{"id":"cpu","name":"CPU"}],"error":"..."} with the hello's "error".
//   {"type":"done"}
// Before each probe the worker also writes kStderrMarker + id + "\n" to stderr, so the runner can
// give each probe the text the libraries printed while it ran (both streams are ordered).
// Started with --wait-go (protocol 2), the worker reads one line from stdin after its hello and starts its probes
// only when that line is "go" (anything else, or end of file: it exits): the runner lets a GPU worker start up
// (python, `import torch`, the module) while another worker still holds the GPU, and gives it the GPU afterwards.
inline constexpr const char* kStderrMarker = "\x1e" "stackscope-probe-begin ";
inline constexpr const char* kWaitGoFlag = "--wait-go";
inline constexpr int kProbeProtocolVersion = 2;

struct WorkerMessage {
    std::string type;
    nlohmann::json body;
};

// nullopt for a line that is not a protocol object (the runner keeps it as stray output).
std::optional<WorkerMessage> parseWorkerLine(const std::string& line);
std::string workerLine(const nlohmann::json& message);

// Empty when a worker's hello speaks this runner's protocol (kProbeProtocolVersion), else what to do about it.
std::string protocolMismatch(const nlohmann::json& hello, const std::string& program);

} // namespace stackscope
