// The CUDA toolkit -> minimum NVIDIA driver table (resources/rules/matrices/cuda-driver.json, from the CUDA release
// notes and the CUDA Compatibility guide), and the fact it gives a snapshot: a CUDA PyTorch built for a toolkit
// whose driver branch the installed driver is below cannot initialise CUDA at all.
#pragma once

#include "core/snapshot/snapshot.h"

#include <optional>
#include <string>

namespace stackscope {

struct CudaDriverRow {
    std::string cuda;           // "12.8"
    std::string minDriver;      // "570.26": the toolkit's own driver (every feature)
    std::string minCompatDriver; // "525": the branch from which minor-version compatibility runs it; empty: none
};

// Nullopt for a toolkit the table does not list (newer than it, or malformed).
std::optional<CudaDriverRow> cudaDriverRow(const std::string& cudaVersion);

// The fact in words when the snapshot's driver is below what its CUDA torch needs even with minor-version
// compatibility ("torch built with CUDA 12.8 needs an NVIDIA driver of branch 525 or later (570.26 for every
// feature); this one is 470.57.02"); nullopt when it is new enough, a version is unknown, or torch found the GPU
// (forward compatibility: https://docs.nvidia.com/deploy/cuda-compatibility/forward-compatibility.html).
std::optional<std::string> cudaDriverOlderThanTorch(const Snapshot& s);

} // namespace stackscope
