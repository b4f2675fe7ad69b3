// The few NVML and rocm_smi layouts, constants and library names StackScope uses, in one place:
// the inspection sources and the telemetry sampler open the same libraries without their headers.
#pragma once

#include "core/inspect/dynamic_library.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stackscope::vendor {

// nvml.h (stable ABI)
struct NvmlMemory {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};
struct NvmlUtilization {
    unsigned int gpu;
    unsigned int memory;
};
struct NvmlPciInfo {
    char busIdLegacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    char busId[32];
};
using NvmlDevice = void*;
inline constexpr int kNvmlSuccess = 0;
inline constexpr int kNvmlNotSupported = 3;
inline constexpr int kNvmlNoPermission = 4;
inline constexpr int kNvmlTemperatureGpu = 0;
inline constexpr int kNvmlClockSm = 1;
inline constexpr int kNvmlClockMem = 2;

// rocm_smi/rocm_smi.h
inline constexpr int kRsmiSuccess = 0;
inline constexpr int kRsmiNotSupported = 2;
inline constexpr int kRsmiPermission = 4;
inline constexpr int kRsmiNotYetImplemented = 9;
inline constexpr int kRsmiMemTypeVram = 0;           // RSMI_MEM_TYPE_VRAM
inline constexpr int kRsmiSwCompDriver = 0;          // RSMI_SW_COMP_DRIVER
inline constexpr std::uint32_t kRsmiTempTypeEdge = 0; // RSMI_TEMP_TYPE_EDGE
inline constexpr std::uint32_t kRsmiTempTypeJunction = 1;
inline constexpr int kRsmiTempCurrent = 0;           // RSMI_TEMP_CURRENT

// Where each library is looked for (see vendorLibraryCandidates for the order).
inline std::vector<std::string> nvmlCandidates()
{
    return vendorLibraryCandidates("STACKSCOPE_NVML_LIBRARY", {"libnvidia-ml.so.1"}, false);
}
inline std::vector<std::string> rocmSmiCandidates()
{
    return vendorLibraryCandidates("STACKSCOPE_ROCM_SMI_LIBRARY", {"librocm_smi64.so", "librocm_smi64.so.7",
                                   "librocm_smi64.so.6", "librocm_smi64.so.5", "librocm_smi64.so.1"}, true);
}

} // namespace stackscope::vendor
