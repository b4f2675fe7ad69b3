// Snapshot <-> JSON: unknown values are null, unknown keys are ignored, wrong types are errors.
#include "core/snapshot/snapshot_json.h"

#include "core/snapshot/arch_coverage_json.h"
#include "core/snapshot/json_read.h"
#include "core/util/atomic_file.h"
#include "core/util/file_read.h"
#include "core/util/json_errors.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>


namespace stackscope {

using nlohmann::json;
using jsonread::readOpt;
using jsonread::readOr;

namespace {

template <typename T>
json opt(const std::optional<T>& v)
{
    return v ? json(*v) : json(nullptr);
}

const json& objectAt(const json& obj, const char* key, const std::string& path)
{
    static const json empty = json::object();
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return empty;
    if (!it->is_object())
        throw SnapshotError(fmt::format("'{}{}' must be an object, found {}", path, key, it->type_name()));
    return *it;
}

const json& arrayAt(const json& obj, const char* key, const std::string& path)
{
    static const json empty = json::array();
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return empty;
    if (!it->is_array())
        throw SnapshotError(fmt::format("'{}{}' must be an array, found {}", path, key, it->type_name()));
    return *it;
}

json toJson(const DeviceNode& n)
{
    return {{"path", n.path}, {"exists", n.exists}, {"read_write", opt(n.readWrite)},
            {"group", opt(n.group)}, {"mode", opt(n.mode)}};
}

DeviceNode deviceNodeFromJson(const json& j, const std::string& path)
{
    if (!j.is_object())
        throw SnapshotError(fmt::format("'{}' must be an object", path));
    DeviceNode n;
    n.path = readOr<std::string>(j, "path", path, "");
    n.exists = readOr<bool>(j, "exists", path, false);
    n.readWrite = readOpt<bool>(j, "read_write", path);
    n.group = readOpt<std::string>(j, "group", path);
    n.mode = readOpt<std::string>(j, "mode", path);
    return n;
}

json toJson(const PcieLink& l)
{
    return {{"device", l.device}, {"current_speed", opt(l.currentSpeed)}, {"current_width", opt(l.currentWidth)},
            {"max_speed", opt(l.maxSpeed)}, {"max_width", opt(l.maxWidth)}};
}

PcieLink pcieLinkFromJson(const json& j, const std::string& path)
{
    if (!j.is_object())
        throw SnapshotError(fmt::format("'{}' must be an object", path));
    PcieLink l;
    l.device = readOr<std::string>(j, "device", path, "");
    l.currentSpeed = readOpt<std::string>(j, "current_speed", path);
    l.currentWidth = readOpt<int>(j, "current_width", path);
    l.maxSpeed = readOpt<std::string>(j, "max_speed", path);
    l.maxWidth = readOpt<int>(j, "max_width", path);
    return l;
}

json toJson(const HostExtras& h)
{
    json dkms = json::array();
    for (const auto& d : h.dkms)
        dkms.push_back({{"name", d.name}, {"version", d.version}, {"kernel", d.kernel}, {"status", d.status}});
    return {{"kernel_cmdline", opt(h.kernelCmdline)}, {"secure_boot", opt(h.secureBoot)}, {"wsl", opt(h.wsl)},
            {"dkms", dkms}, {"dkms_status", h.dkmsStatus}, {"kernel_log_source", opt(h.kernelLogSource)},
            {"kernel_log_note", opt(h.kernelLogNote)}, {"kernel_log_gpu_lines", h.kernelLogGpuLines}};
}

HostExtras hostExtrasFromJson(const json& j)
{
    const std::string path = "host_extras";
    HostExtras h;
    h.kernelCmdline = readOpt<std::string>(j, "kernel_cmdline", path);
    h.secureBoot = readOpt<bool>(j, "secure_boot", path);
    h.wsl = readOpt<bool>(j, "wsl", path);
    const auto& dkms = arrayAt(j, "dkms", "host_extras.");
    for (size_t i = 0; i < dkms.size(); ++i) {
        const auto p = fmt::format("host_extras.dkms[{}]", i);
        if (!dkms[i].is_object())
            throw SnapshotError(fmt::format("'{}' must be an object", p));
        h.dkms.push_back({readOr<std::string>(dkms[i], "name", p, ""), readOr<std::string>(dkms[i], "version", p, ""),
                          readOr<std::string>(dkms[i], "kernel", p, ""), readOr<std::string>(dkms[i], "status", p, "")});
    }
    h.dkmsStatus = readOr<std::vector<std::string>>(j, "dkms_status", path, {});
    h.kernelLogSource = readOpt<std::string>(j, "kernel_log_source", path);
    h.kernelLogNote = readOpt<std::string>(j, "kernel_log_note", path);
    h.kernelLogGpuLines = readOr<std::vector<std::string>>(j, "kernel_log_gpu_lines", path, {});
    return h;
}

// null when the driver was not asked: unknown is not "no process".
json processesToJson(const GpuInfo& g)
{
    if (!g.processesKnown)
        return nullptr;
    json out = json::array();
    for (const auto& p : g.processes)
        out.push_back({{"pid", p.pid}, {"used_bytes", opt(p.usedBytes)}, {"user", opt(p.user)}, {"command", opt(p.command)}});
    return out;
}

void processesFromJson(const json& g, const std::string& path, GpuInfo& gpu)
{
    const auto it = g.find("processes");
    if (it == g.end() || it->is_null())
        return;
    if (!it->is_array())
        throw SnapshotError(fmt::format("'{}.processes' must be an array or null", path));
    gpu.processesKnown = true;
    for (std::size_t k = 0; k < it->size(); ++k) {
        const auto& p = (*it)[k];
        const auto where = fmt::format("{}.processes[{}]", path, k);
        if (!p.is_object())
            throw SnapshotError(fmt::format("'{}' must be an object", where));
        gpu.processes.push_back({readOr<std::uint32_t>(p, "pid", where, 0), readOpt<std::uint64_t>(p, "used_bytes", where),
                                 readOpt<std::string>(p, "user", where), readOpt<std::string>(p, "command", where)});
    }
}

json nvlinksToJson(const GpuInfo& g)
{
    json out = json::array();
    for (const auto& l : g.nvlinks)
        out.push_back({{"link", l.link}, {"version", opt(l.version)}, {"remote_pci_bus", opt(l.remotePciBus)},
                       {"remote_type", l.remoteType}});
    return out;
}

// Absent when NVML was not asked (older snapshots, AMD GPUs): unknown, not "no NVLink".
void nvlinksFromJson(const json& g, const std::string& path, GpuInfo& gpu)
{
    const auto it = g.find("nvlinks");
    if (it == g.end() || it->is_null())
        return;
    if (!it->is_array())
        throw SnapshotError(fmt::format("'{}.nvlinks' must be an array or null", path));
    gpu.nvlinksKnown = true;
    for (std::size_t k = 0; k < it->size(); ++k) {
        const auto& l = (*it)[k];
        const auto where = fmt::format("{}.nvlinks[{}]", path, k);
        if (!l.is_object())
            throw SnapshotError(fmt::format("'{}' must be an object", where));
        gpu.nvlinks.push_back({readOr<int>(l, "link", where, 0), readOpt<unsigned>(l, "version", where),
                               readOpt<std::string>(l, "remote_pci_bus", where), readOr<std::string>(l, "remote_type", where, "unknown")});
    }
}

json gpuToJson(const GpuInfo& g)
{
    json links = json::array();
    for (const auto& l : g.pcieLinks)
        links.push_back(toJson(l));
    json out = {{"index", g.index}, {"vendor", g.vendor}, {"name", g.name}, {"arch", opt(g.arch)},
            {"vram_total_bytes", opt(g.vramTotalBytes)}, {"vram_used_bytes", opt(g.vramUsedBytes)},
            {"pci_bus", opt(g.pciBus)}, {"driver_version", opt(g.driverVersion)}, {"source", g.source},
            {"firmware", g.firmware}, {"pcie_links", links}, {"processes", processesToJson(g)},
            {"compute_mode", opt(g.computeMode)}, {"persistence_mode", opt(g.persistenceMode)},
            {"clock_event_reasons", g.clockEventReasons}};
    if (g.nvlinksKnown)
        out["nvlinks"] = nvlinksToJson(g);
    if (!g.nameKnown)
        out["name_known"] = false; // written only when false: the files of every snapshot before it read the same
    return out;
}

GpuInfo gpuFromJson(const json& g, const std::string& path, size_t i)
{
    if (!g.is_object())
        throw SnapshotError(fmt::format("'{}' must be an object", path));
    GpuInfo gpu;
    gpu.index = readOr<int>(g, "index", path, static_cast<int>(i));
    gpu.vendor = readOr<std::string>(g, "vendor", path, "");
    gpu.name = readOr<std::string>(g, "name", path, "");
    gpu.nameKnown = readOr<bool>(g, "name_known", path, true);
    gpu.arch = readOpt<std::string>(g, "arch", path);
    gpu.vramTotalBytes = readOpt<std::uint64_t>(g, "vram_total_bytes", path);
    gpu.vramUsedBytes = readOpt<std::uint64_t>(g, "vram_used_bytes", path);
    gpu.pciBus = readOpt<std::string>(g, "pci_bus", path);
    gpu.driverVersion = readOpt<std::string>(g, "driver_version", path);
    gpu.source = readOr<std::string>(g, "source", path, "");
    gpu.firmware = readOr<std::map<std::string, std::string>>(g, "firmware", path, {});
    const auto& links = arrayAt(g, "pcie_links", path + ".");
    for (size_t k = 0; k < links.size(); ++k)
        gpu.pcieLinks.push_back(pcieLinkFromJson(links[k], fmt::format("{}.pcie_links[{}]", path, k)));
    processesFromJson(g, path, gpu);
    gpu.computeMode = readOpt<std::string>(g, "compute_mode", path);
    gpu.persistenceMode = readOpt<bool>(g, "persistence_mode", path);
    gpu.clockEventReasons = readOr<std::vector<std::string>>(g, "clock_event_reasons", path, {});
    nvlinksFromJson(g, path, gpu);
    return gpu;
}

} // namespace

json toJson(const Snapshot& s)
{
    json gpus = json::array();
    for (const auto& g : s.gpus)
        gpus.push_back(gpuToJson(g));
    json installs = json::array();
    for (const auto& i : s.rocm.installs)
        installs.push_back({{"path", i.path}, {"version", opt(i.version)}, {"version_source", i.versionSource}});
    json renders = json::array();
    for (const auto& n : s.access.renderNodes)
        renders.push_back(toJson(n));
    json findings = json::array();
    for (const auto& f : s.findings)
        findings.push_back(toJson(f));
    json libraries = json::array();
    for (const auto& l : s.libraries) {
        json tried = json::array();
        for (const auto& a : l.tried)
            tried.push_back({{"path", a.path}, {"error", a.error}});
        libraries.push_back({{"component", l.component}, {"loaded", l.loaded}, {"path", opt(l.path)},
                             {"tried", tried}, {"error", opt(l.error)}});
    }

    json torch = {{"version", opt(s.torch.version)}, {"backend", opt(s.torch.backend)},
                  {"built_with", opt(s.torch.builtWith)}, {"arch_list", opt(s.torch.archList)},
                  {"blas_backend", opt(s.torch.blasBackend)}, {"library_path", opt(s.torch.libraryPath)},
                  {"module_path", opt(s.torch.modulePath)}, {"device_count", opt(s.torch.deviceCount)}};
    return {
        {"schema", kSnapshotSchema},
        {"captured_at", s.capturedAt},
        {"root", opt(s.root)},
        {"host", {{"os", opt(s.host.os)}, {"kernel", opt(s.host.kernel)}, {"hostname", opt(s.host.hostname)}}},
        {"host_extras", toJson(s.hostExtras)},
        {"gpus", gpus},
        {"rocm", {{"installs", installs}, {"loaded_path", opt(s.rocm.loadedPath)},
                  {"hip_runtime_version", opt(s.rocm.hipRuntimeVersion)},
                  {"hip_driver_version", opt(s.rocm.hipDriverVersion)},
                  {"amdgpu_driver_version", opt(s.rocm.amdgpuDriverVersion)}}},
        {"cuda", {{"driver_version", opt(s.cuda.driverVersion)}, {"cuda_driver_version", opt(s.cuda.cudaDriverVersion)},
                  {"runtime_version", opt(s.cuda.runtimeVersion)}, {"runtime_path", opt(s.cuda.runtimePath)}}},
        {"torch", torch},
        {"access", {{"kfd", toJson(s.access.kfd)}, {"render_nodes", renders}, {"user", opt(s.access.user)},
                    {"user_groups", s.access.userGroups}}},
        {"env", s.envKnown ? json(s.env) : json(nullptr)},
        {"libraries", libraries},
        {"arch_coverage", s.archCoverage ? archscan::toJson(*s.archCoverage) : json(nullptr)},
        {"python_envs", s.pythonEnvs},
        {"findings", findings},
    };
}

namespace {

void readRocmCuda(const json& j, Snapshot& s)
{
    const auto& rocm = objectAt(j, "rocm", "");
    const auto& installs = arrayAt(rocm, "installs", "rocm.");
    for (size_t i = 0; i < installs.size(); ++i) {
        const auto path = fmt::format("rocm.installs[{}]", i);
        if (!installs[i].is_object())
            throw SnapshotError(fmt::format("'{}' must be an object", path));
        s.rocm.installs.push_back({readOr<std::string>(installs[i], "path", path, ""),
                                   readOpt<std::string>(installs[i], "version", path),
                                   readOr<std::string>(installs[i], "version_source", path, "")});
    }
    s.rocm.loadedPath = readOpt<std::string>(rocm, "loaded_path", "rocm");
    s.rocm.hipRuntimeVersion = readOpt<std::string>(rocm, "hip_runtime_version", "rocm");
    s.rocm.hipDriverVersion = readOpt<std::string>(rocm, "hip_driver_version", "rocm");
    s.rocm.amdgpuDriverVersion = readOpt<std::string>(rocm, "amdgpu_driver_version", "rocm");

    const auto& cuda = objectAt(j, "cuda", "");
    s.cuda.driverVersion = readOpt<std::string>(cuda, "driver_version", "cuda");
    s.cuda.cudaDriverVersion = readOpt<std::string>(cuda, "cuda_driver_version", "cuda");
    s.cuda.runtimeVersion = readOpt<std::string>(cuda, "runtime_version", "cuda");
    s.cuda.runtimePath = readOpt<std::string>(cuda, "runtime_path", "cuda");

    const auto& torch = objectAt(j, "torch", "");
    s.torch.version = readOpt<std::string>(torch, "version", "torch");
    s.torch.backend = readOpt<std::string>(torch, "backend", "torch");
    s.torch.builtWith = readOpt<std::string>(torch, "built_with", "torch");
    s.torch.archList = readOpt<std::vector<std::string>>(torch, "arch_list", "torch");
    s.torch.blasBackend = readOpt<std::string>(torch, "blas_backend", "torch");
    s.torch.libraryPath = readOpt<std::string>(torch, "library_path", "torch");
    s.torch.modulePath = readOpt<std::string>(torch, "module_path", "torch");
    s.torch.deviceCount = readOpt<int>(torch, "device_count", "torch");

}

void readAccessAndEnv(const json& j, Snapshot& s)
{
    const auto& access = objectAt(j, "access", "");
    if (access.contains("kfd") && !access["kfd"].is_null())
        s.access.kfd = deviceNodeFromJson(access["kfd"], "access.kfd");
    const auto& renders = arrayAt(access, "render_nodes", "access.");
    for (size_t i = 0; i < renders.size(); ++i)
        s.access.renderNodes.push_back(deviceNodeFromJson(renders[i], fmt::format("access.render_nodes[{}]", i)));
    s.access.user = readOpt<std::string>(access, "user", "access");
    s.access.userGroups = readOr<std::vector<std::string>>(access, "user_groups", "access", {});

    s.envKnown = !j.contains("env") || !j["env"].is_null();
    const auto& env = objectAt(j, "env", "");
    for (const auto& [k, v] : env.items()) {
        if (!v.is_string())
            throw SnapshotError(fmt::format("'env.{}' must be a string, found {}", k, v.type_name()));
        s.env[k] = v.get<std::string>();
    }
}

void readLibraries(const json& j, Snapshot& s)
{
    const auto& libraries = arrayAt(j, "libraries", "");
    for (size_t i = 0; i < libraries.size(); ++i) {
        const auto path = fmt::format("libraries[{}]", i);
        const auto& l = libraries[i];
        if (!l.is_object())
            throw SnapshotError(fmt::format("'{}' must be an object", path));
        LibraryStatus st;
        st.component = readOr<std::string>(l, "component", path, "");
        st.loaded = readOr<bool>(l, "loaded", path, false);
        st.path = readOpt<std::string>(l, "path", path);
        st.error = readOpt<std::string>(l, "error", path);
        const auto& tried = arrayAt(l, "tried", path + ".");
        for (const auto& a : tried) {
            if (!a.is_object())
                throw SnapshotError(fmt::format("'{}.tried[]' must hold objects", path));
            st.tried.push_back({readOr<std::string>(a, "path", path, ""), readOr<std::string>(a, "error", path, "")});
        }
        s.libraries.push_back(std::move(st));
    }
}

// The coverage section is read by its owner (core/archscan), its errors passed on as the snapshot's.
void readArchCoverage(const json& j, Snapshot& s)
{
    if (auto it = j.find("arch_coverage"); it != j.end() && !it->is_null()) {
        try {
            s.archCoverage = archscan::coverageFromJson(*it);
        } catch (const archscan::CoverageJsonError& e) {
            throw SnapshotError(e.what());
        }
    }
}

// The section kept as JSON (python_envs): its shape is checked, its content read by its owner.
void readJsonSections(const json& j, Snapshot& s)
{
    if (auto it = j.find("python_envs"); it != j.end() && !it->is_null()) {
        if (!it->is_array())
            throw SnapshotError(fmt::format("'python_envs' must be an array, found {}", it->type_name()));
        for (const auto& e : *it) {
            if (!e.is_object() || !e.contains("path") || !e["path"].is_string())
                throw SnapshotError("'python_envs[]' must hold objects with a \"path\" string");
        }
        s.pythonEnvs = *it;
    }
}

} // namespace

Snapshot snapshotFromJson(const json& j)
{
    if (!j.is_object())
        throw SnapshotError(fmt::format("a snapshot must be a JSON object, found {}", j.type_name()));
    const auto schema = j.find("schema");
    if (schema == j.end() || !schema->is_string())
        throw SnapshotError(fmt::format("no \"schema\" key: this is not a StackScope snapshot (expected \"{}\")", kSnapshotSchema));
    if (schema->get<std::string>() != kSnapshotSchema)
        throw SnapshotError(fmt::format("schema is \"{}\" but this StackScope reads \"{}\"; export the snapshot "
                                        "again with this version, or open it with the StackScope that wrote it",
                                        schema->get<std::string>(), kSnapshotSchema));
    Snapshot s;
    s.capturedAt = readOr<std::string>(j, "captured_at", "", "");
    s.root = readOpt<std::string>(j, "root", "");
    const auto& host = objectAt(j, "host", "");
    s.host.os = readOpt<std::string>(host, "os", "host");
    s.host.kernel = readOpt<std::string>(host, "kernel", "host");
    s.host.hostname = readOpt<std::string>(host, "hostname", "host");
    s.hostExtras = hostExtrasFromJson(objectAt(j, "host_extras", ""));
    const auto& gpus = arrayAt(j, "gpus", "");
    for (size_t i = 0; i < gpus.size(); ++i)
        s.gpus.push_back(gpuFromJson(gpus[i], fmt::format("gpus[{}]", i), i));
    readRocmCuda(j, s);
    readAccessAndEnv(j, s);
    readLibraries(j, s);
    readArchCoverage(j, s);
    readJsonSections(j, s);
    s.findings = findingsFromJson(arrayAt(j, "findings", ""), "findings");
    return s;
}

Snapshot parseSnapshot(const std::string& text, const std::string& origin)
{
    json j;
    try {
        // Depth and size are bounded by nlohmann's iterative parser; no callbacks needed.
        j = json::parse(text);
    } catch (const json::exception& e) { // parse_error, and out_of_range for a number such as 1e999999999
        const std::string place = jsonErrorPlace(text, e);
        throw SnapshotError(fmt::format("{}:{} not valid JSON: {}; fix that value, or export the snapshot again "
                                        "(stackscope-cli inspect --out FILE)",
                                        origin, place.empty() ? std::string() : " " + place + ":", jsonErrorWhat(e)));
    }
    try {
        return snapshotFromJson(j);
    } catch (const SnapshotError& e) {
        throw SnapshotError(fmt::format("{}: {}", origin, e.what()));
    }
}

Snapshot loadSnapshotFile(const std::string& path)
{
    std::string why;
    const auto text = readRegularFile(path, kWrittenFileCap, &why);
    if (!text)
        throw SnapshotError(fmt::format("{}: cannot be read ({}); give the file `stackscope-cli inspect --json` wrote",
                                        path, why));
    return parseSnapshot(*text, path);
}

void saveSnapshotFile(const Snapshot& s, const std::string& path)
{
    // Facts read from the machine (sysfs names, environment values) may hold bytes that are not UTF-8.
    writeFileAtomically(path, toJson(s).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

} // namespace stackscope
