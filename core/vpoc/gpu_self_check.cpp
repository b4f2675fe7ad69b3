// The own-kernel probe: GPU module vs CPU on a synthetic batch.
#include "core/vpoc/gpu_self_check.h"

#include "core/vpoc/gpu_profiles.h"
#include "core/vpoc/synthetic_batch.h"

#include <fmt/format.h>

namespace stackscope::vpoc {

KernelSelfCheck runKernelSelfCheck(const std::string& device)
{
    if (device != "0")
        return {ProbeResult::Unsupported, fmt::format("the VPOC module opens GPU 0; to check GPU {} run with "
                                           "CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES={}", device, device)};
    std::string why;
    auto gpu = GpuProfiler::open(64ull << 20, why);
    if (!gpu)
        return {ProbeResult::Unsupported, "no StackScope GPU module for this GPU: " + why};
    try {
        const ProfileBatch batch = syntheticBatch(1u << 20, 16, false, 7);
        ProfileOptions options;
        const auto cpu = computeBatchCpu(batch.view(), options, 1);
        const auto gpuResults = gpu->compute(batch.view(), options);
        size_t differing = 0;
        for (size_t i = 0; i < cpu.size(); ++i) {
            const bool same = i < gpuResults.size() && cpu[i].volume == gpuResults[i].volume
                && cpu[i].pocTick == gpuResults[i].pocTick && cpu[i].vahTick == gpuResults[i].vahTick
                && cpu[i].valTick == gpuResults[i].valTick && cpu[i].lowTick == gpuResults[i].lowTick
                && cpu[i].highTick == gpuResults[i].highTick;
            differing += same ? 0 : 1;
        }
        if (differing > 0 || gpuResults.size() != cpu.size())
            return {ProbeResult::Wrong, fmt::format("{} of {} sessions differ from the CPU ({} module {} on {}); report it with "
                                         "this probe's output", differing, cpu.size(), gpu->vendor(), gpu->modulePath(),
                                         gpu->deviceName())};
        return {ProbeResult::Ok, fmt::format("{} sessions of 2^20 trades equal the CPU's ({} module on {})", cpu.size(),
                                  gpu->vendor(), gpu->deviceName())};
    } catch (const std::exception& e) {
        return {ProbeResult::Error, e.what()};
    }
}

} // namespace stackscope::vpoc
