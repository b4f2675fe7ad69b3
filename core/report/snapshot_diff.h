// The differences between two snapshots that matter for a broken stack, as table rows.
#pragma once

#include "core/snapshot/snapshot.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace stackscope::report {

// One fact that differs. A side reads its value, "(none)" where it really lacks it, or "unknown: <why>" where the
// snapshot cannot tell (not recorded on a recorded machine, could not be read, a library not queried): the same typed
// facts the System page calls unknown. A row `matters` only where both sides know what differs; a row that differs
// only in what one side does not know is listed, flagged and not counted. Where neither side knows, there is no row.
struct DiffRow {
    std::string area; // "versions", "gpus", "libraries", "environment", "access", "coverage", "host"
    std::string item; // "ROCm /opt/rocm-6.2.4", "torch.version", "GPU 0 arch", "HSA_OVERRIDE_GFX_VERSION" ...
    std::string a;
    std::string b;
    bool aUnknown = false; // the side's value (or part of it, for a device node) is unknown
    bool bUnknown = false;
    bool matters = true;   // a difference in what both sides know
};

inline constexpr const char* kNone = "(none)";
inline constexpr const char* kUnknownPrefix = "unknown: ";
inline constexpr const char* kNotQueried = "unknown: not queried (recorded machine)";

// Compared: ROCm installs, HIP runtime/driver, amdgpu driver, CUDA driver/runtime, torch version,
// backend, built-with, arch list, BLAS backend; GPUs (count, names, archs, VRAM total, driver); the
// libraries (loaded or not, the path loaded, the error); environment variables that steer the stack
// (HSA_*, HIP_*, ROCR_*, ROCM_*, ROCBLAS_*, HIPBLASLT_*, CUDA_*, NCCL_*, RCCL_*, PYTORCH_*, TORCH_*,
// AMD_*, LD_LIBRARY_PATH, PATH, DISABLE_ADDMM_*); user groups and device nodes (exists, rw, group,
// mode); OS and kernel; arch coverage cells. Not compared: capture time, host names, root. The rows that matter come
// first (areas in reading order), then those that differ only in what one side does not know.
std::vector<DiffRow> diffSnapshots(const Snapshot& a, const Snapshot& b);
std::size_t countThatMatter(const std::vector<DiffRow>& rows);

// [{"area","item","a","b","matters","a_unknown","b_unknown"}]
nlohmann::json diffToJson(const std::vector<DiffRow>& rows);

} // namespace stackscope::report
