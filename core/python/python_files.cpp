// The quick look without starting an interpreter: pyvenv.cfg, lib/python3.Y/site-packages, .pth files, torch/version.py.
#include "core/python/python_files.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <cstdlib>
#include <unistd.h>

namespace stackscope {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string readText(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string trim(std::string s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    const auto e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

bool isDir(const fs::path& p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

// pyvenv.cfg's "key = value" lines.
std::map<std::string, std::string> readPyvenvCfg(const fs::path& p)
{
    std::map<std::string, std::string> out;
    std::stringstream in(readText(p));
    std::string line;
    while (std::getline(in, line)) {
        const auto eq = line.find('=');
        if (eq != std::string::npos)
            out[trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
    }
    return out;
}

// "3.12" of "3.12.3" or "3.12.3.final.0"; empty when it is not Python 3.
std::string minorVersion(const std::string& version)
{
    static const std::regex re(R"(^(3\.\d+)(\.\d+)?)");
    std::smatch m;
    return std::regex_search(version, m, re) ? m[1].str() : std::string();
}

// The one lib/python3.Y of a prefix that holds the standard library (os.py) and a site-packages folder, and whose
// bin/ has python3.Y: conda envs and bases, pyenv versions, a python built with --prefix. Empty when not exactly one.
std::string ownMinorVersion(const fs::path& prefix, const fs::path& binDir)
{
    std::string found;
    std::error_code ec;
    for (fs::directory_iterator it(prefix / "lib", ec), end; !ec && it != end; it.increment(ec)) {
        const auto name = it->path().filename().string();
        const auto minor = name.compare(0, 6, "python") == 0 ? minorVersion(name.substr(6)) : std::string();
        if (minor.empty() || minor != name.substr(6) || !fs::exists(it->path() / "os.py", ec) ||
            !isDir(it->path() / "site-packages") || !fs::exists(binDir / ("python" + minor), ec))
            continue;
        if (!found.empty())
            return {};
        found = minor;
    }
    return found;
}

// The folders `import` searches after the standard library, or nullopt when the files cannot say.
struct SiteLayout {
    std::string prefix;
    std::string pythonVersion;
    std::vector<fs::path> dirs;
};

std::optional<SiteLayout> siteLayout(const fs::path& interpreter, const PythonFileContext& context)
{
    const fs::path binDir = interpreter.parent_path();
    const fs::path prefix = binDir.parent_path();
    SiteLayout out;
    out.prefix = prefix.string();
    for (const auto& d : context.pythonPath)
        out.dirs.emplace_back(d);
    std::error_code ec;
    if (fs::exists(prefix / "pyvenv.cfg", ec)) {
        auto cfg = readPyvenvCfg(prefix / "pyvenv.cfg");
        if (cfg["include-system-site-packages"] == "true")
            return std::nullopt; // the base interpreter's site-packages too: ask it
        out.pythonVersion = cfg.count("version") ? cfg["version"] : cfg["version_info"];
        const auto minor = minorVersion(out.pythonVersion);
        if (minor.empty() || !isDir(prefix / "lib" / ("python" + minor) / "site-packages"))
            return std::nullopt;
        out.dirs.push_back(prefix / "lib" / ("python" + minor) / "site-packages");
        return out; // a venv turns the user's site-packages off
    }
    // Not a venv: bin/python3 must be this prefix's own interpreter (not a link out of it, not a shim script).
    const auto real = fs::canonical(interpreter, ec);
    if (ec || fs::canonical(binDir, ec) != real.parent_path() || ec)
        return std::nullopt;
    const auto minor = ownMinorVersion(prefix, binDir);
    if (minor.empty())
        return std::nullopt;
    out.pythonVersion = minor;
    out.dirs.push_back(prefix / "lib" / ("python" + minor) / "site-packages");
    if (!context.home.empty())
        out.dirs.push_back(fs::path(context.home) / ".local/lib" / ("python" + minor) / "site-packages");
    return out;
}

// Adds the folders the .pth files of `dir` name; false when one may add torch in a way the files do not show
// (an editable install's import hook).
bool addPthFolders(const fs::path& dir, std::vector<fs::path>& dirs)
{
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (it->path().extension() != ".pth")
            continue;
        if (name.find("torch") != std::string::npos)
            return false;
        std::stringstream in(readText(it->path()));
        std::string line;
        while (std::getline(in, line)) {
            line = trim(line);
            if (line.empty() || line[0] == '#' || line.compare(0, 6, "import") == 0)
                continue;
            const fs::path p = fs::path(line).is_absolute() ? fs::path(line) : dir / line;
            if (isDir(p))
                dirs.push_back(p);
        }
    }
    return true;
}

bool hasModule(const std::vector<fs::path>& dirs, const std::string& name)
{
    std::error_code ec;
    for (const auto& d : dirs) {
        if (fs::exists(d / name / "__init__.py", ec) || fs::exists(d / (name + ".py"), ec))
            return true;
    }
    return false;
}

std::string envOr(const char* name, const std::string& fallback = {})
{
    const char* v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}

std::vector<std::string> splitOn(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string part;
    while (std::getline(in, part, sep)) {
        part = trim(part);
        if (!part.empty())
            out.push_back(part);
    }
    return out;
}

// The versions pyenv would pick, in its order of precedence; empty means "system".
std::vector<std::string> pyenvVersions(const PythonFileContext& c)
{
    if (!c.pyenvVersion.empty())
        return splitOn(c.pyenvVersion, ':');
    std::error_code ec;
    for (fs::path dir = c.cwd; !dir.empty(); dir = dir.parent_path()) {
        if (fs::exists(dir / ".python-version", ec))
            return splitOn(readText(dir / ".python-version"), '\n');
        if (dir == dir.root_path())
            break;
    }
    return splitOn(readText(fs::path(c.pyenvRoot) / "version"), '\n');
}

bool executable(const fs::path& p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

} // namespace

PythonFileContext PythonFileContext::fromEnvironment()
{
    PythonFileContext c;
    c.pythonPath = splitOn(envOr("PYTHONPATH"), ':');
    c.home = envOr("HOME");
    c.pyenvRoot = envOr("PYENV_ROOT", c.home.empty() ? std::string() : c.home + "/.pyenv");
    c.pyenvVersion = envOr("PYENV_VERSION");
    std::error_code ec;
    c.cwd = fs::current_path(ec).string();
    c.pathDirs = splitOn(envOr("PATH"), ':');
    return c;
}

std::optional<std::string> pyenvShimTarget(const std::string& interpreter, const PythonFileContext& c)
{
    std::error_code ec;
    const fs::path p(interpreter);
    if (c.pyenvRoot.empty() || fs::canonical(p.parent_path(), ec) != fs::canonical(fs::path(c.pyenvRoot) / "shims", ec) || ec)
        return std::nullopt;
    const auto name = p.filename();
    for (const auto& v : pyenvVersions(c)) {
        if (v.empty() || v[0] == '#')
            continue;
        if (v != "system") {
            const auto target = fs::path(c.pyenvRoot) / "versions" / v / "bin" / name;
            return executable(target) ? std::optional<std::string>(target.string()) : std::nullopt;
        }
        break;
    }
    // "system": the first python3 on PATH outside pyenv's own folders.
    const auto root = fs::canonical(c.pyenvRoot, ec).string();
    for (const auto& dir : c.pathDirs) {
        const auto real = fs::canonical(dir, ec).string();
        if (ec || (!root.empty() && real.compare(0, root.size(), root) == 0))
            continue;
        if (executable(fs::path(dir) / name))
            return (fs::path(dir) / name).string();
    }
    return std::nullopt;
}

std::optional<json> parseTorchVersionPy(const std::string& text)
{
    static const std::regex line(R"(^([A-Za-z_]+)\s*(?::[^=]*)?=\s*(.*?)\s*$)");
    json out = json::object();
    std::stringstream in(text);
    std::string l;
    while (std::getline(in, l)) {
        std::smatch m;
        if (!std::regex_match(l, m, line))
            continue;
        const std::string v = m[2].str();
        if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front())
            out[m[1].str()] = v.substr(1, v.size() - 2);
        else if (v == "None" || v == "True" || v == "False")
            out[m[1].str()] = v == "None" ? json(nullptr) : json(v == "True");
        else if (m[1] == "__version__" || m[1] == "cuda" || m[1] == "hip")
            return std::nullopt; // computed: only the interpreter knows
    }
    if (!out.contains("__version__") || !out["__version__"].is_string())
        return std::nullopt;
    for (const char* key : {"cuda", "hip"}) {
        if (!out.contains(key))
            out[key] = nullptr;
        else if (!out[key].is_null() && !out[key].is_string())
            return std::nullopt;
    }
    return out;
}

std::optional<json> quickLookFromFiles(const std::string& interpreter, const PythonFileContext& context)
{
    auto layout = siteLayout(fs::path(interpreter), context);
    if (!layout)
        return std::nullopt;
    std::vector<fs::path> dirs = layout->dirs;
    for (const auto& d : layout->dirs) {
        if (!addPthFolders(d, dirs))
            return std::nullopt;
    }
    json r {{"python_version", layout->pythonVersion}, {"executable", interpreter}, {"prefix", layout->prefix},
            {"has_torch", false}, {"looked_up", "files"}};
    std::error_code ec;
    for (const auto& d : dirs) {
        if (!fs::exists(d / "torch" / "__init__.py", ec))
            continue;
        const auto v = parseTorchVersionPy(readText(d / "torch" / "version.py"));
        if (!v)
            return std::nullopt; // a torch without a readable version.py: let the interpreter say
        r["has_torch"] = true;
        r["torch_dir"] = (d / "torch").string();
        r["torch_version"] = (*v)["__version__"];
        r["hip_version"] = (*v)["hip"];
        r["cuda_version"] = (*v)["cuda"];
        r["build"] = !(*v)["hip"].is_null() ? "rocm" : (!(*v)["cuda"].is_null() ? "cuda" : "cpu");
        break;
    }
    r["amdsmi_installed"] = hasModule(dirs, "amdsmi");
    r["pynvml_installed"] = hasModule(dirs, "pynvml");
    return r;
}

} // namespace stackscope
