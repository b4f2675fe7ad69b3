#include "core/perf/perf_types.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace stackscope::perf {

const std::vector<TestInfo>& testCatalogue()
{
    static const std::vector<TestInfo> c {
        {Test::H2dPinned, "h2d_pinned", "host to device, pinned", "GB/s"},
        {Test::D2hPinned, "d2h_pinned", "device to host, pinned", "GB/s"},
        {Test::H2dPageable, "h2d_pageable", "host to device, pageable", "GB/s"},
        {Test::D2hPageable, "d2h_pageable", "device to host, pageable", "GB/s"},
        {Test::HostMemcpy, "host_memcpy", "host memory copy (one thread)", "GB/s"},
        {Test::D2d, "d2d", "device to device, same GPU", "GB/s"},
        {Test::PeerCe, "peer_ce", "peer copy, copy engine", "GB/s"},
        {Test::PeerKernel, "peer_kernel", "peer copy, kernel", "GB/s"},
        {Test::PeerBidirCe, "peer_bidir_ce", "peer copy both ways at once, copy engine", "GB/s"},
        {Test::Triad, "triad", "memory triad a = b + s c", "GB/s"},
        {Test::Gemm, "gemm", "matrix multiply", "TFLOP/s"},
        {Test::AllReduce, "all_reduce", "all_reduce bus bandwidth", "GB/s"},
        {Test::AllGather, "all_gather", "all_gather bus bandwidth", "GB/s"},
        {Test::ReduceScatter, "reduce_scatter", "reduce_scatter bus bandwidth", "GB/s"},
    };
    return c;
}

const TestInfo& info(Test t)
{
    const auto& c = testCatalogue();
    return *std::find_if(c.begin(), c.end(), [t](const TestInfo& i) { return i.test == t; });
}

std::optional<Test> testFromId(const std::string& id)
{
    for (const auto& i : testCatalogue())
        if (id == i.id)
            return i.test;
    return std::nullopt;
}

bool isCollective(Test t)
{
    return t == Test::AllReduce || t == Test::AllGather || t == Test::ReduceScatter;
}

bool isPeer(Test t)
{
    return t == Test::PeerCe || t == Test::PeerKernel || t == Test::PeerBidirCe;
}

const char* verdictId(Verdict v)
{
    switch (v) {
    case Verdict::AsExpected: return "as_expected";
    case Verdict::Degraded: return "degraded";
    case Verdict::Broken: return "broken";
    case Verdict::Unknown: break;
    }
    return "unknown";
}

const char* verdictText(Verdict v)
{
    switch (v) {
    case Verdict::AsExpected: return "as expected";
    case Verdict::Degraded: return "degraded";
    case Verdict::Broken: return "broken";
    case Verdict::Unknown: break;
    }
    return "unknown";
}

std::optional<Verdict> verdictFromId(const std::string& id)
{
    for (auto v : {Verdict::AsExpected, Verdict::Degraded, Verdict::Broken, Verdict::Unknown})
        if (id == verdictId(v))
            return v;
    return std::nullopt;
}

std::string figureWhere(const Figure& f)
{
    if (isCollective(f.test))
        return f.ranks > 1 ? "GPUs 0-" + std::to_string(f.ranks - 1) : "GPU 0";
    if (f.gpu < 0)
        return "host";
    if (isPeer(f.test))
        return "GPU " + std::to_string(f.gpu) + (f.test == Test::PeerBidirCe ? " <-> GPU " : " -> GPU ") +
               std::to_string(f.peer);
    return "GPU " + std::to_string(f.gpu);
}

std::string figureKey(const Figure& f)
{
    return std::string(info(f.test).id) + (f.dtype.empty() ? "" : "_" + f.dtype) + " " + figureWhere(f);
}

std::string sizeText(std::uint64_t bytes)
{
    if (bytes >= (1ull << 30))
        return fmt::format("{:g} GiB", double(bytes) / double(1ull << 30));
    if (bytes >= (1ull << 20))
        return fmt::format("{:g} MiB", double(bytes) / double(1ull << 20));
    return fmt::format("{:g} KiB", double(bytes) / 1024.0);
}

} // namespace stackscope::perf
