// The probe catalogue as data: ids, what each checks, on which devices, and the error model each result meets.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace stackscope {

enum class ProbeScope {
    AnyDevice, // every GPU and the CPU
    MultiGpu,  // GPUs only, and only meaningful with two or more (unsupported with why otherwise)
    GpuOnly,   // GPUs only (StackScope's own kernels)
};

// How a probe's result is judged: every element within a bound from a rounding-error model
// (core/probes/error_model.h; docs/probe-error-model.md gives the derivations and the measured margins).
struct ErrorModelSpec {
    std::string key;   // "dot", "dot16", "elementwise", "sum", "norm", "softmax", "stat", "exact", "none"
    std::string bound; // the bound, in one line
    std::string why;   // where it comes from
};

// Which workers run a probe: StackScope's libtorch module, the Python worker (resources/python), or both.
enum class ProbeRuntime { Any, LibtorchOnly, PythonOnly };

struct ProbeSpec {
    std::string id;     // "matmul_fp16": the key in results and in the diagnosis rules
    std::string title;  // "matmul fp16"
    std::string checks; // what a person learns from it
    std::string model;  // a key of errorModels()
    ProbeScope scope = ProbeScope::AnyDevice;
    ProbeRuntime runtime = ProbeRuntime::Any;
    int minTimeoutSeconds = 0; // a probe that is slow when healthy (a first torch.compile) gets at least this
};

// In the order the grid shows them.
const std::vector<ProbeSpec>& probeCatalogue();
const ProbeSpec* findProbe(const std::string& id);
// Results are compared element by element with a float64 reference of the same rounded inputs.
const std::vector<ErrorModelSpec>& errorModels();
const ErrorModelSpec* findErrorModel(const std::string& key);
// Probe ids that apply to a device ("cpu" or a GPU index), in catalogue order.
// python: the Python worker's list (its own probes, not StackScope's kernel); else the libtorch worker's.
std::vector<std::string> probesForDevice(const std::string& device, const std::vector<std::string>& wanted = {},
                                         bool python = false);
// Probes that run in a worker of their own on the CPU column, started before every other cell: torch.compile on the
// CPU builds C++ with g++ and checks each vector ISA with a g++ build and a fresh `import torch` (55.7 s of a 63.4 s
// probe on the H100 machine's 16 vCPUs, tests/bench/RESULTS.md), longer than every other cell of the default grid,
// and nothing else in the cell needs it.
bool runsApartOnCpu(const std::string& id);

// The worker a probe of a GPU column runs in. A GPU column is split into one worker per group, started side by side
// (environments too), so its wall time is its longest group's rather than the sum (issue 14: 8.8 s libtorch + 25.3 s
// Python one after the other on the H200, RESULTS.md). Only Alone probes measure what another process on the GPU
// would change (copy bandwidth, filling 1 GiB, a peer link): their worker holds the GPU alone; the others share it,
// their results are numbers checked against a bound, which another process's load does not move.
enum class GpuWorkerGroup {
    Shared,      // ops checked against a reference
    Compile,     // torch.compile: import of dynamo/inductor and the compiles, seconds when healthy
    Distributed, // c10d/torch.distributed: every rank a fresh process, seconds when healthy
    Alone,       // bandwidths and memory fills: nothing else on the GPU while they run
};
GpuWorkerGroup gpuWorkerGroup(const std::string& id);
// Probes that start rank processes of their own (torch.distributed through the Python worker: each rank a fresh
// interpreter importing torch, 4.3-7.2 s a probe on the H200 machine): each runs in a worker of its own, on every
// column, so two of them do not wait on each other (tests/bench/RESULTS.md, issue 14).
bool startsRankProcesses(const std::string& id);
// The per-probe limit: `timeout`, raised to the probe's minTimeoutSeconds.
std::chrono::milliseconds probeTimeout(const std::string& id, std::chrono::milliseconds timeout);

} // namespace stackscope
