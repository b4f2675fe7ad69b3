// Scan orchestration: files, folders, the default set of a machine, devices, coverage.
#include "core/archscan/arch_scan.h"

#include "core/archscan/bounded_scan.h"
#include "core/archscan/coverage.h"
#include "core/archscan/elf_reader.h"
#include "core/archscan/folder_scan.h"
#include "core/archscan/mapped_file.h"
#include "core/archscan/nv_fatbin.h"
#include "core/archscan/offload_bundle.h"
#include "core/util/program_paths.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <system_error>

namespace fs = std::filesystem;

namespace stackscope::archscan {

namespace {

constexpr int kMaxFolderDepth = 3;
constexpr std::size_t kMaxFilesPerFolder = 20000;

// A damaged library can produce one error per bundle; the first kMaxErrorsKept say enough.
void addErrors(LibraryScan& scan, const std::vector<std::string>& errors, std::uint64_t notKept)
{
    for (const auto& e : errors)
        addBoundedError(scan.errors, scan.errorsNotKept, [&] { return e; });
    scan.errorsNotKept += notKept;
    if (!errors.empty() || notKept > 0)
        scan.unreadable = true; // a damaged container: what the file covers is not known
}

void mergeTargets(LibraryScan& scan, const std::vector<ScannedTarget>& found, std::uint64_t notKept)
{
    TargetSet seen;
    for (const auto& t : found)
        seen.add(t, scan.targets, scan.targetsNotKept);
    scan.targetsNotKept += notKept;
}

void scanHipSection(ByteView section, LibraryScan& scan)
{
    scan.kind = LibraryKind::Hip;
    BundleScan b = scanOffloadBundles(section);
    mergeTargets(scan, b.targets, b.targetsNotKept);
    scan.containers += b.bundles;
    addErrors(scan, b.errors, b.errorsNotKept);
    if (b.bundles == 0 && b.errors.empty())
        addErrors(scan, {"the GPU code section holds no offload bundle: damaged, or a format StackScope does not know"}, 0);
}

void scanCudaSection(ByteView section, LibraryScan& scan)
{
    scan.kind = LibraryKind::Cuda;
    FatbinScan f = scanNvFatbin(section);
    mergeTargets(scan, f.targets, f.targetsNotKept);
    scan.containers += f.blobs;
    addErrors(scan, f.errors, f.errorsNotKept);
}

// Returns false when the bytes carry no GPU code StackScope knows (nothing was added to `scan`).
bool scanBytes(ByteView bytes, LibraryScan& scan)
{
    if (bytes.startsWith("__CLANG_OFFLOAD_BUNDLE__", 24) || bytes.startsWith("CCOB", 4)) {
        scanHipSection(bytes, scan);
        return true;
    }
    if (bytes.size >= 4 && bytes.read<std::uint32_t>(0, "magic") == 0xBA55ED50) {
        scanCudaSection(bytes, scan);
        return true;
    }
    if (!looksLikeElf(bytes))
        return false;
    const ElfFile elf = readElf(bytes);
    bool found = false;
    // __nv_relfatbin holds the fatbins of relocatable device code (nvcc -rdc); same layout.
    for (const char* name : {".hip_fatbin", ".nv_fatbin", "__nv_relfatbin"}) {
        const ElfSection* s = elf.find(name);
        if (!s)
            continue;
        found = true;
        if (!s->inFile) {
            scan.kind = std::string(name) == ".hip_fatbin" ? LibraryKind::Hip : LibraryKind::Cuda;
            addErrors(scan, {fmt::format("section {} ({} bytes at offset {}) is not all in the file ({} bytes): "
                                         "the file is truncated; reinstall it", name, s->size, s->offset, bytes.size)}, 0);
            continue;
        }
        const ByteView section = bytes.sub(s->offset, s->size, name);
        if (std::string(name) == ".hip_fatbin")
            scanHipSection(section, scan);
        else
            scanCudaSection(section, scan);
    }
    // Libraries such as cuFFT keep most of their fatbins in data sections and load them themselves;
    // only CUDA libraries are searched, and only blobs that parse count.
    if (found && scan.kind == LibraryKind::Cuda) {
        for (const char* name : {".ldata", ".lrodata", ".rodata", ".data", ".data.rel.ro"}) {
            const ElfSection* s = elf.find(name);
            if (!s || !s->inFile)
                continue;
            FatbinScan f = scanNvFatbin(bytes.sub(s->offset, s->size, name), true);
            mergeTargets(scan, f.targets, f.targetsNotKept);
            scan.containers += f.blobs;
        }
    }
    return found;
}

bool isElfFile(const fs::path& p)
{
    std::error_code ec;
    if (!fs::is_regular_file(p, ec) || fs::file_size(p, ec) < 64 || ec)
        return false;
    FILE* f = std::fopen(p.c_str(), "rb");
    if (!f)
        return false;
    char magic[4] = {};
    const bool ok = std::fread(magic, 1, 4, f) == 4 && std::memcmp(magic, "\x7f" "ELF", 4) == 0;
    std::fclose(f);
    return ok;
}

void scanFolderFiles(const std::string& folder, std::vector<LibraryScan>& out)
{
    std::error_code ec;
    fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
    LibraryScan summary;
    summary.path = folder;
    if (ec) {
        summary.errors.push_back(fmt::format("cannot list {}: {} (check the folder's permissions)", folder, ec.message()));
        summary.unreadable = true;
        out.push_back(std::move(summary));
        return;
    }
    std::size_t files = 0;
    const std::size_t before = out.size();
    for (const fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
        if (ec) {
            summary.errors.push_back(fmt::format("listing {} stopped: {}", folder, ec.message()));
            summary.unreadable = true;
            break;
        }
        if (it.depth() >= kMaxFolderDepth)
            it.disable_recursion_pending();
        if (++files > kMaxFilesPerFolder) {
            summary.errors.push_back(fmt::format("{} holds more than {} entries; scanned the first ones only: pass "
                                                 "the library files or their folder directly", folder, kMaxFilesPerFolder));
            break;
        }
        if (!isElfFile(it->path()))
            continue;
        if (auto scan = scanBinaryFile(it->path().string(), true))
            out.push_back(std::move(*scan));
    }
    if (out.size() == before || !summary.errors.empty()) {
        if (out.size() == before && summary.errors.empty())
            summary.errors.push_back(fmt::format("no file in {} carries HIP or CUDA code (.hip_fatbin / .nv_fatbin), and it "
                                                 "is no rocBLAS/hipBLASLt/MIOpen folder", folder));
        out.push_back(std::move(summary));
    }
}

std::string joinRoot(const Snapshot& s, const std::string& path)
{
    if (!s.root || s.root->empty() || *s.root == "/")
        return path;
    return (fs::path(*s.root) / fs::path(path).relative_path()).string();
}

bool isDir(const std::string& p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

bool isFile(const std::string& p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

// rocBLAS puts its folder at <lib>/rocblas/library upstream and at <lib>/rocblas/<version>/library on Debian.
std::optional<std::string> findLibraryFolder(const std::string& lib, const std::string& component)
{
    const std::string direct = lib + "/" + component + "/library";
    if (isDir(direct))
        return direct;
    std::error_code ec;
    fs::directory_iterator it(lib + "/" + component, ec);
    if (ec)
        return std::nullopt;
    std::vector<std::string> found;
    for (const fs::directory_iterator end; it != end; it.increment(ec)) {
        if (ec)
            break;
        if (isDir(it->path().string() + "/library"))
            found.push_back(it->path().string() + "/library");
    }
    std::sort(found.begin(), found.end());
    if (found.empty())
        return std::nullopt;
    return found.back();
}

} // namespace

LibraryScan scanBinaryBytes(ByteView bytes, const std::string& label)
{
    LibraryScan scan;
    scan.path = label;
    try {
        if (!scanBytes(bytes, scan))
            scan.errors.push_back("no HIP (.hip_fatbin) or CUDA (.nv_fatbin) code in this file: it carries no GPU kernels");
    } catch (const FormatError& e) {
        addErrors(scan, {fmt::format("{}: damaged or truncated binary ({}); reinstall the library", label, e.what())}, 0);
    }
    return scan;
}

namespace {

LibraryScan unreadableScan(const std::string& path, std::string why)
{
    LibraryScan scan;
    scan.path = path;
    scan.unreadable = true;
    scan.errors.push_back(std::move(why));
    return scan;
}

} // namespace

std::optional<LibraryScan> scanBinaryFile(const std::string& path, bool quietIfNoGpuCode)
{
    std::unique_ptr<MappedFile> file;
    try {
        file = std::make_unique<MappedFile>(path);
    } catch (const std::runtime_error& e) { // NotRegularFileError too
        return unreadableScan(path, e.what());
    }
    LibraryScan scan;
    scan.path = path;
    bool gpuCode = true;
    // A file that shrinks while mapped raises SIGBUS on the next read past its new end: the guard turns
    // that into a failed read; a file that changed in place is caught by comparing its size and time.
    const bool survived = file->readGuarded([&] {
        try {
            gpuCode = scanBytes(file->view(), scan);
        } catch (const FormatError& e) {
            addErrors(scan, {fmt::format("damaged or truncated binary: {}; reinstall the library", e.what())}, 0);
        }
    });
    if (!survived || file->changedSinceOpen())
        return unreadableScan(path, fmt::format("{} changed while it was being read ({} bytes when the scan began, {} "
                                                "now): scan it again once nothing is writing it",
                                                path, file->view().size, file->currentSize()));
    if (!gpuCode) {
        if (quietIfNoGpuCode)
            return std::nullopt;
        scan.errors.push_back("no HIP (.hip_fatbin) or CUDA (.nv_fatbin) code in this file: it carries no GPU kernels");
    }
    return scan;
}

std::vector<LibraryScan> scanPath(const std::string& path)
{
    std::vector<LibraryScan> out;
    std::error_code ec;
    const auto st = fs::status(path, ec);
    if (ec || !fs::exists(st)) {
        LibraryScan s;
        s.path = path;
        s.errors.push_back(fmt::format("{} does not exist or cannot be reached ({}): check the path",
                                       path, ec ? ec.message() : "no such file or folder"));
        out.push_back(std::move(s));
        return out;
    }
    if (!fs::is_directory(st)) {
        if (auto s = scanBinaryFile(path))
            out.push_back(std::move(*s));
        return out;
    }
    const auto kind = classifyFolder(path);
    if (kind == LibraryKind::Tensile)
        out.push_back(scanTensileFolder(path));
    else if (kind == LibraryKind::Miopen)
        out.push_back(scanMiopenFolder(path));
    else
        scanFolderFiles(path, out);
    return out;
}

namespace {

// The default scan set as it is gathered: each path once, with the notes on what was not found.
struct ScanSet {
    std::vector<DefaultScanPath> out;
    std::vector<std::string>* notes;

    void note(std::string n)
    {
        if (notes)
            notes->push_back(std::move(n));
    }
    void add(const std::string& path, std::string reason, bool quiet = false)
    {
        for (const auto& o : out)
            if (o.path == path)
                return;
        out.push_back({path, std::move(reason), quiet});
    }
};

// libtorch's GPU library and what the wheel bundles beside it.
void addTorchLibraries(const Snapshot& s, ScanSet& set)
{
    if (s.torch.libraryPath) {
        const std::string torchLib = joinRoot(s, fs::path(*s.torch.libraryPath).parent_path().string());
        bool gpuLib = false;
        for (const char* name : {"libtorch_hip.so", "libtorch_cuda.so"}) {
            if (isFile(torchLib + "/" + name)) {
                set.add(torchLib + "/" + name, "libtorch's GPU library");
                gpuLib = true;
            }
        }
        if (!gpuLib)
            set.note(fmt::format("no libtorch_hip.so or libtorch_cuda.so beside {}: this libtorch is a CPU build", *s.torch.libraryPath));
        if (isDir(torchLib + "/rocblas/library"))
            set.add(torchLib + "/rocblas/library", "rocBLAS Tensile library bundled with PyTorch");
        if (isDir(torchLib + "/hipblaslt/library"))
            set.add(torchLib + "/hipblaslt/library", "hipBLASLt library bundled with PyTorch");
    } else {
        set.note("libtorch was not loaded, so its GPU library was not scanned: pass the path of libtorch_hip.so or "
                 "libtorch_cuda.so");
    }
}

// The lib folder of the ROCm whose HIP runtime was loaded, else of the first install found.
std::optional<std::string> rocmLibFolder(const Snapshot& s)
{
    std::optional<std::string> rocmLib;
    if (s.rocm.loadedPath)
        rocmLib = joinRoot(s, fs::path(*s.rocm.loadedPath).parent_path().string());
    else if (!s.rocm.installs.empty())
        rocmLib = joinRoot(s, s.rocm.installs.front().path + "/lib");
    return rocmLib;
}

// rocBLAS and hipBLASLt: the folder their environment variable names, else the one under the ROCm.
void addTensileFolders(const Snapshot& s, const std::optional<std::string>& rocmLib, ScanSet& set)
{
    auto envPath = [&](const char* var) -> std::optional<std::string> {
        const auto it = s.env.find(var);
        if (it == s.env.end() || it->second.empty())
            return std::nullopt;
        return it->second;
    };
    const struct {
        const char* component;
        const char* env;
        const char* label;
    } tensile[] = {{"rocblas", "ROCBLAS_TENSILE_LIBPATH", "rocBLAS"}, {"hipblaslt", "HIPBLASLT_TENSILE_LIBPATH", "hipBLASLt"}};
    for (const auto& t : tensile) {
        if (const auto p = envPath(t.env)) {
            set.add(joinRoot(s, *p), fmt::format("{} library folder from {}", t.label, t.env));
            continue;
        }
        if (!rocmLib)
            continue;
        if (const auto p = findLibraryFolder(*rocmLib, t.component))
            set.add(*p, fmt::format("{} library folder of the loaded ROCm", t.label));
        else
            set.note(fmt::format("no {} library folder under {} ({} not installed there)", t.label, *rocmLib, t.label));
    }
}

void addMiopenDatabases(const std::optional<std::string>& rocmLib, ScanSet& set)
{
    if (rocmLib) {
        // <rocm>/lib -> <rocm>; Debian's multiarch /usr/lib/x86_64-linux-gnu -> /usr.
        fs::path prefix = fs::path(*rocmLib).parent_path();
        if (fs::path(*rocmLib).filename().string().find("-linux-gnu") != std::string::npos)
            prefix = prefix.parent_path();
        if (prefix == "/")
            prefix = "/usr"; // /lib is /usr/lib on merged-/usr systems
        const std::string miopen = prefix.string() + "/share/miopen/db";
        if (isDir(miopen))
            set.add(miopen, "MIOpen kernel databases of the loaded ROCm");
        else
            set.note(fmt::format("no MIOpen databases at {}", miopen));
    } else {
        set.note("no ROCm install found: rocBLAS, hipBLASLt and MIOpen folders were not scanned");
    }
}

void addOwnKernels(ScanSet& set)
{
    for (const auto& dir : moduleDirectories()) {
        std::error_code ec;
        fs::directory_iterator it(dir, ec);
        if (ec)
            continue;
        for (const fs::directory_iterator end; it != end; it.increment(ec)) {
            if (ec)
                break;
            const std::string name = it->path().filename().string();
            if (isElfFile(it->path()) && name.find(".so") != std::string::npos)
                set.add(it->path().string(), "StackScope's own kernels", true);
        }
    }
}

} // namespace

std::vector<DefaultScanPath> defaultScanSet(const Snapshot& s, std::vector<std::string>* notes)
{
    ScanSet set {{}, notes};
    addTorchLibraries(s, set);
    const auto rocmLib = rocmLibFolder(s);
    addTensileFolders(s, rocmLib, set);
    addMiopenDatabases(rocmLib, set);
    addOwnKernels(set);
    return set.out;
}

std::vector<std::string> snapshotDevices(const Snapshot& s)
{
    std::vector<std::string> out;
    for (const auto& g : s.gpus) {
        if (!g.arch || g.arch->empty())
            continue;
        if (std::find(out.begin(), out.end(), *g.arch) == out.end())
            out.push_back(*g.arch);
    }
    return out;
}

ArchCoverage scanCoverage(const std::vector<std::string>& paths, const std::vector<std::string>& devices,
                          const std::optional<std::string>& hsaOverride)
{
    ArchCoverage result;
    for (const auto& d : devices)
        if (std::find(result.devices.begin(), result.devices.end(), d) == result.devices.end())
            result.devices.push_back(d);
    for (const auto& p : paths)
        for (auto& l : scanPath(p))
            result.libraries.push_back(std::move(l));
    applyCoverage(result, hsaOverride);
    return result;
}

ArchCoverage scanCoverage(const Snapshot& snapshot, const CoverageRequest& request)
{
    std::vector<std::string> devices = snapshotDevices(snapshot);
    devices.insert(devices.end(), request.devices.begin(), request.devices.end());
    std::optional<std::string> hsaOverride = request.hsaOverride;
    if (!hsaOverride) {
        const auto it = snapshot.env.find("HSA_OVERRIDE_GFX_VERSION");
        if (it != snapshot.env.end() && !it->second.empty())
            hsaOverride = it->second;
    }
    if (!request.paths.empty())
        return scanCoverage(request.paths, devices, hsaOverride);

    ArchCoverage result;
    const auto set = defaultScanSet(snapshot, &result.notes);
    for (const auto& d : devices)
        if (std::find(result.devices.begin(), result.devices.end(), d) == result.devices.end())
            result.devices.push_back(d);
    for (const auto& entry : set) {
        if (entry.quietIfNoGpuCode) {
            if (auto l = scanBinaryFile(entry.path, true))
                result.libraries.push_back(std::move(*l));
            continue;
        }
        for (auto& l : scanPath(entry.path))
            result.libraries.push_back(std::move(l));
    }
    applyCoverage(result, hsaOverride);
    return result;
}

} // namespace stackscope::archscan
