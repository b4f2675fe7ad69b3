// The differences between two snapshots that matter for a broken stack, as table rows.
#pragma once

#include "core/snapshot/snapshot.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace stackscope::report {

// One fact that differs; a side that lacks it reads "(none)", or "not queried (recorded machine)" where that side is
// a recorded machine whose libraries and torch were never loaded (its files were read), so absent is not missing.
struct DiffRow {
    std::string area; // "versions", "gpus", "libraries", "environment", "access", "coverage", "host"
    std::string item; // "ROCm /opt/rocm-6.2.4", "torch.version", "GPU 0 arch", "HSA_OVERRIDE_GFX_VERSION" ...
    std::string a;
    std::string b;
};

inline constexpr const char* kNone = "(none)";
inline constexpr const char* kNotQueried = "not queried (recorded machine)";

// Compared: ROCm installs, HIP runtime/driver, amdgpu driver, CUDA driver/runtime, torch version,
// backend, built-with, arch list, BLAS backend; GPUs (count, names, archs, VRAM total, driver); the
// libraries (loaded or not, the path loaded, the error); environment variables that steer the stack
// (HSA_*, HIP_*, ROCR_*, ROCM_*, ROCBLAS_*, HIPBLASLT_*, CUDA_*, NCCL_*, RCCL_*, PYTORCH_*, TORCH_*,
// AMD_*, LD_LIBRARY_PATH, PATH, DISABLE_ADDMM_*); user groups and device nodes (exists, rw, group,
// mode); OS and kernel; arch coverage cells. Not compared: capture time, host names, root.
std::vector<DiffRow> diffSnapshots(const Snapshot& a, const Snapshot& b);

nlohmann::json diffToJson(const std::vector<DiffRow>& rows); // [{"area","item","a","b"}]

} // namespace stackscope::report
