// Runs the probe grid: one child process (stackscope-cli probe-worker) per (device, environment variant).
#pragma once

#include "core/snapshot/probe_outcome.h"
#include "core/util/cancel_token.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stackscope {

// An environment the worker starts with: the parent's environment with these changes
// (a value sets the variable, nullopt unsets it). Variables that must be set before a library
// loads (TORCH_BLAS_PREFER_HIPBLASLT, HSA_OVERRIDE_GFX_VERSION) need a fresh process: hence one each.
struct ProbeVariant {
    std::string name = "baseline";
    std::map<std::string, std::optional<std::string>> env;
    std::vector<std::string> ruleIds; // the rules whose fixes proposed it
};

struct ProbeDevice {
    std::string id;   // "cpu" or the torch index "0"
    std::string name; // "NVIDIA H100 80GB HBM3"
};

// One cell of the grid: the outcome as the diagnosis reads it, plus what the page shows.
struct ProbeRecord {
    ProbeOutcome outcome;
    double seconds = 0.0;
    double endedAt = 0.0; // seconds from the start of its run (ProbeRunner::run) to this result: the grid's timeline
    std::optional<double> maxError;   // the worst compared element: |out - ref|
    std::optional<double> errorRatio; // its error / bound (ok <= 1)
    std::optional<double> tolerance;
    nlohmann::json details = nlohmann::json::object();
};

struct ProbeRunOptions {
    std::string workerProgram;            // stackscope-cli; empty: the sibling of this program
    std::vector<std::string> devices;     // "cpu", "0", ...; empty: every device the worker lists
    std::vector<ProbeVariant> variants;   // empty: baseline only
    std::vector<std::string> probeIds;    // empty: the whole catalogue
    std::chrono::milliseconds timeout {30000}; // per probe; a probe past it is killed and is a hang
    // Children at once; 0: every worker of the plan (a GPU column runs up to four, scheduleJobs), at most half the
    // CPU's threads and at least 2 (a worker's start is mostly `import torch` or loading libtorch: CPU work).
    int parallelCells = 0;
    // A Python environment instead of StackScope's libtorch: the interpreter runs the Python worker
    // (pythonScript, empty: pythonWorkerScript()) and the records say environment "python:" + python.
    std::string python;
    std::string pythonScript;
    // The pre-flight's GPUs without room to start (perf/preflight.h gpusWithoutRoom): torch index -> the one line
    // that says why. Their cells end at once as unsupported with that line, and so do the probes that need every
    // GPU (collectives, peer copy) on the other GPUs: nothing waits for a peer that cannot join. nullopt: run()
    // asks the driver itself when the plan has a GPU (the Probes page); a caller running several grids at once
    // (the CLI's environments) asks once and passes the answer to each.
    std::optional<std::map<std::string, std::string>> gpusWithoutRoom;
    // Tests only: passed to the worker as --inject KIND --inject-probe ID.
    std::string inject;
    std::string injectProbe;
};

using ProbeResultCallback = std::function<void(const ProbeRecord&)>;

class ProbeRunner {
public:
    explicit ProbeRunner(ProbeRunOptions options);

    // Blocks until every cell is done or cancel() was called; `onResult` is called for each record
    // as it arrives, from a runner thread, one call at a time. Records come back in grid order.
    std::vector<ProbeRecord> run(const ProbeResultCallback& onResult = {});
    // Thread-safe; running children are killed and run() returns within about 100 ms.
    void cancel() { m_cancel.cancel(); }
    bool isCancelled() const { return m_cancel.isCancelled(); }
    // The devices used (listed by the worker when options.devices was empty), after run().
    const std::vector<ProbeDevice>& devices() const { return m_devices; }
    // Why the device list could not be had ("" when it could).
    const std::string& listError() const { return m_listError; }
    // The pre-flight's lines (one per GPU, and a note where it was not applied) when run() asked the driver itself.
    const std::vector<std::string>& preflight() const { return m_preflight; }

private:
    ProbeRunOptions m_options;
    CancelToken m_cancel;
    std::vector<ProbeDevice> m_devices;
    std::string m_listError;
    std::vector<std::string> m_preflight;
    bool m_askDriver = true; // the caller gave no pre-flight: each run() asks the driver
};

// The pre-flight for a probe grid: each GPU's free memory and its biggest holder (perf/preflight.h), as lines, and
// the GPUs without room to start a cell.
struct ProbePreflight {
    std::vector<std::string> lines;
    std::map<std::string, std::string> gpusWithoutRoom;
};
ProbePreflight probePreflight();

// Asks a worker which devices libtorch sees ("cpu" first). On failure returns {cpu} and sets *error.
std::vector<ProbeDevice> listProbeDevices(const std::string& workerProgram, std::chrono::milliseconds timeout,
                                          std::string* error, std::string* backend = nullptr);
// The same through a Python interpreter's torch (the Python worker with --list-devices).
std::vector<ProbeDevice> listPythonProbeDevices(const std::string& python, const std::string& script,
                                                std::chrono::milliseconds timeout, std::string* error,
                                                std::string* backend = nullptr);
// One worker's share of a run, in the order the runner starts them (longest first): a device under a variant and
// the probes that worker runs. The CPU column's torch.compile probes are a worker of their own, first; then a worker
// per GpuWorkerGroup of each GPU column (distributed, compile, shared); then the CPU cells; last the GPUs' Alone
// workers (gpuAlone), which hold their GPU to themselves.
struct ProbeCellPlan {
    std::string device;
    std::string variant;
    std::vector<std::string> probes;
    bool gpuAlone = false;
    bool compileInProcess = false; // TORCHINDUCTOR_COMPILE_THREADS=1 unless set (CellJob, probe_runner.cpp)
};
std::vector<ProbeCellPlan> planProbeCells(const std::vector<ProbeVariant>& variants, const std::vector<ProbeDevice>& devices,
                                          const std::vector<std::string>& probeIds, bool python);
// "libtorch" or "python:" + the interpreter: ProbeOutcome::environment of a run with these options.
std::string environmentLabel(const ProbeRunOptions& options);
// A Python worker's start (python, then `import torch`) counts against the first probe's limit: at least this.
// `import torch` of Debian's 1.13 took 14.5-21 s on the 2-core build machine under load (RESULTS.md): three times.
inline constexpr std::chrono::milliseconds kPythonStartupTimeout {60000};

} // namespace stackscope
