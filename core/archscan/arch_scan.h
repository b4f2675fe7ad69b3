// The kernel coverage scan: which GPU targets each library carries and whether they cover this machine's GPUs.
#pragma once

#include "core/snapshot/arch_coverage.h"
#include "core/snapshot/arch_coverage_json.h"
#include "core/archscan/byte_view.h"
#include "core/snapshot/snapshot.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace stackscope::archscan {


// Scans bytes already in memory (the fuzzer, tests): an ELF with .hip_fatbin / .nv_fatbin, a raw
// offload bundle (plain or CCOB) or a raw fatbin. Never throws: problems land in `errors`.
LibraryScan scanBinaryBytes(ByteView bytes, const std::string& label);
// Maps and scans one file. `quietIfNoGpuCode`: a file that is no ELF or has no GPU section gives nullopt
// instead of an entry with an error (used when walking folders).
std::optional<LibraryScan> scanBinaryFile(const std::string& path, bool quietIfNoGpuCode = false);
// A file, a Tensile or MIOpen folder, or any other folder (its ELF files, three levels deep).
std::vector<LibraryScan> scanPath(const std::string& path);

// One entry of the default scan set and why it is in it.
struct DefaultScanPath {
    std::string path;
    std::string reason;           // "libtorch's GPU library", "rocBLAS Tensile library of the loaded ROCm" ...
    bool quietIfNoGpuCode = false; // StackScope's module folders hold CPU-only files too
};
// Default set for a machine: libtorch_hip.so/libtorch_cuda.so beside the loaded libtorch, rocBLAS and
// hipBLASLt library folders of the loaded ROCm (or ROCBLAS_/HIPBLASLT_TENSILE_LIBPATH), those the
// PyTorch wheel bundles, MIOpen's databases, StackScope's own modules. Only existing paths;
// `notes` receives what could not be located.
std::vector<DefaultScanPath> defaultScanSet(const Snapshot& snapshot, std::vector<std::string>* notes = nullptr);

// GPU architectures of the snapshot's devices (gfx1100, gfx90a:sramecc+:xnack-, sm_90), without duplicates.
std::vector<std::string> snapshotDevices(const Snapshot& snapshot);

struct CoverageRequest {
    std::vector<std::string> paths;    // empty: the default set of `snapshot`
    std::vector<std::string> devices;  // added to the snapshot's devices
    std::optional<std::string> hsaOverride; // default: the snapshot's HSA_OVERRIDE_GFX_VERSION
};
// The whole scan; the value the snapshot's `arch_coverage` and the System page's matrix are made from.
ArchCoverage scanCoverage(const Snapshot& snapshot, const CoverageRequest& request = {});
// Scans given libraries against given devices, with no snapshot (tests, --root replays).
ArchCoverage scanCoverage(const std::vector<std::string>& paths, const std::vector<std::string>& devices,
                          const std::optional<std::string>& hsaOverride = std::nullopt);


} // namespace stackscope::archscan
