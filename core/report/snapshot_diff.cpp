// Snapshot comparison: each area flattened to item -> text, then only the items whose text differs are kept.
#include "core/report/snapshot_diff.h"

#include "core/snapshot/stack_rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace stackscope::report {

namespace {

using Facts = std::map<std::string, std::string>; // item -> value, in the item's sort order

std::string opt(const std::optional<std::string>& v)
{
    return v ? *v : kNone;
}

std::string optBool(const std::optional<bool>& v)
{
    return v ? (*v ? "yes" : "no") : "unknown";
}

std::string joined(const std::vector<std::string>& list)
{
    if (list.empty())
        return kNone;
    std::string out;
    for (const auto& s : list)
        out += (out.empty() ? "" : " ") + s;
    return out;
}

// Environment variables that steer GPU libraries or PyTorch; others (DISPLAY, SHELL ...) are noise.
bool isRelevantEnv(const std::string& name)
{
    static const std::array<const char*, 16> kPrefixes {"HSA_",     "HIP_",     "ROCR_",     "ROCM_",
                                                       "ROCBLAS_", "HIPBLASLT_", "MIOPEN_", "CUDA_",
                                                       "NCCL_",    "RCCL_",    "PYTORCH_",  "TORCH_",
                                                       "AMD_",     "DISABLE_ADDMM_", "NVIDIA_", "GPU_"};
    if (name == "LD_LIBRARY_PATH" || name == "PATH" || name == "LD_PRELOAD" || name == "PYTHONPATH")
        return true;
    return std::any_of(kPrefixes.begin(), kPrefixes.end(),
                       [&](const char* p) { return name.rfind(p, 0) == 0; });
}

std::string nodeText(const DeviceNode& n)
{
    if (!n.exists)
        return "missing";
    return fmt::format("exists, read-write {}, group {}, mode {}", optBool(n.readWrite), opt(n.group), opt(n.mode));
}

// Coverage: per library path, the archs it carries and each device cell (yes/no/ptx/generic), keyed by path so
// that a different scan order is not a difference; the wording of explanations and the full target ids are not.
void addCoverageFacts(Facts& c, const Snapshot& s)
{
    if (!s.archCoverage)
        return;
    for (const auto& lib : s.archCoverage->libraries) {
        std::set<std::string> archs;
        for (const auto& t : lib.targets)
            archs.insert(t.arch);
        c[lib.path + " archs"] = joined(std::vector<std::string>(archs.begin(), archs.end()));
        for (const auto& [device, verdict] : lib.covers)
            c[lib.path + " on " + device] = archscan::coverageName(verdict.coverage);
        if (!lib.errors.empty())
            c[lib.path + " errors"] = nlohmann::json(lib.errors).dump();
    }
}

void addVersionFacts(Facts& v, const Snapshot& s)
{
    for (const auto& i : s.rocm.installs)
        v["ROCm " + i.path] = opt(i.version);
    v["HIP runtime"] = opt(s.rocm.hipRuntimeVersion);
    v["HIP driver"] = opt(s.rocm.hipDriverVersion);
    v["amdgpu driver"] = opt(s.rocm.amdgpuDriverVersion);
    v["NVIDIA driver"] = opt(s.cuda.driverVersion);
    v["CUDA (driver)"] = opt(s.cuda.cudaDriverVersion);
    v["CUDA runtime"] = opt(s.cuda.runtimeVersion);
    v["torch version"] = opt(s.torch.version);
    v["torch backend"] = opt(s.torch.backend);
    v["torch built with"] = opt(s.torch.builtWith);
    v["torch arch list"] = s.torch.archList ? joined(*s.torch.archList) : kNone;
    v["torch BLAS backend"] = opt(s.torch.blasBackend);
    v["torch device count"] = s.torch.deviceCount ? std::to_string(*s.torch.deviceCount) : kNone;
}

void addGpuFacts(Facts& g, const Snapshot& s)
{
    g["GPU count"] = std::to_string(s.gpus.size());
    for (const auto& gpu : s.gpus) {
        const auto key = fmt::format("GPU {}", gpu.index);
        g[key + " name"] = gpu.name.empty() ? kNone : gpu.name;
        g[key + " vendor"] = gpu.vendor.empty() ? kNone : gpu.vendor;
        g[key + " arch"] = opt(gpu.arch);
        // In the System card's units ("512 MiB", "20.0 GiB"), so that both pages read alike.
        g[key + " VRAM"] = gpu.vramTotalBytes ? formatBytes(*gpu.vramTotalBytes) : kNone;
        g[key + " driver"] = opt(gpu.driverVersion);
    }
}

void addLibraryFacts(Facts& l, const Snapshot& s)
{
    l["ROCm loaded from"] = opt(s.rocm.loadedPath);
    l["CUDA runtime loaded from"] = opt(s.cuda.runtimePath);
    l["libtorch loaded from"] = opt(s.torch.libraryPath);
    for (const auto& lib : s.libraries) {
        std::string value = lib.loaded ? "loaded " + opt(lib.path) : "not loaded";
        if (lib.error)
            value += ": " + *lib.error;
        else if (!lib.loaded && !lib.tried.empty())
            value += ": " + lib.tried.back().error;
        l[lib.component] = value;
    }
}

// What a side without the fact reads: a recorded machine (inspect --root) loads no library and no torch, so its
// libraries and torch facts were not asked for, which is not the same as missing.
std::string absent(const Snapshot& s, const std::string& area, const std::string& item)
{
    const bool recorded = s.root && s.libraries.empty();
    // The versions only a loaded library tells (the HIP and CUDA runtimes, NVML's CUDA version, torch).
    const bool fromLibrary = item.rfind("torch ", 0) == 0 || item == "HIP runtime" || item == "HIP driver" ||
                             item == "CUDA (driver)" || item == "CUDA runtime";
    if (recorded && (area == "libraries" || (area == "versions" && fromLibrary)))
        return kNotQueried;
    return kNone;
}

void addFacts(std::map<std::string, Facts>& areas, const Snapshot& s)
{
    addVersionFacts(areas["versions"], s);
    auto& h = areas["host"];
    h["OS"] = opt(s.host.os);
    h["kernel"] = opt(s.host.kernel);
    addGpuFacts(areas["gpus"], s);
    addLibraryFacts(areas["libraries"], s);
    auto& e = areas["environment"];
    for (const auto& [name, value] : s.env) {
        if (isRelevantEnv(name))
            e[name] = value;
    }

    auto& a = areas["access"];
    a["user groups"] = joined(s.access.userGroups);
    a[s.access.kfd.path.empty() ? "/dev/kfd" : s.access.kfd.path] = nodeText(s.access.kfd);
    for (const auto& n : s.access.renderNodes)
        a[n.path] = nodeText(n);

    addCoverageFacts(areas["coverage"], s);
    // A recorded machine's unknowns read as such, not as "(none)" (see absent()).
    for (auto& [area, facts] : areas)
        for (auto& [item, value] : facts)
            if (value == kNone)
                value = absent(s, area, item);
}


} // namespace

