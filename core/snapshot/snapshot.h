// The snapshot: every fact StackScope gathered about one machine, as plain values.
#pragma once

#include "core/snapshot/arch_coverage.h"
#include "core/snapshot/finding.h"
#include "core/snapshot/host_extras.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stackscope {

inline constexpr const char* kSnapshotSchema = "stackscope.snapshot/1";

// One PCIe link on a GPU's path to the CPU, as the PCI core's sysfs shows it from the device's side.
struct PcieLink {
    std::string device;                      // PCI address of the device reporting it ("0000:01:00.0")
    std::optional<std::string> currentSpeed; // "16.0 GT/s PCIe"
    std::optional<std::string> maxSpeed;
    std::optional<int> currentWidth;         // lanes
    std::optional<int> maxWidth;
};

// A process holding memory on a GPU (NVML's running compute processes; pid, user and command from /proc).
struct GpuProcess {
    std::uint32_t pid = 0;
    std::optional<std::uint64_t> usedBytes; // unknown where the driver does not say (no permission, MIG)
    std::optional<std::string> user;
    std::optional<std::string> command;
};

// One active NVLink of an NVIDIA GPU (NVML): where it goes. A link to an NVSwitch serves every peer on the fabric.
struct NvLink {
    int link = 0;
    std::optional<unsigned> version;          // nvmlDeviceGetNvLinkVersion's raw value
    std::optional<std::string> remotePciBus;  // normalized, "0000:19:00.0"
    std::string remoteType = "unknown";       // "gpu" | "switch" | "npu" | "unknown"
};

struct GpuInfo {
    int index = 0;
    std::string vendor; // "amd" | "nvidia" | "other"
    std::string name;
    // false: `name` is a stand-in ("AMD GPU gfx1100 (name unknown: ...)", a KFD node without a /sys/class/drm entry),
    // so the name is unknown, never a difference from a machine that knows it.
    bool nameKnown = true;
    std::optional<std::string> arch; // gcnArchName (gfx1100) or sm_90
    std::optional<std::uint64_t> vramTotalBytes;
    std::optional<std::uint64_t> vramUsedBytes;
    std::optional<std::string> pciBus; // 0000:03:00.0
    std::optional<std::string> driverVersion;
    std::string source; // which sources said so, joined with '+'
    // Firmware versions by block ("mec" -> "0x00000210"): amdgpu's fw_version/*_fw_version, NVIDIA's VBIOS.
    std::map<std::string, std::string> firmware;
    // The GPU function's own link first, then each bridge above it up to the root port (an AMD card's real
    // slot link is on its on-board switch's upstream port, not on the GPU function).
    std::vector<PcieLink> pcieLinks;
    // Who holds memory on it; `processesKnown` false when the driver could not be asked (unknown, not "none").
    std::vector<GpuProcess> processes;
    bool processesKnown = false;
    std::optional<std::string> computeMode;     // "default" | "exclusive_process" | "prohibited" (NVML)
    std::optional<bool> persistenceMode;
    std::vector<std::string> clockEventReasons; // why clocks are held down now ("sw_thermal", "hw_slowdown" ...)
    // Active NVLinks; `nvlinksKnown` false where NVML was not asked or has no NVLink calls (unknown, not "none").
    std::vector<NvLink> nvlinks;
    bool nvlinksKnown = false;
};

struct RocmInstall {
    std::string path;
    std::optional<std::string> version;
    std::string versionSource; // ".info/version", "dpkg", "hip runtime"
};

struct RocmInfo {
    std::vector<RocmInstall> installs;
    std::optional<std::string> loadedPath; // path of the libamdhip64 the process loaded
    std::optional<std::string> hipRuntimeVersion;
    std::optional<std::string> hipDriverVersion;
    std::optional<std::string> amdgpuDriverVersion;
};

struct CudaInfo {
    std::optional<std::string> driverVersion;   // NVIDIA kernel driver, 580.159.04
    std::optional<std::string> cudaDriverVersion; // CUDA version the driver supports, 13.0
    std::optional<std::string> runtimeVersion;  // libcudart, 12.8
    std::optional<std::string> runtimePath;
};

struct TorchInfo {
    std::optional<std::string> version;
    std::optional<std::string> backend; // "rocm" | "cuda" | "cpu"
    std::optional<std::string> builtWith; // HIP or CUDA version it was built with
    std::optional<std::vector<std::string>> archList;
    std::optional<std::string> blasBackend;
    std::optional<std::string> libraryPath; // libtorch.so that was loaded
    std::optional<std::string> modulePath;  // StackScope's torch module
    std::optional<int> deviceCount;
};

struct DeviceNode {
    std::string path;
    bool exists = false;
    std::optional<bool> readWrite;
    std::optional<std::string> group;
    std::optional<std::string> mode; // octal, 0660
};

struct AccessInfo {
    DeviceNode kfd;
    std::vector<DeviceNode> renderNodes;
    std::optional<std::string> user;
    std::vector<std::string> userGroups;
};

struct LoadAttempt {
    std::string path;
    std::string error; // the loader's message; empty for the attempt that loaded
};

// A vendor or StackScope library opened at run time.
struct LibraryStatus {
    std::string component; // "HIP runtime", "rocm_smi", "NVML", "CUDA runtime", "CUDA driver", "libtorch module"
    bool loaded = false;
    std::optional<std::string> path; // what the loader mapped
    std::vector<LoadAttempt> tried;
    std::optional<std::string> error; // a failure after loading (init call failed...)
};

struct HostInfo {
    std::optional<std::string> os;
    std::optional<std::string> kernel;
    std::optional<std::string> hostname;
};

struct Snapshot {
    std::string capturedAt; // ISO-8601 UTC
    std::optional<std::string> root; // set when facts were read under --root
    HostInfo host;
    HostExtras hostExtras; // kernel command line, Secure Boot, WSL, DKMS, kernel log lines (JSON "host_extras")
    std::vector<GpuInfo> gpus;
    RocmInfo rocm;
    CudaInfo cuda;
    TorchInfo torch;
    AccessInfo access;
    std::map<std::string, std::string> env;
    // false: the environment was not recorded (a root without .stackscope/env): unknown, not "none set". JSON "env": null.
    bool envKnown = true;
    std::vector<LibraryStatus> libraries;
    // The kernel coverage scan (JSON "arch_coverage", "stackscope.archscan/1", see core/archscan); empty when not scanned.
    std::optional<archscan::ArchCoverage> archCoverage;
    // The Python environments found (core/python/python_envs.h, docs/python-environments.md); null when not looked for.
    nlohmann::json pythonEnvs;
    std::vector<Finding> findings; // the system checks' (core/inspect/system_checks.h)
};

} // namespace stackscope
