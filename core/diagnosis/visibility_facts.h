// GPUs the driver shows that the process cannot use because a visibility variable hides them (CUDA_VISIBLE_DEVICES,
// HIP_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES, GPU_DEVICE_ORDINAL): the fact behind "name the variable, never
// 'rebuild'" (issue 32).
#pragma once

#include "core/snapshot/snapshot.h"

#include <optional>
#include <string>

namespace stackscope {

// The fact in words when it holds ("CUDA_VISIBLE_DEVICES='' hides the 2 GPUs the driver shows; torch sees 0"), else
// nullopt (no GPU from the driver, no variable set, or the variable selects GPUs that exist and torch sees them).
// HIP_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES indexing past what ROCR_VISIBLE_DEVICES leaves holds without any GPU
// list (a pasted log's "export" lines are enough).
std::optional<std::string> gpusHiddenByEnvironment(const Snapshot& s);

// The fact in words when torch is built for the vendor whose GPUs are absent: a ROCm build where every GPU shown is
// NVIDIA, or a CUDA build where every GPU shown is AMD ("torch is a ROCm build; the GPUs shown are NVIDIA: ..."); else
// nullopt (backend or GPUs unknown, or a GPU of torch's vendor is there).
std::optional<std::string> torchForAbsentVendor(const Snapshot& s);

} // namespace stackscope
