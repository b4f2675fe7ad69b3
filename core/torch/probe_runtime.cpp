// GPU facts for the probes, read through the CUDA or HIP runtime that libtorch itself loaded: the
// module includes no vendor header, so one source builds against CPU, CUDA and ROCm libtorch.
#include "core/torch/probe_runtime.h"

#include <dlfcn.h>
#include <link.h>

#include <cstddef>
#include <cstring>
#include <string>

namespace stackscope::probe {

namespace {

// Opens (without loading anew) the first mapped library whose file name contains `part`.
void* loadedLibrary(const char* part)
{
    struct Search {
        const char* part;
        std::string path;
    } search {part, {}};
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) -> int {
            auto* s = static_cast<Search*>(data);
            if (info->dlpi_name && std::strstr(info->dlpi_name, s->part)) {
                s->path = info->dlpi_name;
                return 1;
            }
            return 0;
        },
        &search);
    if (search.path.empty())
        return nullptr;
    return ::dlopen(search.path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
}

struct Runtime {
    bool hip = false;
    void* runtime = nullptr; // libcudart / libamdhip64
    void* driver = nullptr;  // libcuda (CUDA only)
    std::string why;

    template <typename F>
    F fn(void* lib, const char* name) const
    {
        return lib ? reinterpret_cast<F>(::dlsym(lib, name)) : nullptr;
    }
};

const Runtime& runtime()
{
    static const Runtime r = [] {
        Runtime out;
        if ((out.runtime = loadedLibrary("libamdhip64.so"))) {
            out.hip = true;
        } else if ((out.runtime = loadedLibrary("libcudart.so"))) {
            out.driver = loadedLibrary("libcuda.so");
        } else {
            out.why = "neither libcudart nor libamdhip64 is loaded by this libtorch";
        }
        return out;
    }();
    return r;
}

} // namespace

std::string gpuName(int index)
{
    const auto& r = runtime();
    char name[256] = {};
    if (r.hip) {
        if (auto f = r.fn<int (*)(char*, int, int)>(r.runtime, "hipDeviceGetName"); f && f(name, sizeof name, index) == 0)
            return name;
    } else if (r.driver) {
        auto get = r.fn<int (*)(int*, int)>(r.driver, "cuDeviceGet");
        auto getName = r.fn<int (*)(char*, int, int)>(r.driver, "cuDeviceGetName");
        int dev = 0;
        if (get && getName && get(&dev, index) == 0 && getName(name, sizeof name, dev) == 0)
            return name;
    }
    return "GPU " + std::to_string(index);
}

nlohmann::json gpuMemory(int index)
{
    const auto& r = runtime();
    if (!r.runtime)
        return {{"why", r.why}};
    auto setDevice = r.fn<int (*)(int)>(r.runtime, r.hip ? "hipSetDevice" : "cudaSetDevice");
    auto getDevice = r.fn<int (*)(int*)>(r.runtime, r.hip ? "hipGetDevice" : "cudaGetDevice");
    auto memInfo = r.fn<int (*)(size_t*, size_t*)>(r.runtime, r.hip ? "hipMemGetInfo" : "cudaMemGetInfo");
    if (!setDevice || !getDevice || !memInfo)
        return {{"why", "the runtime lacks MemGetInfo/SetDevice"}};
    int previous = 0;
    getDevice(&previous);
    size_t freeBytes = 0, total = 0;
    const int rc = setDevice(index) == 0 ? memInfo(&freeBytes, &total) : -1;
    setDevice(previous);
    if (rc != 0)
        return {{"why", "MemGetInfo failed with code " + std::to_string(rc)}};
    return {{"total_bytes", total}, {"free_bytes", freeBytes}, {"used_bytes", total - freeBytes}};
}

nlohmann::json gpuProperties(int index)
{
    nlohmann::json out = gpuMemory(index);
    out["name"] = gpuName(index);
    const auto& r = runtime();
    out["runtime"] = r.hip ? "hip" : (r.runtime ? "cuda" : "unknown");
    if (!r.hip && r.runtime) {
        // cudaDeviceAttr values (stable since CUDA 5): 75/76 compute capability, 16 multiprocessors.
        if (auto attr = r.fn<int (*)(int*, int, int)>(r.runtime, "cudaDeviceGetAttribute")) {
            int major = 0, minor = 0, sms = 0;
            if (attr(&major, 75, index) == 0 && attr(&minor, 76, index) == 0)
                out["compute_capability"] = std::to_string(major) + "." + std::to_string(minor);
            if (attr(&sms, 16, index) == 0)
                out["multiprocessors"] = sms;
        }
    }
    return out;
}

} // namespace stackscope::probe
