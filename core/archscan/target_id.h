// GPU target names: AMD target ids with features, offload-bundle entry ids, CUDA sm_/compute_ names.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stackscope::archscan {

struct AmdTargetId {
    std::string processor;                       // gfx90a, gfx11-generic
    std::map<std::string, std::string> features; // xnack -> "+" | "-"
};

// "gfx90a:sramecc+:xnack-" -> {gfx90a, {sramecc:+, xnack:-}}; nullopt when it is not a gfx target id.
std::optional<AmdTargetId> parseAmdTargetId(const std::string& id);

struct BundleEntryId {
    std::string kind;     // host, hip, hipv4, openmp
    std::string triple;   // amdgcn-amd-amdhsa-
    std::string targetId; // gfx1030, gfx90a:xnack-; empty for host entries
};
// "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-" (also the old "hip-amdgcn-amd-amdhsa-gfx906").
BundleEntryId parseBundleEntryId(const std::string& id);

// A whole AMD processor name: gfx followed by hex digits (gfx90a, gfx1100) or a generic target.
bool isAmdProcessorName(const std::string& name);
// Processors a generic target (gfx11-generic) runs on, from LLVM's AMDGPUUsage table; empty if not generic.
const std::vector<std::string>& genericTargetMembers(const std::string& generic);

struct CudaArch {
    int major = 0;
    int minor = 0;
    char suffix = 0; // 'a' arch-specific, 'f' family-specific, 0 plain
};
// "sm_90a" / "compute_90" / "sm_120" -> {9, 0, 'a'}; nullopt otherwise.
std::optional<CudaArch> parseCudaArch(const std::string& name);
std::string cudaArchName(const CudaArch& a, const char* prefix); // prefix "sm_" or "compute_"

// HSA_OVERRIDE_GFX_VERSION value ("11.0.0", "9.0.10") -> the processor HIP then reports (gfx1100, gfx90a).
std::optional<std::string> overrideToProcessor(const std::string& value);
// The value that makes a device report `processor` (gfx1030 -> "10.3.0").
std::optional<std::string> processorToOverride(const std::string& processor);

// Whole-token gfx names in a file name: "TensileLibrary_gfx90a-xnack+.dat" -> {gfx90a with xnack+}.
// "gfx1100" is one token, so gfx110 never matches it.
std::vector<AmdTargetId> gfxTokensInName(const std::string& name);

} // namespace stackscope::archscan
