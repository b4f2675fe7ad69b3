// Loads libstackscope_vpoc_{cuda,hip}.so at run time (DynamicLibrary), so the CLI runs on machines without either runtime.
#include "core/vpoc/gpu_profiles.h"
#include "core/util/environment.h"

#include "core/runtime/dynamic_library.h"
#include "core/util/program_paths.h"
#include "kernels/vpoc/vpoc_gpu_api.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <type_traits>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace stackscope::vpoc {

struct GpuProfiler::Api {
    DynamicLibrary lib; // never closed: GPU runtimes are not safe to unload
    decltype(&stackscope_vpoc_gpu_abi) abi = nullptr;
    decltype(&stackscope_vpoc_gpu_vendor) vendor = nullptr;
    decltype(&stackscope_vpoc_gpu_open) open = nullptr;
    decltype(&stackscope_vpoc_gpu_close) close = nullptr;
    decltype(&stackscope_vpoc_gpu_capacity) capacity = nullptr;
    decltype(&stackscope_vpoc_gpu_device_name) deviceName = nullptr;
    decltype(&stackscope_vpoc_gpu_begin) begin = nullptr;
    decltype(&stackscope_vpoc_gpu_add) add = nullptr;
    decltype(&stackscope_vpoc_gpu_finish) finish = nullptr;
    decltype(&stackscope_vpoc_gpu_copy_bandwidth) copyBandwidth = nullptr;
    decltype(&stackscope_vpoc_gpu_time_resident) timeResident = nullptr;
};

std::vector<std::string> GpuProfiler::moduleCandidates()
{
    if (std::string p = envValue(EnvVar::VpocGpuModule); !p.empty())
        return {p};
    std::vector<std::string> out;
    for (const char* name : {"libstackscope_vpoc_cuda.so", "libstackscope_vpoc_hip.so"})
        for (const auto& dir : moduleDirectories())
            out.push_back(dir + "/" + name);
    return out;
}

namespace {

// The module's entry points into `api`; false where one is missing.
bool bindEntryPoints(GpuProfiler::Api& api)
{
    auto sym = [&](auto& fn, const char* name) {
        fn = api.lib.symbol<std::remove_reference_t<decltype(fn)>>(name);
        return fn != nullptr;
    };
    return sym(api.abi, "stackscope_vpoc_gpu_abi") && sym(api.vendor, "stackscope_vpoc_gpu_vendor")
        && sym(api.open, "stackscope_vpoc_gpu_open") && sym(api.close, "stackscope_vpoc_gpu_close")
        && sym(api.capacity, "stackscope_vpoc_gpu_capacity")
        && sym(api.deviceName, "stackscope_vpoc_gpu_device_name") && sym(api.begin, "stackscope_vpoc_gpu_begin")
        && sym(api.add, "stackscope_vpoc_gpu_add") && sym(api.finish, "stackscope_vpoc_gpu_finish")
        && sym(api.copyBandwidth, "stackscope_vpoc_gpu_copy_bandwidth")
        && sym(api.timeResident, "stackscope_vpoc_gpu_time_resident");
}

} // namespace

// The module at `path`, checked (entry points, ABI), with its device opened; null with the reason added to `reasons`.
std::unique_ptr<GpuProfiler> GpuProfiler::openModule(const std::string& path, uint64_t budgetBytes,
                                                     std::vector<std::string>& reasons)
{
    auto api = std::make_unique<Api>();
    api->lib = DynamicLibrary::open({path});
    if (!api->lib.isLoaded()) {
        reasons.push_back(api->lib.failureSummary());
        return nullptr;
    }
    if (!bindEntryPoints(*api)) {
        reasons.push_back(fmt::format("{}: not a StackScope VPOC module (entry points missing); rebuild StackScope",
                                      path));
        return nullptr;
    }
    if (api->abi() != STACKSCOPE_VPOC_GPU_ABI) {
        reasons.push_back(fmt::format("{}: speaks ABI {} but this program needs {}; rebuild StackScope", path,
                                      api->abi(), STACKSCOPE_VPOC_GPU_ABI));
        return nullptr;
    }
    char err[512] = {0};
    void* ctx = api->open(budgetBytes, err, sizeof err);
    if (!ctx) {
        reasons.push_back(fmt::format("{}: {}", path, err));
        return nullptr;
    }
    std::unique_ptr<GpuProfiler> p(new GpuProfiler);
    char name[256] = {0};
    api->deviceName(ctx, name, sizeof name);
    p->m_vendor = api->vendor();
    p->m_device = name;
    p->m_path = path;
    p->m_ctx = ctx;
    p->m_api = std::move(api);
    return p;
}

std::unique_ptr<GpuProfiler> GpuProfiler::open(uint64_t budgetBytes, std::string& why)
{
    std::vector<std::string> reasons;
    for (const auto& path : moduleCandidates()) {
        std::error_code ec;
        if (!std::filesystem::exists(path, ec))
            continue; // not built here; said once below
        if (auto p = openModule(path, budgetBytes, reasons))
            return p;
    }
    if (reasons.empty())
        reasons.push_back(fmt::format("no VPOC GPU module in {} (StackScope was built without CUDA and HIP)",
                                      fmt::join(moduleDirectories(), " or ")));
    why = fmt::format("{}", fmt::join(reasons, "; "));
    return nullptr;
}

