// The quick look without starting an interpreter: pyvenv.cfg, lib/python3.Y/site-packages, .pth files, torch/version.py.
#include "core/python/python_files.h"

#include "core/util/file_read.h"
#include "core/util/text_escape.h"

#include <filesystem>
#include <map>
#include <sstream>

#include <cstdlib>
#include <unistd.h>

namespace stackscope {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Files an environment's owner (or anybody who could write the folder) controls are read as text only: regular
// files of at most 256 KiB (pyvenv.cfg, version.py, a .pth, .python-version are a few hundred bytes; the largest
// .pth files seen, setuptools' distutils-precedence.pth and editable installs' finders, are under 1 KiB).
constexpr std::size_t kSmallFileCap = 256 * 1024;

std::optional<std::string> readSmall(const fs::path& p)
{
    return readRegularFile(p, kSmallFileCap);
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

// pyvenv.cfg's "key = value" lines; nullopt when it is not a small regular file.
std::optional<std::map<std::string, std::string>> readPyvenvCfg(const fs::path& p)
{
    const auto text = readSmall(p);
    if (!text)
        return std::nullopt;
    std::map<std::string, std::string> out;
    std::stringstream in(*text);
    std::string line;
    while (std::getline(in, line)) {
        const auto eq = line.find('=');
        if (eq != std::string::npos)
            out[trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
    }
    return out;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// "3.12" of "3.12.3" or "3.12.3.final.0"; empty when it is not Python 3.
std::string minorVersion(const std::string& version)
{
    if (version.size() < 3 || version.compare(0, 2, "3.") != 0 || !isDigit(version[2]))
        return {};
    std::size_t end = 2;
    while (end < version.size() && isDigit(version[end]) && end < 8)
        ++end;
    return version.substr(0, end);
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
        auto read = readPyvenvCfg(prefix / "pyvenv.cfg");
        if (!read)
            return std::nullopt;
        auto& cfg = *read;
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
        const auto text = readSmall(it->path());
        if (name.find("torch") != std::string::npos || !text)
            return false;
        std::stringstream in(*text);
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

// The versions pyenv would pick, in its order of precedence; empty means "system"; nullopt when a version file is
// not a small regular file (a FIFO, a link to a device): then only the shim can tell.
std::optional<std::vector<std::string>> pyenvVersions(const PythonFileContext& c)
{
    if (!c.pyenvVersion.empty())
        return splitOn(c.pyenvVersion, ':');
    std::error_code ec;
    auto fromFile = [](const fs::path& p) -> std::optional<std::vector<std::string>> {
        const auto text = readSmall(p);
        return text ? std::optional(splitOn(*text, '\n')) : std::nullopt;
    };
    for (fs::path dir = c.cwd; !dir.empty(); dir = dir.parent_path()) {
        if (fs::exists(dir / ".python-version", ec) || fs::is_symlink(dir / ".python-version", ec))
            return fromFile(dir / ".python-version");
        if (dir == dir.root_path())
            break;
    }
    const auto global = fs::path(c.pyenvRoot) / "version";
    if (!fs::exists(global, ec) && !fs::is_symlink(global, ec))
        return std::vector<std::string>();
    return fromFile(global);
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
    const auto versions = pyenvVersions(c);
    if (!versions)
        return std::nullopt;
    for (const auto& v : *versions) {
        if (v.empty() || v[0] == '#')
            continue;
        if (v != "system") {
            if (fs::path(v).is_absolute() || v.find("..") != std::string::npos)
                return std::nullopt; // a version names a folder of versions/ (or versions/<conda>/envs/<name>), no more
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

namespace {

bool isNameChar(char c)
{
    return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

// `name [: annotation] = value` of one line, as the regex ^([A-Za-z_]+)\s*(?::[^=]*)?=\s*(.*?)\s*$ would split it.
bool splitAssignment(const std::string& line, std::string& name, std::string& value)
{
    std::size_t i = 0;
    while (i < line.size() && isNameChar(line[i]))
        ++i;
    if (i == 0)
        return false;
    name = line.substr(0, i);
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
        ++i;
    if (i < line.size() && line[i] == ':') {
        i = line.find('=', i);
        if (i == std::string::npos)
            return false;
    }
    if (i >= line.size() || line[i] != '=')
        return false;
    value = trim(line.substr(i + 1));
    return true;
}

} // namespace

std::optional<json> parseTorchVersionPy(const std::string& text)
{
    json out = json::object();
    std::stringstream in(text);
    std::string l, name, v;
    while (std::getline(in, l)) {
        if (!l.empty() && l.back() == '\r')
            l.pop_back();
        if (!splitAssignment(l, name, v))
            continue;
        if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front()) {
            std::string text = v.substr(1, v.size() - 2);
            if (escapeControl(text) != text) { // control bytes or not UTF-8: no version, and JSON cannot hold it
                if (name == "__version__" || name == "cuda" || name == "hip")
                    return std::nullopt;
                continue;
            }
            out[name] = std::move(text);
        }
        else if (v == "None" || v == "True" || v == "False")
            out[name] = v == "None" ? json(nullptr) : json(v == "True");
        else if (name == "__version__" || name == "cuda" || name == "hip")
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

std::optional<json> readTorchVersionPy(const std::string& torchDir)
{
    const auto text = readSmall(fs::path(torchDir) / "version.py");
    return text ? parseTorchVersionPy(*text) : std::nullopt;
}

std::string torchBuildOf(const json& v)
{
    return !v["hip"].is_null() ? "rocm" : (!v["cuda"].is_null() ? "cuda" : "cpu");
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
    // Text from files and paths anybody may have named: escaped, so the JSON holds it (\xNN for bytes not UTF-8).
    json r {{"python_version", escapeControl(layout->pythonVersion)}, {"executable", escapeControl(interpreter)},
            {"prefix", escapeControl(layout->prefix)}, {"has_torch", false}, {"looked_up", "files"}};
    std::error_code ec;
    for (const auto& d : dirs) {
        if (!fs::exists(d / "torch" / "__init__.py", ec))
            continue;
        const auto v = readTorchVersionPy((d / "torch").string());
        if (!v)
            return std::nullopt; // a torch without a readable version.py: let the interpreter say where it is
        r["has_torch"] = true;
        r["torch_dir"] = escapeControl((d / "torch").string());
        r["torch_version"] = (*v)["__version__"];
        r["hip_version"] = (*v)["hip"];
        r["cuda_version"] = (*v)["cuda"];
        r["build"] = torchBuildOf(*v);
        break;
    }
    r["amdsmi_installed"] = hasModule(dirs, "amdsmi");
    r["pynvml_installed"] = hasModule(dirs, "pynvml");
    return r;
}

} // namespace stackscope
