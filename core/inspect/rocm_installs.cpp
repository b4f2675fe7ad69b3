// Finds ROCm installs: $ROCM_PATH, /opt/rocm, /opt/rocm-*, and distribution packages.
#include "core/inspect/file_facts.h"

#include <algorithm>
#include <sstream>

namespace stackscope {

namespace {

// Version of an installed package from the dpkg database, or nullopt.
std::optional<std::string> dpkgVersion(const SystemRoot& root, const std::vector<std::string>& packages)
{
    auto status = root.readText("/var/lib/dpkg/status", 64u << 20);
    if (!status)
        return std::nullopt;
    std::istringstream in(*status);
    std::string line, package, version;
    bool installed = false;
    auto flush = [&]() -> std::optional<std::string> {
        if (installed && !version.empty() && std::find(packages.begin(), packages.end(), package) != packages.end())
            return version;
        return std::nullopt;
    };
    while (std::getline(in, line)) {
        if (line.empty()) {
            if (auto v = flush())
                return v;
            package.clear();
            version.clear();
            installed = false;
        } else if (line.rfind("Package: ", 0) == 0) {
            package = trim(line.substr(9));
        } else if (line.rfind("Version: ", 0) == 0) {
            version = trim(line.substr(9));
        } else if (line.rfind("Status: ", 0) == 0) {
            installed = line.find("install ok installed") != std::string::npos;
        }
    }
    return flush();
}

} // namespace

std::vector<RocmInstall> findRocmInstalls(const SystemRoot& root, const std::optional<std::string>& rocmPath)
{
    std::vector<std::string> candidates;
    if (rocmPath && !rocmPath->empty())
        candidates.push_back(*rocmPath);
    candidates.emplace_back("/opt/rocm");
    for (const auto& name : root.list("/opt")) {
        if (name.rfind("rocm-", 0) == 0)
            candidates.push_back("/opt/" + name);
    }

    std::vector<RocmInstall> installs;
    std::vector<std::string> seen;
    for (const auto& c : candidates) {
        if (!root.isDirectory(c))
            continue;
        const std::string real = root.canonical(c);
        if (std::find(seen.begin(), seen.end(), real) != seen.end())
            continue;
        seen.push_back(real);
        RocmInstall inst;
        inst.path = real;
        if (auto v = root.readLine(real + "/.info/version"); v && !v->empty()) {
            inst.version = *v;
            inst.versionSource = ".info/version";
        }
        installs.push_back(inst);
    }

    // Distribution packages (Debian/Ubuntu ship HIP under /usr).
    for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"}) {
        const auto names = root.list(dir);
        const bool hasHip = std::any_of(names.begin(), names.end(),
                                        [](const std::string& n) { return n.rfind("libamdhip64.so", 0) == 0; });
        if (!hasHip)
            continue;
        RocmInstall inst;
        inst.path = "/usr";
        inst.version = dpkgVersion(root, {"libamdhip64-6", "libamdhip64-5", "libamdhip64-dev", "hipcc"});
        if (inst.version)
            inst.versionSource = "dpkg";
        installs.push_back(inst);
        break;
    }
    return installs;
}

} // namespace stackscope
