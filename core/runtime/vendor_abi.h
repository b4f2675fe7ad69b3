// The few NVML and rocm_smi layouts, constants and library names StackScope uses, in one place:
// the inspection sources and the telemetry sampler open the same libraries without their headers.
#pragma once

#include "core/runtime/dynamic_library.h"

#include <cstdint>
#include <string>
#include <utility>
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
// nvmlProcessInfo_v2_t / _v3_t (the same four fields).
struct NvmlProcessInfo {
    unsigned pid;
    unsigned long long usedGpuMemory; // NVML_VALUE_NOT_AVAILABLE (all ones) where not known
    unsigned gpuInstanceId;
    unsigned computeInstanceId;
};
inline constexpr int kNvmlInsufficientSize = 7;
inline constexpr int kNvmlSuccess = 0;
inline constexpr int kNvmlNotSupported = 3;
inline constexpr int kNvmlNoPermission = 4;
inline constexpr int kNvmlTemperatureGpu = 0;
inline constexpr int kNvmlClockSm = 1;
inline constexpr int kNvmlClockMem = 2;
inline constexpr unsigned kNvmlNvlinkMaxLinks = 18; // NVML_NVLINK_MAX_LINKS
inline constexpr unsigned long long kNvmlClockEventGpuIdle = 0x1;

// nvml.h's nvmlClocksEventReasons bits, named as nvidia-smi -q names them (the inspection and the suite's sampler).
inline std::vector<std::string> nvmlClockEventNames(unsigned long long bits)
{
    static const std::pair<unsigned long long, const char*> kNames[] = {
        {kNvmlClockEventGpuIdle, "gpu_idle"}, {0x2, "applications_clocks_setting"}, {0x4, "sw_power_cap"},
        {0x8, "hw_slowdown"}, {0x10, "sync_boost"}, {0x20, "sw_thermal_slowdown"}, {0x40, "hw_thermal_slowdown"},
        {0x80, "hw_power_brake_slowdown"}, {0x100, "display_clock_setting"}};
    std::vector<std::string> out;
    for (const auto& [bit, name] : kNames)
        if (bits & bit)
            out.push_back(name);
    return out;
}

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

// The NVML functions StackScope calls (nvml.h signatures), looked up once in an opened library by the inspection
// and the telemetry sampler alike; one the library lacks (an older driver) is null.
struct NvmlApi {
    int (*init)() = nullptr;                                      // nvmlInit_v2
    int (*shutdown)() = nullptr;                                  // nvmlShutdown
    int (*count)(unsigned*) = nullptr;                            // nvmlDeviceGetCount_v2
    int (*handle)(unsigned, NvmlDevice*) = nullptr;               // nvmlDeviceGetHandleByIndex_v2
    int (*name)(NvmlDevice, char*, unsigned) = nullptr;           // nvmlDeviceGetName
    int (*memory)(NvmlDevice, NvmlMemory*) = nullptr;             // nvmlDeviceGetMemoryInfo
    int (*utilization)(NvmlDevice, NvmlUtilization*) = nullptr;   // nvmlDeviceGetUtilizationRates
    int (*temperature)(NvmlDevice, int, unsigned*) = nullptr;     // nvmlDeviceGetTemperature
    int (*power)(NvmlDevice, unsigned*) = nullptr;                // nvmlDeviceGetPowerUsage (milliwatts)
    int (*clock)(NvmlDevice, int, unsigned*) = nullptr;           // nvmlDeviceGetClockInfo
    int (*pci)(NvmlDevice, NvmlPciInfo*) = nullptr;               // nvmlDeviceGetPciInfo_v3
    int (*computeCapability)(NvmlDevice, int*, int*) = nullptr;   // nvmlDeviceGetCudaComputeCapability
    int (*driverVersion)(char*, unsigned) = nullptr;              // nvmlSystemGetDriverVersion
    int (*cudaDriverVersion)(int*) = nullptr;                     // nvmlSystemGetCudaDriverVersion
    const char* (*errorString)(int) = nullptr;                    // nvmlErrorString
    int (*computeProcesses)(NvmlDevice, unsigned*, NvmlProcessInfo*) = nullptr; // nvmlDeviceGetComputeRunningProcesses_v3 (_v2)
    int (*computeMode)(NvmlDevice, int*) = nullptr;               // nvmlDeviceGetComputeMode
    int (*persistenceMode)(NvmlDevice, int*) = nullptr;           // nvmlDeviceGetPersistenceMode
    int (*clockEventReasons)(NvmlDevice, unsigned long long*) = nullptr; // nvmlDeviceGetCurrentClocksEventReasons (...ThrottleReasons)
    int (*nvlinkState)(NvmlDevice, unsigned, int*) = nullptr;               // nvmlDeviceGetNvLinkState (nvmlEnableState_t)
    int (*nvlinkVersion)(NvmlDevice, unsigned, unsigned*) = nullptr;        // nvmlDeviceGetNvLinkVersion
    int (*nvlinkRemotePci)(NvmlDevice, unsigned, NvmlPciInfo*) = nullptr;   // nvmlDeviceGetNvLinkRemotePciInfo_v2
    int (*nvlinkRemoteType)(NvmlDevice, unsigned, int*) = nullptr;          // nvmlDeviceGetNvLinkRemoteDeviceType

