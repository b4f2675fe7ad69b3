// Host facts: OS, kernel, host name; the amdgpu module version.
#include "core/inspect/file_facts.h"

#include <sstream>

namespace stackscope {

HostInfo readHostInfo(const SystemRoot& root)
{
    HostInfo h;
    if (auto text = root.readText("/etc/os-release")) {
        std::istringstream in(*text);
        std::string line;
        while (std::getline(in, line)) {
            if (line.rfind("PRETTY_NAME=", 0) != 0)
                continue;
            std::string v = trim(line.substr(12));
            if (v.size() >= 2 && (v.front() == '"' || v.front() == '\''))
                v = v.substr(1, v.size() - 2);
            h.os = v;
        }
    }
    h.kernel = root.readLine("/proc/sys/kernel/osrelease");
    h.hostname = root.readLine("/proc/sys/kernel/hostname");
    if (!h.hostname)
        h.hostname = root.readLine("/etc/hostname");
    return h;
}

std::optional<std::string> readAmdgpuDriverVersion(const SystemRoot& root, const std::optional<std::string>& kernel)
{
    if (auto v = root.readLine("/sys/module/amdgpu/version"); v && !v->empty())
        return v;
    if (root.isDirectory("/sys/module/amdgpu"))
        return "in-tree (kernel " + kernel.value_or("unknown") + ")";
    return std::nullopt;
}

} // namespace stackscope
