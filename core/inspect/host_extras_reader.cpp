// Host facts for issue 22's rules (see host_extras_reader.h).
#include "core/inspect/host_extras_reader.h"

#include "core/util/subprocess.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
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
    readKernelLog(root, h);
    if (root.isLive())
        h.dkmsStatus = runDkmsStatus();
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

namespace {

// amdgpu/KFD lines, and the NVIDIA driver's (NVRM: Xid events, "nvidia-modeset", "NVRM: API mismatch").
bool isGpuLine(const std::string& line)
{
    return line.find("amdgpu") != std::string::npos || line.find("kfd") != std::string::npos
        || line.find("NVRM:") != std::string::npos || line.find("nvidia") != std::string::npos;
}

void keepLast(std::deque<std::string>& keep, const std::string& line)
{
    keep.push_back(line.substr(0, 1024));
    if (keep.size() > kKernelLogGpuLines)
        keep.pop_front();
}

// /dev/kmsg, non-blocking: one record per read(), EAGAIN at the end of the ring buffer, EPIPE when a record was
// overwritten while reading (go on). Readable by root, or by anyone when kernel.dmesg_restrict is 0.
std::optional<std::deque<std::string>> readKmsg(int& error)
{
    const int fd = ::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        error = errno;
        return std::nullopt;
    }
    std::deque<std::string> keep;
    char record[8192];
    // The ring buffer holds at most a few MiB (CONFIG_LOG_BUF_SHIFT); 1<<20 records bounds a misbehaving device.
    for (int i = 0; i < (1 << 20); ++i) {
        const ssize_t n = ::read(fd, record, sizeof record - 1);
        if (n < 0 && errno == EPIPE)
            continue;
        if (n <= 0)
            break;
        std::string line(record, static_cast<std::size_t>(n));
        const auto semi = line.find(';'); // "6,1234,5678,-;message\n" then continuation lines
        line = line.substr(semi == std::string::npos ? 0 : semi + 1);
        line = line.substr(0, line.find('\n'));
        if (isGpuLine(line))
            keepLast(keep, line);
    }
    ::close(fd);
    return keep;
}

} // namespace

std::vector<std::string> readKernelLogGpuLines(const SystemRoot& root)
{
    HostExtras h;
    readKernelLog(root, h);
    return h.kernelLogGpuLines;
}

void readKernelLog(const SystemRoot& root, HostExtras& h)
{
    std::string why;
    if (root.isLive()) {
        // dmesg(1) reads /dev/kmsg or syslog(2), both behind the same dmesg_restrict check: no second try.
        int error = 0;
        if (auto kept = readKmsg(error)) {
            h.kernelLogGpuLines.assign(kept->begin(), kept->end());
            h.kernelLogSource = "/dev/kmsg";
            return;
        }
        why = fmt::format("/dev/kmsg: {} (root, or sysctl kernel.dmesg_restrict=0, may read it)", std::strerror(error));
    }
    for (const char* file : {"/var/log/kern.log", "/var/log/messages"}) {
        auto text = root.readText(file, 8u << 20);
        if (!text)
            continue;
        std::deque<std::string> keep;
        std::istringstream in(*text);
        std::string line;
        while (std::getline(in, line)) {
            if (isGpuLine(line))
                keepLast(keep, line);
        }
        h.kernelLogGpuLines.assign(keep.begin(), keep.end());
        h.kernelLogSource = file;
        if (!why.empty())
            h.kernelLogNote = why; // the live ring buffer was not readable; the log file may be older
        return;
    }
    h.kernelLogNote = (why.empty() ? "" : why + "; ") + "no readable /var/log/kern.log or /var/log/messages";
}

std::vector<std::string> runDkmsStatus()
{
    // `dkms status` lists every module DKMS knows, e.g. "amdgpu/6.8.5-2041575.24.04, 6.8.0-45-generic, x86_64: installed".
    const auto r = runProcess({"dkms", "status"}, std::chrono::seconds(10), {}, 64u << 10);
    std::vector<std::string> lines;
    if (!r.started || r.timedOut || r.exitCode != 0)
        return lines;
    std::istringstream in(r.out);
    std::string line;
    while (std::getline(in, line) && lines.size() < 64) {
        if (!trim(line).empty())
            lines.push_back(trim(line).substr(0, 512));
    }
    return lines;
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
