// Which environment variables steer the GPU stack, so a snapshot records them (issue 32): every variable of the
// stack's own families (CUDA_*, HIP_*, ROCR_*, HSA_*, NCCL_*, RCCL_*, TORCH_*, PYTORCH_*, OMP_*, ...) plus the loader's
// and the launchers'. One predicate for the live inspection, recorded roots and the facts a pasted log states.
#pragma once

#include <string_view>

namespace stackscope {

bool isStackEnvironmentVariable(std::string_view name);

} // namespace stackscope
