// Reads the host facts of core/snapshot/host_extras.h from a machine tree (live "/" or a recorded root).
#pragma once

#include "core/inspect/system_root.h"
#include "core/snapshot/host_extras.h"

#include <cstddef>

namespace stackscope {

HostExtras readHostExtras(const SystemRoot& root);

// EFI SecureBoot variable: true/false; false on a legacy-BIOS boot; nullopt when UEFI but unreadable.
std::optional<bool> readSecureBoot(const SystemRoot& root);
// /dev/dxg or a Microsoft kernel (/proc/version); nullopt when /proc/version is unreadable.
std::optional<bool> readWsl(const SystemRoot& root);
// The last kKernelLogGpuLines lines mentioning amdgpu or kfd: live from /dev/kmsg (non-blocking), else (or
// under a recorded root) from the first 8 MiB of /var/log/kern.log or /var/log/messages. Sets
// kernelLogGpuLines and kernelLogSource, or kernelLogNote saying why nothing was readable.
inline constexpr std::size_t kKernelLogGpuLines = 50;
void readKernelLog(const SystemRoot& root, HostExtras& h);
std::vector<std::string> readKernelLogGpuLines(const SystemRoot& root);
// `dkms status` output lines when the program exists and succeeds (live machines only); empty otherwise.
std::vector<std::string> runDkmsStatus();
// amdgpu DKMS builds from DKMS's tree /var/lib/dkms/amdgpu (what `dkms status` lists).
std::vector<DkmsModule> readDkmsModules(const SystemRoot& root);

} // namespace stackscope
