// libtorch baseline for `bench vpoc`: the same per-session volume profiles built with index_add_ or bincount.
#include "core/runtime/vpoc_torch_api.h"

#include <torch/cuda.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

// Built against libtorch 1.13 (CPU, the development machine) and 2.x (CUDA, the GPU machines); every call
// below exists in both, and older releases lack torch::cuda::synchronize.
#if TORCH_VERSION_MAJOR < 1 || (TORCH_VERSION_MAJOR == 1 && TORCH_VERSION_MINOR < 13)
#error "the VPOC libtorch baseline needs libtorch 1.13 or newer"
#endif

namespace {

void setError(char* error, size_t len, const std::string& what)
{
    if (error && len)
        std::snprintf(error, len, "%s", what.c_str());
}

// One timed build of all profiles; the caller synchronises.
torch::Tensor buildProfiles(int method, const torch::Tensor& offsets, const torch::Tensor& volumes,
                            const std::vector<StackscopeTorchVpocSession>& sessions, int64_t levels)
{
    auto profiles = torch::zeros({levels}, offsets.options().dtype(torch::kLong));
    for (const auto& s : sessions) {
        if (s.elemEnd <= s.elemBegin)
            continue;
        const auto o = offsets.narrow(0, s.elemBegin, s.elemEnd - s.elemBegin);
        const auto v = volumes.narrow(0, s.elemBegin, s.elemEnd - s.elemBegin);
        auto target = profiles.narrow(0, s.profileOffset, s.width);
        if (method == STACKSCOPE_TORCH_VPOC_INDEX_ADD) {
            // index_add_ needs the source in the profile's dtype: the int32 -> int64 widening is part of the cost.
            target.index_add_(0, o, v.to(torch::kLong));
        } else {
            // bincount weights come back as float64 (exact below 2^53), then are added as int64.
            target.add_(torch::bincount(o, v, s.width).to(torch::kLong));
        }
    }
    return profiles;
}

void synchronise(const torch::Device& device)
{
    if (device.is_cuda())
        torch::cuda::synchronize();
}

} // namespace

extern "C" int stackscope_torch_vpoc_abi(void)
{
    return STACKSCOPE_TORCH_VPOC_ABI;
}

extern "C" int stackscope_torch_vpoc_profiles(const char* device, int method, const int32_t* offset,
                                              const uint32_t* volume, uint64_t count,
                                              const StackscopeTorchVpocSession* sessions, uint32_t sessionCount,
                                              uint64_t levels, int repeats, double* bestMilliseconds,
                                              uint64_t* profiles, char* error, size_t errorLen)
{
    try {
        const std::string dev = device ? device : "";
        if (dev != "cuda" && dev != "cpu") {
            setError(error, errorLen, "libtorch VPOC baseline: device '" + dev + "' is not 'cuda' or 'cpu'");
            return -1;
        }
        if (method != STACKSCOPE_TORCH_VPOC_INDEX_ADD && method != STACKSCOPE_TORCH_VPOC_BINCOUNT) {
            setError(error, errorLen, "libtorch VPOC baseline: unknown method " + std::to_string(method));
            return -1;
        }
        if (dev == "cuda" && !torch::cuda::is_available()) {
            setError(error, errorLen,
                     std::string("libtorch ") + TORCH_VERSION + " sees no CUDA device (a CPU-only build, or no driver); "
                     "install a CUDA build of PyTorch and rebuild StackScope, or pass --torch-device cpu");
            return -1;
        }
        // torch has no uint32 tensors before 2.3 (and few ops on them after): volumes travel as int32.
        for (uint64_t i = 0; i < count; ++i)
            if (volume[i] > 0x7FFFFFFFu) {
                setError(error, errorLen,
                         "libtorch VPOC baseline: volume " + std::to_string(volume[i]) + " at element "
                             + std::to_string(i) + " does not fit int32; the baseline needs volumes below 2^31");
                return -1;
            }
        const torch::Device target(dev == "cuda" ? torch::kCUDA : torch::kCPU);
        const auto n = static_cast<int64_t>(count);
        // Uploaded once, before timing: like the StackScope kernel's resident timing, only the build is measured.
        const auto offsets = torch::from_blob(const_cast<int32_t*>(offset), {n}, torch::kInt).to(target);
        const auto volumes =
            torch::from_blob(const_cast<uint32_t*>(reinterpret_cast<const uint32_t*>(volume)), {n}, torch::kInt)
                .to(target);
        const std::vector<StackscopeTorchVpocSession> table(sessions, sessions + sessionCount);
        const auto width = static_cast<int64_t>(levels);
        torch::NoGradGuard noGrad;
        auto result = buildProfiles(method, offsets, volumes, table, width); // warm-up (kernels, allocator)
        synchronise(target);
        double best = 1e300;
        for (int r = 0; r < std::max(1, repeats); ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            result = buildProfiles(method, offsets, volumes, table, width);
            synchronise(target);
            best = std::min(best,
                            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        *bestMilliseconds = best;
        if (profiles) {
            const auto host = result.to(torch::kCPU).contiguous();
            std::memcpy(profiles, host.data_ptr<int64_t>(), static_cast<size_t>(levels) * sizeof(int64_t));
        }
        return 0;
    } catch (const c10::Error& e) {
        setError(error, errorLen,
                 std::string("libtorch ") + TORCH_VERSION + " failed building VPOC profiles: " + e.what_without_backtrace()
                     + "; check the device's free memory or use --no-torch");
    } catch (const std::exception& e) {
        setError(error, errorLen,
                 std::string("libtorch ") + TORCH_VERSION + " failed building VPOC profiles: " + e.what()
                     + "; check the device's free memory or use --no-torch");
    }
    return -1;
}
