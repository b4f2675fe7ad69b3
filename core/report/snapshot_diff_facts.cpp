// A snapshot flattened to area -> item -> fact for the diff; what the snapshot cannot tell reads "unknown: <why>".
#include "core/report/snapshot_diff_facts.h"

#include "core/report/snapshot_diff.h"
#include "core/snapshot/stack_rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

namespace stackscope::report {

bool DiffFact::hasUnknown() const
{
    return std::any_of(parts.begin(), parts.end(), [](const auto& p) { return !p.has_value(); });
}

namespace {

DiffFact known(std::string value)
{
    return {{value}, value};
}

DiffFact unknown(const std::string& why)
{
    return {{std::nullopt}, kUnknownPrefix + why};
}

DiffFact opt(const std::optional<std::string>& v)
{
    return known(v ? *v : kNone);
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

// Why a fact read from the machine's files is not there: the System page's words (stack_rows' "not in the recorded
// files" for a recorded root).
std::string notRead(const Snapshot& s)
{
    return s.root ? "not in the recorded files" : "could not be read";
}

// A library the snapshot has no record of loading was not queried (a recorded machine loads none): what only it tells
// is unknown, as stack_rows' library rows say. A record of a library that did not load makes its facts absent.
bool queried(const Snapshot& s, const std::string& component)
{
    return std::any_of(s.libraries.begin(), s.libraries.end(),
                       [&](const LibraryStatus& l) { return l.component == component; });
}

std::string notQueriedWhy(const Snapshot& s, const std::string& component)
{
    return s.root ? "not queried (recorded machine)" : "not queried (the snapshot has no record of loading " + component + ")";
}

DiffFact fromLibrary(const Snapshot& s, const std::string& component, const std::optional<std::string>& v)
{
    if (v || queried(s, component))
        return opt(v);
    return unknown(notQueriedWhy(s, component));
}

bool anyVendor(const Snapshot& s, const char* vendor)
{
    return std::any_of(s.gpus.begin(), s.gpus.end(), [&](const GpuInfo& g) { return g.vendor == vendor; });
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

std::string envUnknownWhy(const Snapshot& s)
{
    return s.root ? "not recorded (.stackscope/env)" : "not recorded in the snapshot";
}

// Why a node's permission is not known, in the System page's access box words.
std::string nodeUnknownWhy(const Snapshot& s, const DeviceNode& n)
{
    if (!n.mode || !n.group)
        return s.root ? "mode and group not recorded (.stackscope/dev-stat)"
                      : "mode and group could not be read";
    if (!s.access.user)
        return s.root ? "read-write, the user was not recorded (.stackscope/id)" : "read-write, the user could not be read";
    return "read-write could not be tested";
}

// "exists, read-write no, group render, mode 0660"; what is not known follows as "; unknown: <why>".
DiffFact nodeFact(const Snapshot& s, const DeviceNode& n)
{
    if (!n.exists)
        return known("missing");
    const auto rw = n.readWrite ? std::optional<std::string>(*n.readWrite ? "yes" : "no") : std::nullopt;
    DiffFact f {{std::string("exists"), rw, n.group, n.mode}, "exists"};
    if (rw)
        f.text += ", read-write " + *rw;
    if (n.group)
        f.text += ", group " + *n.group;
    if (n.mode)
        f.text += ", mode " + *n.mode;
    if (f.hasUnknown())
        f.text += "; " + std::string(kUnknownPrefix) + nodeUnknownWhy(s, n);
    return f;
}

// Coverage: per library path, the archs it carries and each device cell (yes/no/ptx/generic), keyed by path so
// that a different scan order is not a difference; the wording of explanations and the full target ids are not.
void addCoverageFacts(AreaFacts& c, const Snapshot& s)
{
    if (!s.archCoverage)
        return;
    for (const auto& lib : s.archCoverage->libraries) {
        std::set<std::string> archs;
        for (const auto& t : lib.targets)
            archs.insert(t.arch);
        c[lib.path + " archs"] = known(joined(std::vector<std::string>(archs.begin(), archs.end())));
        for (const auto& [device, verdict] : lib.covers)
            c[lib.path + " on " + device] = known(archscan::coverageName(verdict.coverage));
        if (!lib.errors.empty())
            c[lib.path + " errors"] = known(nlohmann::json(lib.errors).dump());
    }
}

// A ROCm install without a version: the install is there, its version could not be read.
DiffFact installVersion(const RocmInstall& i)
{
    return i.version ? known(*i.version) : unknown("no version could be read (.info/version, dpkg)");
}

// With an AMD GPU listed the module must be there: a version that cannot be read is unknown (as on the stack table).
DiffFact amdgpuDriver(const Snapshot& s)
{
    if (!s.rocm.amdgpuDriverVersion && anyVendor(s, "amd"))
        return unknown("an AMD GPU is listed but /sys/module/amdgpu gives no version");
    return opt(s.rocm.amdgpuDriverVersion);
}

void addVersionFacts(AreaFacts& v, const Snapshot& s)
{
    for (const auto& i : s.rocm.installs)
        v["ROCm " + i.path] = installVersion(i);
    v["HIP runtime"] = fromLibrary(s, "HIP runtime", s.rocm.hipRuntimeVersion);
    v["HIP driver"] = fromLibrary(s, "HIP runtime", s.rocm.hipDriverVersion);
    v["amdgpu driver"] = amdgpuDriver(s);
    v["NVIDIA driver"] = opt(s.cuda.driverVersion);
    v["CUDA (driver)"] = fromLibrary(s, "NVML", s.cuda.cudaDriverVersion);
    v["CUDA runtime"] = fromLibrary(s, "CUDA runtime", s.cuda.runtimeVersion);
    const auto torch = [&](const std::optional<std::string>& value) { return fromLibrary(s, "libtorch module", value); };
    v["torch version"] = torch(s.torch.version);
    v["torch backend"] = torch(s.torch.backend);
    v["torch built with"] = torch(s.torch.builtWith);
    v["torch arch list"] = torch(s.torch.archList ? std::optional<std::string>(joined(*s.torch.archList)) : std::nullopt);
    v["torch BLAS backend"] = torch(s.torch.blasBackend);
    v["torch device count"] =
        torch(s.torch.deviceCount ? std::optional<std::string>(std::to_string(*s.torch.deviceCount)) : std::nullopt);
}

// A listed GPU always has a name, a vendor, an architecture, VRAM and a driver: one the snapshot lacks is unknown
// (the GPU card's "VRAM unknown", "Driver: unknown"), never absent; so is a name that is only a stand-in (a KFD node
// without a /sys/class/drm entry).
void addGpuFacts(AreaFacts& g, const Snapshot& s)
{
    const auto orUnknown = [&](const std::optional<std::string>& v) { return v ? known(*v) : unknown(notRead(s)); };
    const auto text = [](const std::string& v) { return v.empty() ? std::nullopt : std::optional<std::string>(v); };
    g["GPU count"] = known(std::to_string(s.gpus.size()));
    for (const auto& gpu : s.gpus) {
        const auto key = fmt::format("GPU {}", gpu.index);
        g[key + " name"] = gpu.nameKnown ? orUnknown(text(gpu.name)) : unknown("KFD only, no /sys/class/drm entry");
        g[key + " vendor"] = orUnknown(text(gpu.vendor));
        g[key + " arch"] = orUnknown(gpu.arch);
        // In the System card's units ("512 MiB", "20.0 GiB"), so that both pages read alike.
        g[key + " VRAM"] = orUnknown(gpu.vramTotalBytes ? std::optional<std::string>(formatBytes(*gpu.vramTotalBytes)) : std::nullopt);
        g[key + " driver"] = orUnknown(gpu.driverVersion);
    }
}

DiffFact libraryFact(const LibraryStatus& lib)
{
    std::string value = lib.loaded ? "loaded " + lib.path.value_or(kNone) : "not loaded";
    if (lib.error)
        value += ": " + *lib.error;
    else if (!lib.loaded && !lib.tried.empty())
        value += ": " + lib.tried.back().error;
    return known(value);
}

void addLibraryFacts(AreaFacts& l, const Snapshot& s)
{
    l["ROCm loaded from"] = fromLibrary(s, "HIP runtime", s.rocm.loadedPath);
    l["CUDA runtime loaded from"] = fromLibrary(s, "CUDA runtime", s.cuda.runtimePath);
    l["libtorch loaded from"] = fromLibrary(s, "libtorch module", s.torch.libraryPath);
    for (const auto& lib : s.libraries)
        l[lib.component] = libraryFact(lib);
}

// The user's groups: unknown where the user is (the System page's "User and groups: unknown"); a known user in no
// group listed is absent.
DiffFact userGroups(const Snapshot& s)
{
    if (!s.access.user)
        return unknown(s.root ? "not recorded (.stackscope/id)" : "could not be read");
    return known(joined(s.access.userGroups));
}

void addAccessFacts(AreaFacts& a, const Snapshot& s)
{
    a["user groups"] = userGroups(s);
    a[s.access.kfd.path.empty() ? "/dev/kfd" : s.access.kfd.path] = nodeFact(s, s.access.kfd);
    for (const auto& n : s.access.renderNodes)
        a[n.path] = nodeFact(s, n);
}

// The OS and the kernel: unknown on a recorded machine whose files lack them; absent when this machine has none
// (the stack table's Operating system and Kernel rows).
DiffFact hostFact(const Snapshot& s, const std::optional<std::string>& v)
{
    return v || !s.root ? opt(v) : unknown(notRead(s));
}

} // namespace

SnapshotFacts diffFacts(const Snapshot& s)
{
    SnapshotFacts areas;
    addVersionFacts(areas["versions"], s);
    auto& h = areas["host"];
    h["OS"] = hostFact(s, s.host.os);
    h["kernel"] = hostFact(s, s.host.kernel);
    addGpuFacts(areas["gpus"], s);
    addLibraryFacts(areas["libraries"], s);
    auto& e = areas["environment"];
    for (const auto& [name, value] : s.env) {
        if (isRelevantEnv(name))
            e[name] = known(value);
    }
    addAccessFacts(areas["access"], s);
    addCoverageFacts(areas["coverage"], s);
    return areas;
}

DiffFact absentFact(const Snapshot& s, const std::string& area, const std::string& item)
{
    if (area == "libraries" && !queried(s, item))
        return unknown(notQueriedWhy(s, item));
    if (area == "coverage" && !s.archCoverage)
        return unknown("the kernel coverage was not scanned");
    if (area == "environment" && !s.envKnown)
        return unknown(envUnknownWhy(s));
    return known(kNone);
}

} // namespace stackscope::report
