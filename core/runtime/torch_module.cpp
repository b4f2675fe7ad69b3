// Opening the torch module and checking the ABI of the entry points a caller uses.
#include "core/runtime/torch_module.h"
#include "core/util/environment.h"

#include "core/util/program_paths.h"

#include <fmt/format.h>

#include <cstdlib>

namespace stackscope {

std::vector<std::string> torchModuleCandidates()
{
    std::vector<std::string> out;
    if (std::string p = envValue(EnvVar::TorchModule); !p.empty()) {
        out.push_back(std::move(p));
        return out; // an explicit setting is the only place looked at
    }
    for (const auto& dir : moduleDirectories())
        out.push_back(dir + "/libstackscope_torch.so");
    return out;
}

DynamicLibrary openTorchModule(const char* abiSymbol, int abi, const char* what, std::string& error,
                               const std::vector<std::string>& candidates)
{
    auto lib = DynamicLibrary::open(candidates.empty() ? torchModuleCandidates() : candidates);
    error.clear();
    if (!lib.isLoaded()) {
        error = fmt::format("the libtorch module could not be loaded ({}); build StackScope with libtorch (cmake "
                            "-DCMAKE_PREFIX_PATH=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')) or "
                            "set STACKSCOPE_TORCH_MODULE",
                            lib.failureSummary());
        return lib;
    }
    const auto version = lib.symbol<int (*)()>(abiSymbol);
    if (!version)
        error = fmt::format("{} is not a StackScope torch module with {} ({} is missing: an older or another "
                            "build); rebuild StackScope so the module matches the program",
                            lib.loadedPath(), what, abiSymbol);
    else if (version() != abi)
        error = fmt::format("{} has {} of ABI {} but this program needs {}; rebuild StackScope so the module matches "
                            "the program",
                            lib.loadedPath(), what, version(), abi);
    return lib;
}

} // namespace stackscope