GpuProfiler::~GpuProfiler()
{
    if (m_api && m_ctx)
        m_api->close(m_ctx);
}

std::vector<SessionResult> GpuProfiler::compute(const BatchView& batch, const ProfileOptions& options)
{
    StackscopeVpocCapacity cap {};
    m_api->capacity(m_ctx, &cap);
    std::vector<SessionResult> out;
    out.reserve(batch.sessionCount);
    std::vector<StackscopeVpocSession> table;
    std::vector<StackscopeVpocSegment> segments;
    std::vector<StackscopeVpocLevels> levels;
    std::vector<uint64_t> profiles;
    char err[512] = {0};
    auto check = [&](int rc) {
        if (rc != 0)
            throw std::runtime_error(fmt::format("{} GPU ({}): {}; run with --backend cpu to go on without the GPU",
                                                 m_vendor, m_device, err));
    };
    size_t first = 0;
    while (first < batch.sessionCount) {
        // Sessions whose profiles fit the profile buffer together form one batch on the device.
        table.clear();
        uint64_t levelsUsed = 0;
        size_t last = first;
        while (last < batch.sessionCount && table.size() < cap.sessions) {
            const auto& s = batch.sessions[last];
            if (static_cast<uint64_t>(s.width) > cap.levels)
                throw std::runtime_error(fmt::format(
                    "a session spans {} price levels but the VRAM budget holds {}; raise --vram-budget to at least "
                    "{} MiB or use --backend cpu",
                    s.width, cap.levels, (static_cast<uint64_t>(s.width) * 64 >> 20) + 16));
            if (levelsUsed + static_cast<uint64_t>(s.width) > cap.levels)
                break;
            table.push_back({static_cast<int64_t>(levelsUsed), s.width, s.levelShift});
            levelsUsed += static_cast<uint64_t>(s.width);
            ++last;
        }
        check(m_api->begin(m_ctx, table.data(), static_cast<uint32_t>(table.size()), levelsUsed, err, sizeof err));
        // Elements of these sessions are contiguous; stream them through the fixed chunk buffers.
        const int64_t elemBegin = batch.sessions[first].elemBegin;
        const int64_t elemEnd = batch.sessions[last - 1].elemEnd;
        size_t sessionCursor = first;
        for (int64_t cb = elemBegin; cb < elemEnd;) {
            const int64_t ce = std::min<int64_t>(elemEnd, cb + static_cast<int64_t>(cap.elements));
            segments.clear();
            while (sessionCursor < last && batch.sessions[sessionCursor].elemEnd <= cb)
                ++sessionCursor;
            for (size_t s = sessionCursor; s < last && batch.sessions[s].elemBegin < ce; ++s) {
                const int64_t b = std::max(cb, batch.sessions[s].elemBegin);
                const int64_t e = std::min(ce, batch.sessions[s].elemEnd);
                if (b < e)
                    segments.push_back({static_cast<uint32_t>(s - first), 0, b - cb, e - cb});
            }
            if (segments.size() > cap.segments)
                throw std::runtime_error("too many sessions in one GPU chunk; raise --vram-budget or use --backend cpu");
            check(m_api->add(m_ctx, batch.offset + cb, batch.span ? batch.span + cb : nullptr, batch.volume + cb, static_cast<uint64_t>(ce - cb), segments.data(),
                             static_cast<uint32_t>(segments.size()), err, sizeof err));
            cb = ce;
        }
        levels.resize(table.size());
        profiles.resize(options.keepProfiles ? levelsUsed : 0);
        check(m_api->finish(m_ctx, options.vaBasisPoints, options.method == ValueAreaMethod::Dual ? 1 : 0,
                            levels.data(), options.keepProfiles ? profiles.data() : nullptr, err, sizeof err));
        for (size_t i = 0; i < table.size(); ++i) {
            const auto& l = levels[i];
            auto r = finishSession(batch.sessions[first + i], LevelOffsets {l.poc, l.val, l.vah}, l.volume);
            if (options.keepProfiles)
                r.profile.assign(profiles.begin() + table[i].profileOffset,
                                 profiles.begin() + table[i].profileOffset + table[i].width);
            out.push_back(std::move(r));
        }
        first = last;
    }
    return out;
}

double GpuProfiler::copyBandwidth(uint64_t bytes)
{
    double bw = 0;
    char err[512] = {0};
    if (m_api->copyBandwidth(m_ctx, bytes, &bw, err, sizeof err) != 0)
        throw std::runtime_error(fmt::format("{} GPU: {}", m_vendor, err));
    return bw;
}

double GpuProfiler::timeResidentMs(int repeats)
{
    double ms = 0;
    char err[512] = {0};
    if (m_api->timeResident(m_ctx, repeats, &ms, err, sizeof err) != 0)
        throw std::runtime_error(fmt::format("{} GPU: {}", m_vendor, err));
    return ms;
}

} // namespace stackscope::vpoc
