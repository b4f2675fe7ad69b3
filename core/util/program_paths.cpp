// Locates the program's folder and its module folders.
#include "core/util/program_paths.h"
#include "core/util/environment.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

#ifndef STACKSCOPE_DATA_RELDIR
#define STACKSCOPE_DATA_RELDIR "../share"
#endif

#ifndef STACKSCOPE_MODULE_RELDIR
#define STACKSCOPE_MODULE_RELDIR "../lib/stackscope"
#endif

namespace stackscope {

std::string executableDirectory()
{
    std::error_code ec;
    const auto exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.parent_path().string();
}

std::vector<std::string> moduleDirectories()
{
    std::vector<std::string> out;
    // Set by CTest for test programs, which live elsewhere in the build tree.
    if (const std::string explicitDir = envValue(EnvVar::ModuleDir); !explicitDir.empty())
        out.push_back(explicitDir);
    const auto dir = executableDirectory();
    if (!dir.empty()) {
        out.push_back(fs::path(dir + "/" STACKSCOPE_MODULE_RELDIR).lexically_normal().string());
        out.push_back(dir);
    }
    return out;
}

std::string dataFile(const std::string& relative)
{
    std::vector<std::string> dirs;
    if (const std::string explicitDir = envValue(EnvVar::DataDir); !explicitDir.empty())
        dirs.push_back(explicitDir);
    if (const auto dir = executableDirectory(); !dir.empty())
        dirs.push_back(fs::path(dir + "/" STACKSCOPE_DATA_RELDIR "/stackscope").lexically_normal().string());
    std::error_code ec;
    for (const auto& d : dirs) {
        if (fs::exists(d + "/" + relative, ec))
            return d + "/" + relative;
    }
    return {};
}

std::string pythonWorkerScript()
{
    if (std::string p = envValue(EnvVar::PythonWorker); !p.empty())
        return p;
    return dataFile("python/stackscope_probe_worker.py");
}

std::string siblingProgram(const std::string& name)
{
    const auto dir = executableDirectory();
    std::error_code ec;
    if (!dir.empty() && fs::exists(dir + "/" + name, ec))
        return dir + "/" + name;
    return name;
}

std::string cliProgram()
{
    if (std::string p = envValue(EnvVar::Cli); !p.empty())
        return p;
    return siblingProgram("stackscope-cli");
}

std::string cacheDirectory()
{
    if (std::string d = envValue(EnvVar::CacheDir); !d.empty())
        return d;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
        return std::string(x) + "/stackscope";
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : "/tmp") + "/.cache/stackscope";
}

} // namespace stackscope
