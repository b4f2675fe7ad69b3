// GPU facts for the probes from the vendor runtime libtorch already loaded (CUDA or HIP), found at run time.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace stackscope::probe {

// The device's name from the driver (cuDeviceGetName / hipDeviceGetName), or "GPU <n>".
std::string gpuName(int index);
// name, compute capability and multiprocessor count (CUDA), memory total/free; what could not be read
// is left out and "why" says so.
nlohmann::json gpuProperties(int index);
// total_bytes, free_bytes, used_bytes from cudaMemGetInfo/hipMemGetInfo, or {"why": ...}.
nlohmann::json gpuMemory(int index);

} // namespace stackscope::probe
