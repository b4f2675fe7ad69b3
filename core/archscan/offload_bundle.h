// Clang offload bundles (`__CLANG_OFFLOAD_BUNDLE__` and the compressed `CCOB` form) in a .hip_fatbin.
#pragma once

#include "core/snapshot/arch_coverage.h"
#include "core/archscan/byte_view.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stackscope::archscan {

// Only the bundle's header (entry table) is decompressed: the ids are all the scanner needs, and a
// library can hold gigabytes of code objects. The header of a real bundle is a few kilobytes.
inline constexpr std::uint64_t kMaxBundleHeaderBytes = 1u << 20;
// A bundle claiming more entries than this is damaged (real ones hold one per target plus the host).
inline constexpr std::uint64_t kMaxBundleEntries = 4096;

struct BundleScan {
    std::vector<ScannedTarget> targets; // unique, in order of first appearance; host entries left out
    std::uint64_t bundles = 0;
    std::vector<std::string> errors;   // one per damaged bundle (the first kMaxErrorsKept); the walk goes on
    std::uint64_t errorsNotKept = 0;   // damaged bundles beyond that cap
    std::uint64_t targetsNotKept = 0;  // distinct targets beyond kMaxTargetsKept
};

// Walks every bundle in a .hip_fatbin section (or a raw bundle file).
BundleScan scanOffloadBundles(ByteView section);

// One bundle's entry ids; throws FormatError. `consumed` receives the bundle's size within `data`.
std::vector<std::string> readUncompressedBundleIds(ByteView data, std::uint64_t* consumed);
std::vector<std::string> readCompressedBundleIds(ByteView data, std::uint64_t* consumed);

} // namespace stackscope::archscan
