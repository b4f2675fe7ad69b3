// Facts read from files (/etc, /opt, /sys, /proc, /dev), so a recorded root can be replayed.
#pragma once

#include "core/inspect/system_root.h"
#include "core/snapshot/snapshot.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stackscope {

HostInfo readHostInfo(const SystemRoot& root);

// $ROCM_PATH, /opt/rocm, /opt/rocm-*, and the distribution's packages (libamdhip64 under /usr),
// one entry per real folder, with the version from .info/version or the dpkg database.
std::vector<RocmInstall> findRocmInstalls(const SystemRoot& root, const std::optional<std::string>& rocmPath);

// /sys/module/amdgpu/version (DKMS builds); "in-tree (kernel X)" when the module is built in.
std::optional<std::string> readAmdgpuDriverVersion(const SystemRoot& root, const std::optional<std::string>& kernel);

// GPUs from /sys/class/drm (vendor, PCI slot, VRAM) and the KFD topology (gfx target), named
// through pci.ids when present.
std::vector<GpuInfo> readSysfsGpus(const SystemRoot& root);

// amdgpu's firmware versions of a GPU ("mec" -> "0x00000210") from <device>/fw_version/*_fw_version.
std::map<std::string, std::string> readAmdgpuFirmware(const SystemRoot& root, const std::string& devicePath);
// The PCIe links from a GPU's device folder up to its root port (current/max speed and width); `address`
// names the device when the folder is not a link into /sys/devices (recorded roots).
std::vector<PcieLink> readPcieLinks(const SystemRoot& root, const std::string& devicePath, const std::string& address);
// The "Key: value" fields of /proc/driver/nvidia/gpus/<bus>/information ("Model", "Video BIOS", ...), trimmed.
std::map<std::string, std::string> nvidiaInformationFields(const std::string& information);
// "Video BIOS" (-> "vbios") and "GPU Firmware" (GSP, -> "gsp") of those fields.
std::map<std::string, std::string> readNvidiaFirmware(const std::map<std::string, std::string>& fields);

// NVIDIA GPUs and driver from /proc/driver/nvidia.
std::vector<GpuInfo> readNvidiaProcGpus(const SystemRoot& root);
std::optional<std::string> readNvidiaDriverVersion(const SystemRoot& root);

// /dev/kfd, /dev/dri/renderD*, their groups and modes, the user's groups. Live: stat() and
// access(); under a root: the recorded listing in <root>/.stackscope/dev-stat and .stackscope/id.
AccessInfo readDeviceAccess(const SystemRoot& root);

// The environment variables that steer the stack (isStackEnvironmentVariable), only those set; nullopt for a recorded
// root without .stackscope/env (not recorded: unknown, not "none set").
std::optional<std::map<std::string, std::string>> readGpuEnvironment(const SystemRoot& root);

// "gfx" name for a KFD gfx_target_version (110000 -> gfx1100, 90010 -> gfx90a).
std::string gfxNameFromTargetVersion(unsigned long version);
// Normalises a PCI address to "dddd:bb:dd.f" lower case ("00000000:18:00.0" -> "0000:18:00.0").
std::string normalizePciBus(const std::string& bus);

} // namespace stackscope
