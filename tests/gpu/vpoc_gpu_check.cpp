// Qt-free GPU check: VPOC profiles and levels from the GPU module equal the CPU's bit for bit (exit 77 without a GPU).
#include "core/vpoc/gpu_profiles.h"
#include "core/vpoc/sample_data.h"
#include "core/vpoc/synthetic_batch.h"
#include "core/vpoc/vpoc_engine.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace stackscope::vpoc;

namespace {

// Spreads the batch's levels `factor` times wider: sessions too wide for the kernel's shared copies take
// its other paths (fewer copies, or global atomics only).
ProfileBatch widened(ProfileBatch b, int32_t factor)
{
    for (auto& s : b.sessions)
        s.width *= factor;
    for (auto& o : b.offset)
        o *= factor;
    return b;
}

// Every 97th trade gets a size of 65536 or more, which the kernel adds with 64-bit global atomics.
ProfileBatch withBigSizes(ProfileBatch b)
{
    for (size_t i = 0; i < b.volume.size(); i += 97)
        b.volume[i] = 65536u + static_cast<uint32_t>(i % 100000) * 40000u;
    return b;
}

// `vpoc --backend gpu` from a file equals `--backend cpu`, sessions and developing values, whether each session's
// rows go to the GPU or (outgrowing maxGpuSessionRows) to the CPU accumulator in their place. Returns sessions that
// differ.
int endToEnd(const std::string& file, int64_t maxGpuSessionRows)
{
    auto run = [&](Backend backend) {
        VpocOptions o;
        o.input = file;
        o.backend = backend;
        o.developing = true;
        o.profile.keepProfiles = true;
        o.maxGpuSessionRows = maxGpuSessionRows;
        return runVpoc(o);
    };
    const auto cpu = run(Backend::Cpu), gpu = run(Backend::Gpu);
    int bad = cpu->sessions.size() == gpu->sessions.size() ? 0 : static_cast<int>(cpu->sessions.size() + 1);
    for (size_t i = 0; i < cpu->sessions.size() && i < gpu->sessions.size(); ++i) {
        const auto &c = cpu->sessions[i], &g = gpu->sessions[i];
        const auto &cd = cpu->developing[i], &gd = gpu->developing[i];
        bool same = c.day == g.day && c.bars == g.bars && c.lowTick == g.lowTick && c.profile == g.profile && c.pocTick == g.pocTick && c.vahTick == g.vahTick &&
                    c.valTick == g.valTick && c.volume == g.volume && cd.size() == gd.size();
        for (size_t k = 0; same && k < cd.size(); ++k)
            same = cd[k].timeUs == gd[k].timeUs && cd[k].pocTick == gd[k].pocTick && cd[k].vahTick == gd[k].vahTick &&
                   cd[k].valTick == gd[k].valTick;
        bad += same ? 0 : 1;
    }
    std::printf("end to end, %s, sessions over %lld rows on the CPU: %zu sessions, backend %s, %d differ\n",
                file.c_str(), static_cast<long long>(maxGpuSessionRows), cpu->sessions.size(), gpu->backend.c_str(), bad);
    return bad;
}

} // namespace

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
    struct Case {
        const char* name;
        ProfileBatch batch;
    };
    // 700 sessions over 3,000,000 elements: session and chunk boundaries fall off the 4-element alignment.
    const Case cases[] = {
        {"trades", syntheticBatch(3'000'000, 700, false, 7)},
        {"bars(uniform)", syntheticBatch(3'000'000, 700, true, 11)},
        {"trades, sizes >= 65536", withBigSizes(syntheticBatch(3'000'000, 700, false, 13))},
        {"bars, sizes >= 65536", withBigSizes(syntheticBatch(3'000'000, 700, true, 17))},
        {"trades, 4000 levels", widened(syntheticBatch(3'000'000, 700, false, 19), 10)},
        {"trades, 20000 levels", widened(syntheticBatch(1'000'000, 50, false, 23), 50)},
    };
    int failures = 0;
    for (const auto& c : cases) {
        for (auto method : {ValueAreaMethod::Dual, ValueAreaMethod::Single}) {
            ProfileOptions o;
            o.keepProfiles = true;
            o.method = method;
            const auto cpu = computeBatchCpu(c.batch.view(), o, 0);
            const auto g = gpu->compute(c.batch.view(), o);
            int bad = 0;
            for (size_t i = 0; i < cpu.size() && i < g.size(); ++i)
                if (cpu[i].profile != g[i].profile || cpu[i].pocTick != g[i].pocTick || cpu[i].vahTick != g[i].vahTick
                    || cpu[i].valTick != g[i].valTick || cpu[i].volume != g[i].volume)
                    ++bad;
            if (cpu.size() != g.size())
                bad = static_cast<int>(cpu.size() + 1);
            std::printf("%s %s: %zu sessions, %d differ\n", c.name, method == ValueAreaMethod::Dual ? "dual" : "single",
                        cpu.size(), bad);
            failures += bad;
        }
    }
    // Six days of trades (about 145,000 a session): every session on the GPU; every one moved to the CPU part way
    // (after 1,000 rows); and 144,000, between the sessions' sizes (142,457 to 146,991 rows), so both paths alternate.
    SampleDataOptions sample;
    sample.days = 6;
    sample.trades = true;
    const std::string file = "/tmp/vpoc_gpu_check_" + std::to_string(::getpid()) + ".csv";
    std::ofstream(file) << generateSampleData(sample);
    for (int64_t cap : {int64_t(1) << 22, int64_t(1000), int64_t(144000)})
        failures += endToEnd(file, cap);
    std::remove(file.c_str());
    std::printf(failures ? "FAIL\n" : "PASS: CPU and GPU identical\n");
    return failures ? 1 : 0;
}
