// Before GPU work starts: how much memory each GPU has free and who holds the rest, so work that cannot fit is
// skipped at once with one line that says why, instead of failing (or hanging a collective) cell by cell.
#pragma once

#include "core/snapshot/snapshot.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stackscope::perf {

// What a process on a GPU needs before its own tensors: the CUDA/HIP context, libtorch's kernels and the math
// libraries' workspaces. Measured 0.53 GiB on an H200 with PyTorch 2.11 (tests/bench/RESULTS.md, "Pre-flight");
// a GiB leaves margin for other libraries (cuDNN, NCCL's buffers).
inline constexpr std::uint64_t kContextReserveBytes = std::uint64_t(1) << 30;

struct GpuHeadroom {
    int gpu = 0;
    std::string name;
    std::optional<std::uint64_t> freeBytes; // unknown where the driver does not report use
    std::optional<std::uint64_t> totalBytes;
    std::vector<GpuProcess> holders; // largest first
    bool holdersKnown = false;
};

std::vector<GpuHeadroom> gpuHeadroom(const Snapshot& s);

// The same read now from the driver's management library alone (NVML, rocm_smi): fast enough before every grid.
std::vector<GpuHeadroom> liveGpuHeadroom();

// The smallest probe cell's own working set (the copies' 256 MiB): below this plus the context nothing runs.
inline constexpr std::uint64_t kProbeCellBytes = std::uint64_t(256) << 20;

// GPUs (by torch index, "0") that have no room to start a probe, with the one line that says why. The driver's
// indices are torch's only when no *_VISIBLE_DEVICES variable reorders or hides GPUs and all GPUs are one model
// (CUDA's default order sorts equal GPUs by PCI bus, as NVML does): otherwise nothing is skipped and `note` says why.
std::map<std::string, std::string> gpusWithoutRoom(const std::vector<GpuHeadroom>& headroom, std::string* note);

// "GPU 0 has 0.5 GiB free of 139.8 GiB; process 20276 (python3, user bob) holds 138.8 GiB".
std::string describeHeadroom(const GpuHeadroom& h);

// Why work needing `bytes` of its own (plus kContextReserveBytes) cannot run on the GPU: "skipped: GPU 0 has ...";
// nullopt when it fits or when free memory is unknown (then it runs and says what happens).
std::optional<std::string> whyNoRoom(const GpuHeadroom& h, std::uint64_t bytes);

} // namespace stackscope::perf
