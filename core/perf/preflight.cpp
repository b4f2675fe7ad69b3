#include "core/perf/preflight.h"

#include <fmt/format.h>

#include <algorithm>

namespace stackscope::perf {

namespace {

double gib(std::uint64_t bytes)
{
    return static_cast<double>(bytes) / double(std::uint64_t(1) << 30);
}

} // namespace

std::vector<GpuHeadroom> gpuHeadroom(const Snapshot& s)
{
    std::vector<GpuHeadroom> out;
    for (const auto& g : s.gpus) {
        GpuHeadroom h;
        h.gpu = g.index;
        h.totalBytes = g.vramTotalBytes;
        if (g.vramTotalBytes && g.vramUsedBytes)
            h.freeBytes = *g.vramTotalBytes > *g.vramUsedBytes ? *g.vramTotalBytes - *g.vramUsedBytes : 0;
        h.holders = g.processes;
        h.holdersKnown = g.processesKnown;
        std::stable_sort(h.holders.begin(), h.holders.end(), [](const GpuProcess& a, const GpuProcess& b) {
            return a.usedBytes.value_or(0) > b.usedBytes.value_or(0);
        });
        out.push_back(std::move(h));
    }
    return out;
}

std::string describeHeadroom(const GpuHeadroom& h)
{
    std::string out = h.freeBytes ? fmt::format("GPU {} has {:.1f} GiB free", h.gpu, gib(*h.freeBytes))
                                  : fmt::format("GPU {}: free memory unknown", h.gpu);
    if (h.totalBytes)
        out += fmt::format(" of {:.1f} GiB", gib(*h.totalBytes));
    if (!h.holdersKnown)
        return out + "; the driver does not say which processes hold memory";
    if (h.holders.empty())
        return out + "; no process holds memory on it";
    const auto& p = h.holders.front();
    out += fmt::format("; process {} ({}{})", p.pid, p.command.value_or("?"), p.user ? ", user " + *p.user : "");
    out += p.usedBytes ? fmt::format(" holds {:.1f} GiB", gib(*p.usedBytes)) : " holds an amount the driver does not say";
    if (h.holders.size() > 1)
        out += fmt::format(", and {} other process{}", h.holders.size() - 1, h.holders.size() > 2 ? "es" : "");
    return out;
}

std::optional<std::string> whyNoRoom(const GpuHeadroom& h, std::uint64_t bytes)
{
    if (!h.freeBytes || *h.freeBytes >= bytes + kContextReserveBytes)
        return std::nullopt;
    return fmt::format("skipped: {} (needs {:.1f} GiB: {:.1f} for the work and {:.0f} for the context)", describeHeadroom(h),
                       gib(bytes + kContextReserveBytes), gib(bytes), gib(kContextReserveBytes));
}

} // namespace stackscope::perf