    NvmlApi() = default;
    explicit NvmlApi(const DynamicLibrary& lib)
        : init(lib.symbol<decltype(init)>("nvmlInit_v2"))
        , shutdown(lib.symbol<decltype(shutdown)>("nvmlShutdown"))
        , count(lib.symbol<decltype(count)>("nvmlDeviceGetCount_v2"))
        , handle(lib.symbol<decltype(handle)>("nvmlDeviceGetHandleByIndex_v2"))
        , name(lib.symbol<decltype(name)>("nvmlDeviceGetName"))
        , memory(lib.symbol<decltype(memory)>("nvmlDeviceGetMemoryInfo"))
        , utilization(lib.symbol<decltype(utilization)>("nvmlDeviceGetUtilizationRates"))
        , temperature(lib.symbol<decltype(temperature)>("nvmlDeviceGetTemperature"))
        , power(lib.symbol<decltype(power)>("nvmlDeviceGetPowerUsage"))
        , clock(lib.symbol<decltype(clock)>("nvmlDeviceGetClockInfo"))
        , pci(lib.symbol<decltype(pci)>("nvmlDeviceGetPciInfo_v3"))
        , computeCapability(lib.symbol<decltype(computeCapability)>("nvmlDeviceGetCudaComputeCapability"))
        , driverVersion(lib.symbol<decltype(driverVersion)>("nvmlSystemGetDriverVersion"))
        , cudaDriverVersion(lib.symbol<decltype(cudaDriverVersion)>("nvmlSystemGetCudaDriverVersion"))
        , errorString(lib.symbol<decltype(errorString)>("nvmlErrorString"))
        , computeProcesses(lib.symbol<decltype(computeProcesses)>("nvmlDeviceGetComputeRunningProcesses_v3"))
        , computeMode(lib.symbol<decltype(computeMode)>("nvmlDeviceGetComputeMode"))
        , persistenceMode(lib.symbol<decltype(persistenceMode)>("nvmlDeviceGetPersistenceMode"))
        , clockEventReasons(lib.symbol<decltype(clockEventReasons)>("nvmlDeviceGetCurrentClocksEventReasons"))
        , nvlinkState(lib.symbol<decltype(nvlinkState)>("nvmlDeviceGetNvLinkState"))
        , nvlinkVersion(lib.symbol<decltype(nvlinkVersion)>("nvmlDeviceGetNvLinkVersion"))
        , nvlinkRemotePci(lib.symbol<decltype(nvlinkRemotePci)>("nvmlDeviceGetNvLinkRemotePciInfo_v2"))
        , nvlinkRemoteType(lib.symbol<decltype(nvlinkRemoteType)>("nvmlDeviceGetNvLinkRemoteDeviceType"))
    {
        if (!computeProcesses)
            computeProcesses = lib.symbol<decltype(computeProcesses)>("nvmlDeviceGetComputeRunningProcesses_v2");
        if (!clockEventReasons)
            clockEventReasons = lib.symbol<decltype(clockEventReasons)>("nvmlDeviceGetCurrentClocksThrottleReasons");
    }
    // What every use needs: without these the library is too old or broken.
    bool hasCore() const { return init && count && handle; }
};