std::vector<DiffRow> diffSnapshots(const Snapshot& a, const Snapshot& b)
{
    std::map<std::string, Facts> fa;
    std::map<std::string, Facts> fb;
    addFacts(fa, a);
    addFacts(fb, b);
    std::vector<DiffRow> rows;
    // Area order as a person reads it: what is installed first, then what is set around it.
    for (const char* area : {"versions", "gpus", "libraries", "environment", "access", "host", "coverage"}) {
        const auto& x = fa[area];
        const auto& y = fb[area];
        std::set<std::string> items;
        for (const auto& [k, v] : x)
            items.insert(k);
        for (const auto& [k, v] : y)
            items.insert(k);
        for (const auto& item : items) {
            const auto ix = x.find(item);
            const auto iy = y.find(item);
            const std::string va = ix == x.end() ? absent(a, area, item) : ix->second;
            const std::string vb = iy == y.end() ? absent(b, area, item) : iy->second;
            if (va != vb)
                rows.push_back({area, item, va, vb});
        }
    }
    return rows;
}

nlohmann::json diffToJson(const std::vector<DiffRow>& rows)
{
    auto out = nlohmann::json::array();
    for (const auto& r : rows)
        out.push_back({{"area", r.area}, {"item", r.item}, {"a", r.a}, {"b", r.b}});
    return out;
}

} // namespace stackscope::report
