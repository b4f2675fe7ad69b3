// See cuda_driver_matrix.h. The table is embedded (parsed once); its sources are the file's "sources".
#include "core/diagnosis/cuda_driver_matrix.h"

#include "core/diagnosis/version_range.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>

extern const char* const stackscope_cuda_driver_matrix_json;

namespace stackscope {

namespace {

const std::map<std::string, CudaDriverRow>& table()
{
    static const std::map<std::string, CudaDriverRow> rows = [] {
        std::map<std::string, CudaDriverRow> out;
        const auto j = nlohmann::json::parse(stackscope_cuda_driver_matrix_json);
        for (const auto& r : j.at("rows")) {
            CudaDriverRow row;
            row.cuda = r.at("cuda").get<std::string>();
            row.minDriver = r.at("min_driver_linux").get<std::string>();
            if (r.contains("min_driver_linux_minor_compat") && r["min_driver_linux_minor_compat"].is_string())
                row.minCompatDriver = r["min_driver_linux_minor_compat"].get<std::string>();
            out.emplace(row.cuda, row);
        }
        return out;
    }();
    return rows;
}

// "12.8.1" -> "12.8"
std::string majorMinor(const std::string& version)
{
    const auto first = version.find('.');
    if (first == std::string::npos)
        return version;
    return version.substr(0, version.find('.', first + 1));
}

bool below(const std::string& a, const std::string& b)
{
    const auto va = parseVersion(a), vb = parseVersion(b);
    return va && vb && *va < *vb;
}

} // namespace

std::optional<CudaDriverRow> cudaDriverRow(const std::string& cudaVersion)
{
    const auto it = table().find(majorMinor(cudaVersion));
    return it == table().end() ? std::nullopt : std::optional<CudaDriverRow>(it->second);
}

std::optional<std::string> cudaDriverOlderThanTorch(const Snapshot& s)
{
    if (s.torch.backend != std::optional<std::string>("cuda") || !s.torch.builtWith || !s.cuda.driverVersion)
        return std::nullopt;
    // A runtime that initialised and found the GPU proves the driver accepts it (CUDA forward compatibility: the
    // cuda-compat package on data-center GPUs, as NGC containers ship it, runs a newer CUDA on an older driver).
    if (s.hostExtras.torchFoundGpu || s.torch.deviceCount.value_or(0) > 0)
        return std::nullopt;
    const auto row = cudaDriverRow(*s.torch.builtWith);
    if (!row)
        return std::nullopt;
    const std::string& needed = row->minCompatDriver.empty() ? row->minDriver : row->minCompatDriver;
    if (!below(*s.cuda.driverVersion, needed))
        return std::nullopt;
    return fmt::format("torch built with CUDA {} needs an NVIDIA driver of {} {} or later ({} for every feature); this "
                       "driver is {}", *s.torch.builtWith, row->minCompatDriver.empty() ? "version" : "branch", needed,
                       row->minDriver, *s.cuda.driverVersion);
}

} // namespace stackscope
