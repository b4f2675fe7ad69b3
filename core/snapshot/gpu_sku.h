// An NVIDIA GPU's architecture (compute capability) from its marketing name, for snapshots where no driver library
// said it (a recorded machine read from /proc: "NVIDIA H100 80GB HBM3" -> sm_90).
#pragma once

#include <optional>
#include <string>

namespace stackscope {

// "sm_90" for a name this table knows (data-centre and GeForce/RTX parts from Volta on), nullopt otherwise. The table
// follows NVIDIA's CUDA GPUs list (https://developer.nvidia.com/cuda-gpus).
std::optional<std::string> nvidiaArchFromName(const std::string& name);

} // namespace stackscope
