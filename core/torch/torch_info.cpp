// libtorch module: what libtorch is loaded (version, build, BLAS backend), reported as JSON.
#include "core/torch/module_strings.h"
#include "core/runtime/torch_module_api.h"

#include <ATen/Context.h>
#include <ATen/Version.h>
#include <torch/cuda.h>
#include <torch/version.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <regex>
#include <sstream>

namespace {

using nlohmann::json;

// torch/version.py of a wheel sits next to torch/lib/; gives "2.5.1+rocm6.2" and the HIP/CUDA version.
void readWheelVersion(const std::string& libraryPath, json& out)
{
    const auto slash = libraryPath.rfind('/');
    if (slash == std::string::npos)
        return;
    std::ifstream in(libraryPath.substr(0, slash) + "/../version.py");
    if (!in)
        return;
    std::string line;
    const std::regex assign(R"(^(\w+)\s*(?::\s*[\w\[\]\.]+)?\s*=\s*['"]([^'"]*)['"])");
    while (std::getline(in, line)) {
        std::smatch m;
        if (!std::regex_search(line, m, assign))
            continue;
        if (m[1] == "__version__")
            out["version"] = m[2].str();
        else if ((m[1] == "hip" || m[1] == "cuda") && !m[2].str().empty())
            out["built_with"] = m[2].str();
    }
}

json collect()
{
    json out;
    out["version"] = TORCH_VERSION;
    const std::string config = at::show_config();
    out["show_config"] = config;

    std::smatch m;
    std::string backend = "cpu";
    if (config.find("USE_ROCM=ON") != std::string::npos || config.find("USE_ROCM=1") != std::string::npos)
        backend = "rocm";
    else if (config.find("USE_CUDA=ON") != std::string::npos || config.find("USE_CUDA=1") != std::string::npos)
        backend = "cuda";
    out["backend"] = backend;
    if (std::regex_search(config, m, std::regex(R"(HIP Runtime ([0-9][0-9.]*))")))
        out["built_with"] = m[1].str();
    else if (std::regex_search(config, m, std::regex(R"(CUDA Runtime ([0-9][0-9.]*))")))
        out["built_with"] = m[1].str();
    else
        out["built_with"] = nullptr;

    // "NVCC architecture flags: -gencode;arch=compute_80,code=sm_80;..." lists CUDA targets.
    json archs = nullptr;
    if (std::regex_search(config, m, std::regex(R"(NVCC architecture flags: ([^\n]*))"))) {
        archs = json::array();
        const std::string flags = m[1].str();
        const std::regex code(R"(code=(sm_[0-9a-z]+|compute_[0-9a-z]+))");
        for (auto it = std::sregex_iterator(flags.begin(), flags.end(), code); it != std::sregex_iterator(); ++it) {
            const std::string a = (*it)[1].str();
            if (std::find(archs.begin(), archs.end(), a) == archs.end())
                archs.push_back(a);
        }
    }
    out["arch_list"] = archs;

    out["blas_backend"] = nullptr;
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    if (backend != "cpu") {
        const auto b = at::globalContext().blasPreferredBackend();
        const bool rocm = backend == "rocm";
        if (b == at::BlasBackend::Cublas)
            out["blas_backend"] = rocm ? "hipblas" : "cublas";
        else if (b == at::BlasBackend::Cublaslt)
            out["blas_backend"] = rocm ? "hipblaslt" : "cublaslt";
        else
            out["blas_backend"] = "other (" + std::to_string(static_cast<int>(b)) + ")";
    }
#endif
    out["device_count"] = backend == "cpu" ? 0 : static_cast<int>(torch::cuda::device_count());

    Dl_info info {};
    if (::dladdr(reinterpret_cast<void*>(&at::show_config), &info) && info.dli_fname) {
        out["library_path"] = info.dli_fname;
        readWheelVersion(info.dli_fname, out);
    }
    return out;
}

} // namespace

extern "C" int stackscope_torch_abi(void)
{
    return STACKSCOPE_TORCH_MODULE_ABI;
}

extern "C" char* stackscope_torch_info_json(void)
{
    try {
        return stackscope::torchmodule::mallocCopy(collect().dump());
    } catch (const std::exception& e) {
        return stackscope::torchmodule::mallocCopy(json {{"error", std::string("libtorch query failed: ") + e.what()
                                          + "; rebuild StackScope against the libtorch you run (-DCMAKE_PREFIX_PATH=$(python3 -c "
                                            "'import torch; print(torch.utils.cmake_prefix_path)'))"}}.dump());
    }
}

extern "C" void stackscope_torch_free(char* p)
{
    std::free(p);
}