// The rocm_smi functions StackScope calls (rocm_smi.h signatures), the same way.
struct RocmSmiApi {
    int (*init)(std::uint64_t) = nullptr;                                       // rsmi_init
    int (*shutdown)() = nullptr;                                                // rsmi_shut_down
    int (*numDevices)(std::uint32_t*) = nullptr;                                // rsmi_num_monitor_devices
    int (*name)(std::uint32_t, char*, size_t) = nullptr;                        // rsmi_dev_name_get
    int (*memTotal)(std::uint32_t, int, std::uint64_t*) = nullptr;              // rsmi_dev_memory_total_get
    int (*memUsed)(std::uint32_t, int, std::uint64_t*) = nullptr;               // rsmi_dev_memory_usage_get
    int (*pciId)(std::uint32_t, std::uint64_t*) = nullptr;                      // rsmi_dev_pci_id_get
    int (*versionString)(int, char*, std::uint32_t) = nullptr;                  // rsmi_version_str_get
    int (*busy)(std::uint32_t, std::uint32_t*) = nullptr;                       // rsmi_dev_busy_percent_get
    int (*temperature)(std::uint32_t, std::uint32_t, int, std::int64_t*) = nullptr; // rsmi_dev_temp_metric_get
    int (*powerAverage)(std::uint32_t, std::uint32_t, std::uint64_t*) = nullptr;    // rsmi_dev_power_ave_get
    int (*powerSocket)(std::uint32_t, std::uint64_t*) = nullptr;                // rsmi_dev_current_socket_power_get
    int (*statusString)(int, const char**) = nullptr;                           // rsmi_status_string

    RocmSmiApi() = default;
    explicit RocmSmiApi(const DynamicLibrary& lib)
        : init(lib.symbol<decltype(init)>("rsmi_init"))
        , shutdown(lib.symbol<decltype(shutdown)>("rsmi_shut_down"))
        , numDevices(lib.symbol<decltype(numDevices)>("rsmi_num_monitor_devices"))
        , name(lib.symbol<decltype(name)>("rsmi_dev_name_get"))
        , memTotal(lib.symbol<decltype(memTotal)>("rsmi_dev_memory_total_get"))
        , memUsed(lib.symbol<decltype(memUsed)>("rsmi_dev_memory_usage_get"))
        , pciId(lib.symbol<decltype(pciId)>("rsmi_dev_pci_id_get"))
        , versionString(lib.symbol<decltype(versionString)>("rsmi_version_str_get"))
        , busy(lib.symbol<decltype(busy)>("rsmi_dev_busy_percent_get"))
        , temperature(lib.symbol<decltype(temperature)>("rsmi_dev_temp_metric_get"))
        , powerAverage(lib.symbol<decltype(powerAverage)>("rsmi_dev_power_ave_get"))
        , powerSocket(lib.symbol<decltype(powerSocket)>("rsmi_dev_current_socket_power_get"))
        , statusString(lib.symbol<decltype(statusString)>("rsmi_status_string"))
    {
    }
    bool hasCore() const { return init && numDevices; }
};

// Where each library is looked for (see vendorLibraryCandidates for the order).
inline std::vector<std::string> nvmlCandidates()
{
    return vendorLibraryCandidates(EnvVar::NvmlLibrary, {"libnvidia-ml.so.1"}, false);
}
inline std::vector<std::string> rocmSmiCandidates()
{
    return vendorLibraryCandidates(EnvVar::RocmSmiLibrary, {"librocm_smi64.so", "librocm_smi64.so.7",
                                   "librocm_smi64.so.6", "librocm_smi64.so.5", "librocm_smi64.so.1"}, true);
}

} // namespace stackscope::vendor
