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

} // namespace stackscope
