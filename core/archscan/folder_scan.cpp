// Tensile and MIOpen folder scans by file name.
#include "core/archscan/folder_scan.h"

#include "core/archscan/target_id.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace stackscope::archscan {

namespace {

bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }
bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool isTensileName(const std::string& n)
{
    return startsWith(n, "TensileLibrary") || startsWith(n, "Kernels.so-") || startsWith(n, "extop_") ||
           (endsWith(n, ".co") && n.find("gfx") != std::string::npos) || endsWith(n, ".hsaco");
}

bool isMiopenName(const std::string& n)
{
    return endsWith(n, ".kdb") || endsWith(n, ".fdb.txt") || endsWith(n, ".db.txt") || endsWith(n, ".db");
}

// Lists a folder's file names; a folder that cannot be read becomes an error in `scan`.
std::vector<std::string> listNames(const std::string& folder, LibraryScan& scan)
{
    std::vector<std::string> names;
    std::error_code ec;
    fs::directory_iterator it(folder, ec);
    if (ec) {
        scan.errors.push_back(fmt::format("cannot list {}: {} (check the folder's permissions)", folder, ec.message()));
        return names;
    }
    for (const fs::directory_iterator end; it != end; it.increment(ec)) {
        if (ec) {
            scan.errors.push_back(fmt::format("listing {} stopped: {}", folder, ec.message()));
            break;
        }
        names.push_back(it->path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

void addTarget(LibraryScan& scan, const AmdTargetId& t)
{
    ScannedTarget s;
    s.arch = t.processor;
    s.features = t.features;
    s.id = t.processor;
    for (const auto& [f, v] : t.features)
        s.id += ":" + f + v;
    s.format = CodeFormat::CodeObject;
    if (std::find(scan.targets.begin(), scan.targets.end(), s) == scan.targets.end())
        scan.targets.push_back(std::move(s));
}

} // namespace

std::string miopenDatabaseArch(const std::string& fileName)
{
    if (!startsWith(fileName, "gfx") || !isMiopenName(fileName))
        return {};
    // gfx6..gfx9 processors have three characters after "gfx", gfx10 and later four.
    const std::size_t len = fileName.size() > 4 && fileName[3] == '1' ? 7 : 6;
    if (fileName.size() < len)
        return {};
    const std::string arch = fileName.substr(0, len);
    return isAmdProcessorName(arch) ? arch : std::string();
}

LibraryScan scanTensileFolder(const std::string& folder)
{
    LibraryScan scan;
    scan.path = folder;
    scan.kind = LibraryKind::Tensile;
    for (const auto& n : listNames(folder, scan)) {
        if (!isTensileName(n))
            continue;
        const auto tokens = gfxTokensInName(n);
        if (!tokens.empty())
            ++scan.containers;
        for (const auto& t : tokens)
            addTarget(scan, t);
    }
    std::sort(scan.targets.begin(), scan.targets.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    if (scan.targets.empty() && scan.errors.empty())
        scan.errors.push_back(fmt::format("{} holds no Tensile files with a gfx name (TensileLibrary*_gfxNNNN*, "
                                          "Kernels.so-000-gfxNNNN.hsaco): rocBLAS/hipBLASLt will find no kernels there; "
                                          "check ROCBLAS_TENSILE_LIBPATH / HIPBLASLT_TENSILE_LIBPATH or reinstall", folder));
    return scan;
}

LibraryScan scanMiopenFolder(const std::string& folder)
{
    LibraryScan scan;
    scan.path = folder;
    scan.kind = LibraryKind::Miopen;
    for (const auto& n : listNames(folder, scan)) {
        const std::string arch = miopenDatabaseArch(n);
        if (arch.empty())
            continue;
        ++scan.containers;
        addTarget(scan, AmdTargetId {arch, {}});
    }
    std::sort(scan.targets.begin(), scan.targets.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    return scan;
}

std::optional<LibraryKind> classifyFolder(const std::string& folder)
{
    std::error_code ec;
    fs::directory_iterator it(folder, ec);
    if (ec)
        return std::nullopt;
    bool miopen = false;
    for (const fs::directory_iterator end; it != end; it.increment(ec)) {
        if (ec)
            break;
        const std::string n = it->path().filename().string();
        if (startsWith(n, "TensileLibrary") || startsWith(n, "Kernels.so-") || startsWith(n, "extop_"))
            return LibraryKind::Tensile;
        if (!miopenDatabaseArch(n).empty())
            miopen = true;
    }
    if (miopen)
        return LibraryKind::Miopen;
    return std::nullopt;
}

} // namespace stackscope::archscan
