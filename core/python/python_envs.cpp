// Python environment discovery: candidate interpreters from the usual places, then a quick parallel query each.
#include "core/python/python_envs.h"

#include "core/python/python_files.h"
#include "core/python/python_queries.h"
#include "core/python/python_trust.h"
#include "core/snapshot/stack_environment.h"
#include "core/util/subprocess.h"
#include "core/util/task_runner.h"
#include "core/util/text_escape.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <unistd.h>

extern char** environ;

namespace stackscope {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string envOr(const char* name, const std::string& fallback = {})
{
    const char* v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}

bool isExecutableFile(const fs::path& p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// bin/python3, else bin/python, of an environment's folder; empty when neither is there.
std::string interpreterIn(const fs::path& envDir)
{
    for (const char* name : {"bin/python3", "bin/python"}) {
        if (isExecutableFile(envDir / name))
            return (envDir / name).string();
    }
    return {};
}

// Sub-folders of `dir` (sorted, so the order is stable), those whose name starts with `prefix`.
std::vector<fs::path> subfolders(const fs::path& dir, const std::string& prefix = {})
{
    std::vector<fs::path> out;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return out;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (name.compare(0, prefix.size(), prefix) == 0 && fs::is_directory(it->path(), ec))
            out.push_back(it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The folder resolved through symlinks plus the file's own name: a venv's bin/python3 (a symlink to the base
// interpreter) stays its own environment, /bin/python3 and /usr/bin/python3 on a merged-/usr system are one.
std::string identity(const std::string& path)
{
    std::error_code ec;
    const fs::path p(path);
    const auto dir = fs::canonical(p.parent_path().empty() ? fs::path(".") : p.parent_path(), ec);
    return ec ? p.lexically_normal().string() : (dir / p.filename()).string();
}

std::vector<std::string> splitPath(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string part;
    while (std::getline(in, part, ':')) {
        if (!part.empty())
            out.push_back(part);
    }
    return out;
}

} // namespace

PythonPlaces PythonPlaces::fromEnvironment()
{
    PythonPlaces p;
    p.pathDirs = splitPath(envOr("PATH"));
    p.virtualEnv = envOr("VIRTUAL_ENV");
    p.condaPrefix = envOr("CONDA_PREFIX");
    p.home = envOr("HOME");
    p.pyenvRoot = envOr("PYENV_ROOT", p.home.empty() ? std::string() : p.home + "/.pyenv");
    std::error_code ec;
    p.cwd = fs::current_path(ec).string();
    // conda's base install: from conda itself ($CONDA_EXE is base/bin/conda), micromamba's root, the active env's
    // base, then the installers' default folders.
    if (const auto exe = envOr("CONDA_EXE"); !exe.empty())
        p.condaBases.push_back(fs::path(exe).parent_path().parent_path().string());
    if (const auto root = envOr("MAMBA_ROOT_PREFIX"); !root.empty())
        p.condaBases.push_back(root);
    if (const auto pos = p.condaPrefix.find("/envs/"); pos != std::string::npos)
        p.condaBases.push_back(p.condaPrefix.substr(0, pos));
    if (!p.home.empty()) {
        for (const char* d : {"miniconda3", "anaconda3", "miniforge3", "mambaforge", "micromamba", ".conda"})
            p.condaBases.push_back(p.home + "/" + d);
    }
    p.condaBases.push_back("/opt/conda");
    return p;
}

std::vector<PythonCandidate> pythonCandidates(const PythonPlaces& places)
{
    std::vector<PythonCandidate> out;
    std::set<std::string> seen;
    const StartPolicy policy {places.cwd, places.home, places.virtualEnv, places.condaPrefix};
    auto add = [&](const std::string& path, const char* source) {
        if (!path.empty() && isExecutableFile(path) && seen.insert(identity(path)).second)
            out.push_back({path, source, whyNotStarted(path, source, policy)});
    };
    // Every python3 on PATH, in order: the first may be a shim (pyenv) or a venv's, a later one the system's.
    for (const auto& dir : places.pathDirs)
        add((fs::path(dir) / "python3").string(), "PATH");
    if (!places.virtualEnv.empty())
        add(interpreterIn(places.virtualEnv), "VIRTUAL_ENV");
    if (!places.condaPrefix.empty())
        add(interpreterIn(places.condaPrefix), "CONDA_PREFIX");
    for (const auto& base : places.condaBases) {
        add(interpreterIn(base), "conda base");
        for (const auto& env : subfolders(fs::path(base) / "envs"))
            add(interpreterIn(env), "conda env");
    }
    if (!places.pyenvRoot.empty()) {
        for (const auto& v : subfolders(fs::path(places.pyenvRoot) / "versions"))
            add(interpreterIn(v), "pyenv");
    }
    if (!places.cwd.empty())
        add(interpreterIn(fs::path(places.cwd) / ".venv"), "./.venv");
    if (!places.home.empty()) {
        for (const auto& v : subfolders(fs::path(places.home) / ".venvs"))
            add(interpreterIn(v), "~/.venvs");
        for (const auto& v : subfolders(places.home, "venv"))
            add(interpreterIn(v), "~/venv*");
    }
    for (const auto& u : places.userAdded) {
        std::error_code ec;
        add(fs::is_directory(u, ec) ? interpreterIn(u) : u, "added");
    }
    return out;
}

namespace {

// An interpreter's answer kept to the fields and types the queries print (python_queries.h): whatever else a
// program printed as JSON is dropped, so no reader meets a number where it expects a name.
json typedAnswer(const json& a)
{
    static const char* const kText[] = {"python_version", "executable", "prefix", "torch_dir", "error", "torch_version",
                                        "hip_version", "cuda_version", "build", "blas_backend", "amdsmi", "pynvml",
                                        "import_error", "arch_list_error", "devices_error", "blas_backend_error"};
    static const char* const kFlags[] = {"has_torch", "amdsmi_installed", "pynvml_installed", "mkldnn_enabled"};
    json out = json::object();
    for (const char* k : kText) {
        if (a.contains(k) && (a[k].is_string() || a[k].is_null()))
            out[k] = a[k];
    }
    for (const char* k : kFlags) {
        if (a.contains(k) && a[k].is_boolean())
            out[k] = a[k];
    }
    if (a.contains("arch_list") && a["arch_list"].is_array()) {
        out["arch_list"] = json::array();
        for (const auto& x : a["arch_list"])
            if (x.is_string())
                out["arch_list"].push_back(x);
    }
    if (a.contains("devices") && a["devices"].is_array()) {
        out["devices"] = json::array();
        for (const auto& d : a["devices"]) {
            if (!d.is_object() || !d.value("index", json()).is_number_integer() || !d.value("name", json()).is_string())
                continue;
            json kept {{"index", d["index"]}, {"name", d["name"]}};
            for (const char* k : {"gcnArchName", "capability"})
                kept[k] = d.value(k, json()).is_string() ? d[k] : json(nullptr);
            kept["total_memory"] = d.value("total_memory", json()).is_number_unsigned() ? d["total_memory"] : json(nullptr);
            out["devices"].push_back(kept);
        }
    }
    return out;
}

// The last line of `out` that is a JSON object, or null.
json lastJsonObject(const std::string& out)
{
    std::stringstream in(out);
    std::string line;
    json found;
    while (std::getline(in, line)) {
        auto j = json::parse(line, nullptr, false);
        if (!j.is_discarded() && j.is_object())
            found = typedAnswer(j);
    }
    return found;
}

// The end of what a child printed, escaped: its bytes may be anything (not UTF-8, terminal escapes).
std::string tail(const std::string& s, std::size_t max = 600)
{
    return escapeMessage(s.size() <= max ? s : "..." + s.substr(s.size() - max));
}

// Why a run gave no answer, in words a person can act on; empty when it answered.
std::string failureOf(const ProcessResult& r, const std::string& path, std::chrono::milliseconds limit)
{
    if (!r.started)
        return fmt::format("{}; check that the interpreter exists and is executable", escapeControl(r.startError));
    if (r.timedOut)
        return fmt::format("{} did not answer within {:.1f} s and was stopped; run it by hand to see why",
                           escapeControl(path), limit.count() / 1000.0);
    if (r.signal)
        return fmt::format("{} died of {}: {}", escapeControl(path), signalName(r.signal), tail(r.err));
    if (r.exitCode != 0)
        return fmt::format("{} exited with code {}: {}", escapeControl(path), r.exitCode, tail(r.err));
    return {};
}

json gpuEnvironment()
{
    json env = json::object();
    for (char** e = environ; e && *e; ++e) {
        const std::string kv = *e;
        const auto eq = kv.find('=');
        const auto name = kv.substr(0, eq);
        if (eq != std::string::npos && (isStackEnvironmentVariable(name) || name == "VIRTUAL_ENV" || name == "CONDA_PREFIX" ||
                                         name == "PYTHONPATH" || name == "PYTHONHOME"))
            env[name] = kv.substr(eq + 1);
    }
    return env;
}

// torch's version fields from torch/version.py read as text (never executed): the interpreter only says where
// torch is. A version.py that computes its values leaves them unknown, with why.
void addTorchVersion(json& answer)
{
    const auto dir = answer.value("torch_dir", std::string());
    if (answer.value("has_torch", json()) != json(true) || dir.empty())
        return;
    if (auto v = readTorchVersionPy(dir)) {
        answer["torch_version"] = (*v)["__version__"];
        answer["hip_version"] = (*v)["hip"];
        answer["cuda_version"] = (*v)["cuda"];
        answer["build"] = torchBuildOf(*v);
        return;
    }
    for (const char* k : {"torch_version", "hip_version", "cuda_version", "build"})
        answer[k] = nullptr;
    answer["torch_version_note"] = fmt::format("{}/version.py is not plain assignments of strings (or is not a small "
                                               "regular file): StackScope reads it, never runs it; the version shows "
                                               "with --python-details, which imports torch",
                                               dir);
}

// The quick answer: from the files where they say everything, else from the interpreter; false with e["error"] set
// when the interpreter could not be asked, or e["not_started"] when it may not be started.
// A shim's target is checked like the shim before it is started.
bool quickLook(PythonCandidate& c, const PythonQueryOptions& o, const PythonFileContext& files, json& e)
{
    std::string path = c.path;
    if (o.readFiles) {
        if (auto target = pyenvShimTarget(c.path, files)) {
            e["shim_for"] = escapeControl(*target); // asked instead: the shim itself adds seconds of bash
            path = *target;
            if (c.notStarted.empty())
                c.notStarted = whyNotStarted(path, c.source, StartPolicy {files.cwd, files.home, {}, {}});
        }
        if (auto answer = quickLookFromFiles(path, files)) {
            e.update(*answer);
            return true;
        }
    }
    if (!c.notStarted.empty()) {
        e["not_started"] = escapeControl(c.notStarted);
        e["probe_command"] = escapeControl(probeCommandFor(c.path));
        return false;
    }
    const auto quick = runProcess({path, "-c", pyquery::kQuick}, o.quickTimeout);
    auto answer = lastJsonObject(quick.out);
    if (auto why = failureOf(quick, path, o.quickTimeout); !why.empty() || answer.is_null()) {
        e["error"] = why.empty() ? fmt::format("{} printed no answer: {}", escapeControl(path), tail(quick.out + quick.err))
                                 : why;
        return false;
    }
    answer["looked_up"] = "interpreter";
    addTorchVersion(answer);
    e.update(answer);
    return true;
}

json queryOne(PythonCandidate c, const PythonQueryOptions& o, const PythonFileContext& files)
{
    json e {{"path", escapeControl(c.path)}, {"source", c.source}, {"has_torch", nullptr}};
    if (!quickLook(c, o, files, e))
        return e;
    if (e["has_torch"] != json(true)) // false, or null with the script's "error" (Python 2, a broken site)
        return e;
    if (!c.notStarted.empty() && (o.details || o.collectEnv)) { // torch found from the files alone
        e["details_error"] = escapeControl(
            fmt::format("not started: {}; to look inside: {}", c.notStarted, probeCommandFor(c.path)));
        return e;
    }
    if (o.details) {
        e["env"] = gpuEnvironment();
        const std::string python = e.value("shim_for", c.path);
        const auto details = runProcess({python, "-c", pyquery::kDetails}, o.detailsTimeout);
        auto d = lastJsonObject(details.out);
        if (auto why = failureOf(details, c.path, o.detailsTimeout); !why.empty() || d.is_null())
            e["details_error"] = why.empty() ? "no answer: " + tail(details.out + details.err) : why;
        else
            e.update(d);
    }
    if (o.collectEnv) {
        const auto ce = runProcess({e.value("shim_for", c.path), "-m", "torch.utils.collect_env"}, o.collectEnvTimeout);
        const auto why = failureOf(ce, c.path, o.collectEnvTimeout);
        e["collect_env"] = why.empty() ? json(escapeMessage(ce.out)) : json(nullptr);
        if (!why.empty())
            e["collect_env_error"] = why;
    }
    return e;
}

} // namespace

json queryPythonEnvs(const std::vector<PythonCandidate>& candidates, const PythonQueryOptions& options)
{
    const auto files = PythonFileContext::fromEnvironment();
    std::vector<json> results(candidates.size());
    // Every interpreter at once (each mostly waits for its child), on threads of the runner's own.
    TaskRunner::shared().together(candidates.size(), [&](std::size_t i) { results[i] = queryOne(candidates[i], options, files); });
    return json(results);
}

std::vector<json> pythonEnvsWithTorch(const json& envs)
{
    std::vector<json> out;
    for (const auto& e : envs) {
        if (e.is_object() && e.value("has_torch", json(false)) == json(true))
            out.push_back(e);
    }
    return out;
}

namespace {

std::string text(const json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

PythonEnvSummary pythonEnvSummary(const json& env)
{
    PythonEnvSummary e;
    e.path = text(env, "path");
    e.source = text(env, "source");
    const auto has = env.find("has_torch");
    if (has != env.end() && has->is_boolean())
        e.hasTorch = has->get<bool>();
    e.looked = env.contains("torch_version");
    e.pythonVersion = text(env, "python_version");
    e.torchVersion = text(env, "torch_version");
    e.build = text(env, "build");
    e.hipVersion = text(env, "hip_version");
    e.cudaVersion = text(env, "cuda_version");
    e.error = text(env, "error");
    e.notStarted = text(env, "not_started");
    return e;
}

std::vector<PythonEnvSummary> pythonEnvSummaries(const json& envs)
{
    std::vector<PythonEnvSummary> out;
    for (const auto& e : envs)
        if (e.is_object())
            out.push_back(pythonEnvSummary(e));
    return out;
}

} // namespace stackscope
