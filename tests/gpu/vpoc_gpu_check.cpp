// Qt-free GPU check: VPOC profiles and levels from the GPU module equal the CPU's bit for bit (exit 77 without a GPU).
#include "core/vpoc/gpu_profiles.h"
#include "core/vpoc/synthetic_batch.h"

#include <cstdio>

using namespace stackscope::vpoc;

int main()
{
    std::string why;
    // 16 MiB forces several chunks per session and several profile batches: the reuse path is tested too.
    auto gpu = GpuProfiler::open(16ull << 20, why);
    if (!gpu) {
        std::printf("SKIP: no GPU module or device: %s\n", why.c_str());
        return 77;
    }
    std::printf("GPU: %s (%s) via %s\n", gpu->deviceName().c_str(), gpu->vendor().c_str(), gpu->modulePath().c_str());
    int failures = 0;
    for (bool ranges : {false, true}) {
        for (auto method : {ValueAreaMethod::Dual, ValueAreaMethod::Single}) {
            const auto batch = syntheticBatch(3'000'000, 700, ranges, ranges ? 11 : 7);
            ProfileOptions o;
            o.keepProfiles = true;
            o.method = method;
            const auto cpu = computeBatchCpu(batch, o, 0);
            const auto g = gpu->compute(batch, o);
            int bad = 0;
            for (size_t i = 0; i < cpu.size() && i < g.size(); ++i)
                if (cpu[i].profile != g[i].profile || cpu[i].pocTick != g[i].pocTick || cpu[i].vahTick != g[i].vahTick
                    || cpu[i].valTick != g[i].valTick || cpu[i].volume != g[i].volume)
                    ++bad;
            if (cpu.size() != g.size())
                bad = static_cast<int>(cpu.size() + 1);
            std::printf("%s %s: %zu sessions, %d differ\n", ranges ? "bars(uniform)" : "trades",
                        method == ValueAreaMethod::Dual ? "dual" : "single", cpu.size(), bad);
            failures += bad;
        }
    }
    std::printf(failures ? "FAIL\n" : "PASS: CPU and GPU identical\n");
    return failures ? 1 : 0;
}
