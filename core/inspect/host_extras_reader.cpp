// Host facts for issue 22's rules (see host_extras_reader.h).
#include "core/inspect/host_extras_reader.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <sstream>

namespace stackscope {

HostExtras readHostExtras(const SystemRoot& root)
{
    HostExtras h;
    h.kernelCmdline = root.readLine("/proc/cmdline");
    h.secureBoot = readSecureBoot(root);
    h.wsl = readWsl(root);
    h.dkms = readDkmsModules(root);
    h.kernelLogGpuLines = readKernelLogGpuLines(root);
    return h;
}

std::optional<bool> readSecureBoot(const SystemRoot& root)
{
    // efivarfs: 4 bytes of attributes, then the variable's data (one byte, 1 = Secure Boot on).
    const std::string var = "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c";
    if (auto data = root.readText(var, 64); data && data->size() >= 5)
        return (*data)[4] == 1;
    if (root.isDirectory("/sys/firmware/efi"))
        return std::nullopt; // UEFI, but the variable is unreadable
    if (root.exists("/proc/version"))
        return false; // legacy BIOS boot: no Secure Boot
    return std::nullopt;
}

std::optional<bool> readWsl(const SystemRoot& root)
{
    if (root.exists("/dev/dxg"))
        return true;
    auto version = root.readLine("/proc/version");
    if (!version)
        return std::nullopt;
    std::string low = *version;
    std::transform(low.begin(), low.end(), low.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return low.find("microsoft") != std::string::npos;
}

std::vector<std::string> readKernelLogGpuLines(const SystemRoot& root)
{
    std::deque<std::string> keep;
    for (const char* file : {"/var/log/kern.log", "/var/log/messages"}) {
        auto text = root.readText(file, 8u << 20);
        if (!text)
            continue;
        std::istringstream in(*text);
        std::string line;
        while (std::getline(in, line)) {
            if (line.find("amdgpu") == std::string::npos && line.find("kfd") == std::string::npos)
                continue;
            keep.push_back(line.substr(0, 1024));
            if (keep.size() > kKernelLogGpuLines)
                keep.pop_front();
        }
        break;
    }
    return {keep.begin(), keep.end()};
}

std::vector<DkmsModule> readDkmsModules(const SystemRoot& root)
{
    // DKMS's own tree: /var/lib/dkms/amdgpu/<version>/{source,build,<kernel>/<arch>/module/}
    std::vector<DkmsModule> out;
    for (const auto& version : root.list("/var/lib/dkms/amdgpu")) {
        const std::string dir = "/var/lib/dkms/amdgpu/" + version;
        if (version.rfind("kernel-", 0) == 0 || version == "original_module" || !root.isDirectory(dir))
            continue;
        bool anyKernel = false;
        for (const auto& kernel : root.list(dir)) {
            if (kernel == "source" || kernel == "build" || !root.isDirectory(dir + "/" + kernel))
                continue;
            for (const auto& arch : root.list(dir + "/" + kernel)) {
                const bool built = root.isDirectory(dir + "/" + kernel + "/" + arch + "/module");
                out.push_back({"amdgpu", version, kernel, built ? "built" : "added"});
                anyKernel = true;
            }
        }
        if (!anyKernel)
            out.push_back({"amdgpu", version, "", root.exists(dir + "/source/dkms.conf") ? "added" : "broken (no dkms.conf)"});
    }
    return out;
}

} // namespace stackscope
