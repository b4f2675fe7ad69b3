// c10d collectives over every visible GPU (or two CPU ranks), checked against a float64 reference, with
// NCCL's own INFO lines (transport, P2P, IOMMU) kept in the details where NCCL/RCCL is used.
#include "core/torch/probe_collectives.h"

#include "core/torch/trainer_dist.h"
#include "core/util/task_runner.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/cuda.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <mutex>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace stackscope::probe {

namespace em = stackscope::errormodel;
using stackscope::trainer::DistGroup;
using stackscope::trainer::DistSettings;

namespace {

constexpr int64_t kElements = 1 << 20;
// A rank that never joins fails the collective (naming its rank) after this. Joining and the first all_reduce
// (the NCCL communicator's creation) took 1.07 s on 2 H200s with PyTorch 2.11 (tests/bench/RESULTS.md, "Bandwidth
// suite"): 30 s is 28 times that, and well below the runner's hang limit, so the collective reports first.
constexpr std::chrono::seconds kCollectiveTimeout {30};

torch::Tensor rankInput(int rank)
{
    auto gen = at::detail::createCPUGenerator(static_cast<uint64_t>(100 + rank));
    return torch::randn({kElements}, gen, torch::TensorOptions().dtype(torch::kFloat));
}

struct RankOutcome {
    torch::Tensor result; // on the CPU
    double seconds = 0;
    std::exception_ptr error;
};

// One rank: joins, runs `op` on its tensor, keeps the result.
void runRank(const DistSettings& s, const torch::Device& device, const std::string& op, RankOutcome& out)
{
    try {
        auto group = DistGroup::join(s, device);
        auto t = (op == "broadcast" && s.rank != 0) ? torch::zeros({kElements}) : rankInput(s.rank);
        t = t.to(device);
        const auto t0 = std::chrono::steady_clock::now();
        if (op == "all_reduce")
            group->allReduceSum(t, "all_reduce(probe)");
        else if (op == "broadcast")
            group->broadcast(t, 0, "broadcast(probe)");
        else
            group->barrier("barrier(probe)");
        if (device.is_cuda())
            torch::cuda::synchronize(device.index());
        out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        out.result = t.to(torch::kCPU);
    } catch (...) { // carried to the probe's thread and rethrown there with the rank's message
        out.error = std::current_exception();
    }
}

void checkResults(ProbeContext& ctx, const std::string& op, const std::vector<RankOutcome>& ranks)
{
    const int world = static_cast<int>(ranks.size());
    if (op == "barrier")
        return;
    if (op == "broadcast") {
        const auto ref = rankInput(0).to(torch::kDouble);
        for (int r = 0; r < world; ++r)
            checkExact(ctx, "rank " + std::to_string(r) + " after broadcast from rank 0", ranks[r].result, ref);
        return;
    }
    auto ref = torch::zeros({kElements}, torch::kDouble), absSum = torch::zeros({kElements}, torch::kDouble);
    for (int r = 0; r < world; ++r) {
        const auto p = rankInput(r).to(torch::kDouble);
        ref += p;
        absSum += p.abs();
    }
    // A sum of `world` float32 values per element in the backend's order: gamma_world of their magnitudes.
    for (int r = 0; r < world; ++r)
        check(ctx, "sum on rank " + std::to_string(r), ranks[r].result, ref, em::gamma(world, em::kUnitFp32) * absSum,
              "sum of " + std::to_string(world) + " fp32 values");
}

// NCCL writes its INFO lines to this file (NCCL_DEBUG_FILE) unless the user set NCCL_DEBUG themselves.
std::string captureNcclDebug()
{
    if (std::getenv("NCCL_DEBUG"))
        return {};
    const std::string path = "/tmp/stackscope-nccl-" + std::to_string(::getpid()) + ".log";
    ::setenv("NCCL_DEBUG", "INFO", 1);
    ::setenv("NCCL_DEBUG_FILE", path.c_str(), 1);
    return path;
}

void keepNcclLines(ProbeContext& ctx, const std::string& path)
{
    if (path.empty())
        return;
    std::ifstream in(path);
    nlohmann::json lines = nlohmann::json::array();
    for (std::string line; std::getline(in, line) && lines.size() < 200;)
        lines.push_back(line);
    ::unlink(path.c_str());
    ctx.details["nccl_debug"] = lines;
}

} // namespace

int loopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    const bool ok = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
                    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
    if (fd >= 0)
        ::close(fd);
    if (!ok)
        throw std::runtime_error("cannot find a free port on 127.0.0.1 for the rendezvous");
    return ntohs(a.sin_port);
}

void probeCollective(ProbeContext& ctx, const std::string& op)
{
    const int gpus = ctx.isCpu ? 0 : static_cast<int>(torch::cuda::device_count());
    const bool nccl = !ctx.isCpu;
    if (nccl && !stackscope::trainer::ncclAvailable())
        throw Unsupported("this build has no NCCL/RCCL process group (a CPU libtorch, nccl.h not found, or built without -DSTACKSCOPE_NCCL=ON)");
    if (!nccl && !stackscope::trainer::glooAvailable())
        throw Unsupported("this build has no Gloo process group (install libgloo-dev and rebuild StackScope)");
    // World size: every visible GPU (one included); the CPU column uses two ranks, the fewest that exchange data.
    const int world = nccl ? gpus : 2;
    const std::string debugFile = nccl ? captureNcclDebug() : std::string();
    DistSettings s;
    s.worldSize = world;
    s.masterPort = loopbackPort();
    s.backend = nccl ? "nccl" : "gloo";
    s.timeout = kCollectiveTimeout;
    std::vector<RankOutcome> ranks(static_cast<size_t>(world));
    // The ranks meet in the collective: together() runs them at the same time, each on a thread of its own.
    TaskRunner::shared().together(ranks.size(), [&](size_t r) {
        DistSettings rs = s;
        rs.rank = static_cast<int>(r);
        rs.storeServer = r == 0;
        const torch::Device device = nccl ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(r)) : torch::kCPU;
        runRank(rs, device, op, ranks[r]);
    });
    keepNcclLines(ctx, debugFile);
    for (const auto& r : ranks)
        if (r.error)
            std::rethrow_exception(r.error);
    checkResults(ctx, op, ranks);
    double slowest = 0;
    for (const auto& r : ranks)
        slowest = std::max(slowest, r.seconds);
    ctx.details.update({{"backend", s.backend}, {"world_size", world}, {"seconds", slowest}});
    char buf[160];
    std::snprintf(buf, sizeof buf, "c10d %s over %d rank%s (%s%s), %.2f ms", op.c_str(), world, world == 1 ? "" : "s",
                  s.backend.c_str(), nccl ? ", one per GPU" : " on the CPU", slowest * 1e3);
    ctx.note = buf;
}

} // namespace stackscope::probe
