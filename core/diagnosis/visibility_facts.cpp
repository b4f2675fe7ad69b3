// See visibility_facts.h. The variables' forms: a comma-separated list of indexes or UUIDs (GPU-..., MIG-...), the
// list ending at the first invalid entry (CUDA C Programming Guide, "CUDA Environment Variables"; ROCm's "GPU
// isolation techniques" for the HIP/ROCR variables); an empty value hides every GPU.
#include "core/diagnosis/visibility_facts.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include <cctype>
#include <sstream>
#include <vector>

namespace stackscope {

namespace {

bool isIndex(const std::string& s)
{
    return !s.empty() && s.size() < 6 && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Whether the value selects no existing GPU for certain: empty, or its first entry an index the driver does not have.
bool selectsNothing(const std::string& value, std::size_t driverGpus)
{
    std::string first = value.substr(0, value.find(','));
    first.erase(0, first.find_first_not_of(' '));
    if (first.empty())
        return true;
    if (first == "-1")
        return true;
    return isIndex(first) && std::stoul(first) >= driverGpus;
}

} // namespace

std::optional<std::string> gpusHiddenByEnvironment(const Snapshot& s)
{
    if (s.gpus.empty())
        return std::nullopt;
    // torch's count says something about visibility only where torch is a GPU build: a CPU libtorch sees 0 anyway.
    const bool gpuTorch = s.torch.backend == std::optional<std::string>("cuda") || s.torch.backend == std::optional<std::string>("rocm");
    const auto torchSees = gpuTorch ? s.torch.deviceCount : std::nullopt;
    std::vector<std::string> why;
    for (const char* name : {"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL"}) {
        const auto it = s.env.find(name);
        if (it == s.env.end())
            continue;
        const bool nvidiaVar = std::string(name) == "CUDA_VISIBLE_DEVICES";
        const bool relevant = std::any_of(s.gpus.begin(), s.gpus.end(), [&](const GpuInfo& g) {
            return nvidiaVar ? g.vendor == "nvidia" || g.vendor == "amd" : g.vendor == "amd";
        });
        if (!relevant)
            continue;
        if (selectsNothing(it->second, s.gpus.size()) || (torchSees && *torchSees == 0))
            why.push_back(fmt::format("{}='{}'", name, it->second));
    }
    if (why.empty())
        return std::nullopt;
    return fmt::format("{} hides the {} GPU{} the driver shows{}", fmt::join(why, ", "), s.gpus.size(),
                       s.gpus.size() == 1 ? "" : "s",
                       torchSees ? fmt::format("; torch sees {}", *torchSees) : std::string());
}

} // namespace stackscope
