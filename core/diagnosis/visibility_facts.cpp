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

std::size_t entries(const std::string& list)
{
    return static_cast<std::size_t>(std::count(list.begin(), list.end(), ',')) + 1;
}

// ROCm applies ROCR_VISIBLE_DEVICES first (the HSA runtime); HIP_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES then index
// the GPUs it left, renumbered from 0 (PyTorch's device count follows the same order since pytorch#142292), so
// ROCR_VISIBLE_DEVICES=1 with HIP_VISIBLE_DEVICES=1 leaves no GPU, whatever GPUs the machine has.
std::optional<std::string> stackedRocmMasks(const Snapshot& s)
{
    const auto rocr = s.env.find("ROCR_VISIBLE_DEVICES");
    if (rocr == s.env.end() || rocr->second.empty())
        return std::nullopt;
    if (!s.gpus.empty() && std::none_of(s.gpus.begin(), s.gpus.end(), [](const GpuInfo& g) { return g.vendor == "amd"; }))
        return std::nullopt;
    const std::size_t left = entries(rocr->second);
    for (const char* name : {"HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"}) {
        const auto it = s.env.find(name);
        if (it != s.env.end() && !it->second.empty() && selectsNothing(it->second, left))
            return fmt::format("{}='{}' indexes the {} GPU{} ROCR_VISIBLE_DEVICES='{}' leaves (renumbered from 0), so it "
                               "selects none",
                               name, it->second, left, left == 1 ? "" : "s", rocr->second);
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> gpusHiddenByEnvironment(const Snapshot& s)
{
    if (auto stacked = stackedRocmMasks(s))
        return stacked;
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

std::optional<std::string> torchForAbsentVendor(const Snapshot& s)
{
    if (!s.torch.backend || s.gpus.empty())
        return std::nullopt;
    const std::string& backend = *s.torch.backend;
    const std::string absent = backend == "rocm" ? "amd" : backend == "cuda" ? "nvidia" : "";
    const std::string present = backend == "rocm" ? "nvidia" : "amd";
    if (absent.empty() || std::any_of(s.gpus.begin(), s.gpus.end(), [&](const GpuInfo& g) { return g.vendor == absent; }))
        return std::nullopt;
    std::vector<std::string> names;
    for (const auto& g : s.gpus) {
        if (g.vendor != present)
            return std::nullopt; // a GPU of unknown vendor could be torch's
        names.push_back(g.name.empty() ? g.arch.value_or("unnamed GPU") : g.name);
    }
    return fmt::format("torch is a {} build; the GPU{} shown {} {}: {}", backend == "rocm" ? "ROCm" : "CUDA",
                       names.size() == 1 ? "" : "s", names.size() == 1 ? "is" : "are", present == "amd" ? "AMD" : "NVIDIA",
                       fmt::join(names, ", "));
}

} // namespace stackscope
