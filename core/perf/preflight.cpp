#include "core/perf/preflight.h"

#include "core/inspect/runtime_sources.h"

#include <fmt/format.h>

#include <cstdlib>
#include <unistd.h>

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
        h.name = g.name;
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

std::vector<GpuHeadroom> liveGpuHeadroom()
{
    Snapshot s;
    makeNvmlSource()->collect(s);
    // rocm_smi only where the AMD kernel driver is (it prints to stderr when there is none).
    if (s.gpus.empty() && ::access("/dev/kfd", F_OK) == 0)
        makeRocmSmiSource()->collect(s);
    return gpuHeadroom(s);
}

std::map<std::string, std::string> gpusWithoutRoom(const std::vector<GpuHeadroom>& headroom, std::string* note)
{
    for (const char* v : {"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"})
        if (const char* value = std::getenv(v)) {
            if (note)
                *note = fmt::format("pre-flight not applied: {}={} reorders or hides GPUs", v, value);
            return {};
        }
    for (const auto& h : headroom)
        if (h.name != headroom.front().name) {
            if (note)
                *note = "pre-flight not applied: the GPUs are different models, whose order may differ from the driver's";
            return {};
        }
    std::map<std::string, std::string> out;
    for (const auto& h : headroom)
        if (const auto why = whyNoRoom(h, kProbeCellBytes))
            out[std::to_string(h.gpu)] = *why;
    return out;
}

} // namespace stackscope::perf
