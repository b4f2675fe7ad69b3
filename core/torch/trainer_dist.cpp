// c10d process groups for the trainer and the collective probes: TCPStore rendezvous, Gloo, NCCL/RCCL.
// Compiles against Debian's libtorch 1.13 and PyTorch 2.x: the calls used here (TCPStore(host, options),
// ProcessGroupGloo/NCCL(store, rank, size, options), allreduce/broadcast/barrier, Work::wait) kept their
// signatures; the backends' base class changed (ProcessGroup -> Backend), so only the concrete classes are named.
#include "core/torch/trainer_dist.h"

#include "core/torch/flight_recorder.h"

#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/Types.hpp> // AllreduceOptions & co.: no backend header brings them in 2.x wheels
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/version.h>

// The backend headers include their library's own headers (gloo/, nccl.h), which not every libtorch ships.
#if defined(USE_C10D_GLOO) && __has_include(<gloo/context.h>)
#define STACKSCOPE_HAVE_GLOO 1
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
// NCCL on CUDA builds of libtorch (-DSTACKSCOPE_NCCL, on by default there) when nccl.h is found.
#if defined(STACKSCOPE_ENABLE_NCCL) && defined(USE_C10D_NCCL) && \
    (__has_include(<nccl.h>) || __has_include(<rccl/rccl.h>))
#define STACKSCOPE_HAVE_NCCL 1
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <algorithm>
#include <type_traits>
#include <utility>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

namespace stackscope::trainer {

namespace {

bool isLoopback(const std::string& host)
{
    return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

c10::intrusive_ptr<c10d::Store> rendezvousStore(const DistSettings& s, bool server)
{
    c10d::TCPStoreOptions o;
    o.port = static_cast<std::uint16_t>(s.masterPort);
    o.isServer = server;
    o.numWorkers = static_cast<std::size_t>(s.worldSize);
    o.waitWorkers = false; // the backend's own rendezvous waits for every rank, within the timeout
    o.timeout = s.timeout;
    auto tcp = c10::make_intrusive<c10d::TCPStore>(s.masterAddr, o);
    return c10::make_intrusive<c10d::PrefixStore>("stackscope", tcp);
}

std::vector<uint8_t> bytesOf(const std::string& s)
{
    return {s.begin(), s.end()};
}

std::string textOf(const std::vector<uint8_t>& b)
{
    return {b.begin(), b.end()};
}

// The fields in which `other` (rank `rank`'s agreement) differs from rank 0's, as "field: rank 0 has X, rank R Y".
std::vector<std::string> differences(const nlohmann::json& zero, const nlohmann::json& other, int rank)
{
    std::vector<std::string> out;
    auto shown = [](const nlohmann::json& j, const char* key) {
        const auto it = j.find(key);
        const std::string t = it == j.end() ? std::string("nothing") : it->dump();
        return t.size() > 80 ? t.substr(0, 77) + "..." : t;
    };
    std::set<std::string> keys;
    for (const auto* j : {&zero, &other})
        for (auto it = j->begin(); it != j->end(); ++it)
            keys.insert(it.key());
    for (const auto& k : keys) {
        if (zero.value(k, nlohmann::json()) != other.value(k, nlohmann::json()))
            out.push_back(k + ": rank 0 has " + shown(zero, k.c_str()) + ", rank " + std::to_string(rank) + " has " +
                          shown(other, k.c_str()));
    }
    return out;
}

// Every rank puts its agreement in the store; rank 0 compares all with its own and puts the verdict, which every
// rank reads: a mismatch ends every rank with the same message (exit 2) before any collective of another size.
void checkAgreement(c10d::Store& store, const DistSettings& s)
{
    if (s.agree.empty() || s.worldSize < 2)
        return;
    store.set("agree/" + std::to_string(s.rank), bytesOf(s.agree));
    if (s.rank == 0) {
        const auto mine = nlohmann::json::parse(s.agree);
        std::vector<std::string> found;
        for (int r = 1; r < s.worldSize && found.size() < 8; ++r) {
            const std::string key = "agree/" + std::to_string(r);
            store.wait({key}, s.timeout);
            const auto theirs = nlohmann::json::parse(textOf(store.get(key)), nullptr, false);
            for (auto& d : differences(mine, theirs.is_object() ? theirs : nlohmann::json::object(), r))
                found.push_back(std::move(d));
        }
        std::string verdict;
        for (const auto& d : found)
            verdict += (verdict.empty() ? "" : "; ") + d;
        store.set("agree/verdict", bytesOf(verdict.empty() ? "ok" : verdict));
    }
    store.wait({"agree/verdict"}, s.timeout);
    const std::string verdict = textOf(store.get("agree/verdict"));
    if (verdict != "ok" && s.rank != 0) {
        store.set("agree/seen/" + std::to_string(s.rank), bytesOf("1")); // rank 0 may end its store now
    } else if (verdict != "ok") {
        // Rank 0 hosts the store: it stays until every rank has read the verdict (a peer reading from a store that
        // is gone fails with "Broken pipe" instead of the message), within the timeout.
        std::vector<std::string> seen;
        for (int r = 1; r < s.worldSize; ++r)
            seen.push_back("agree/seen/" + std::to_string(r));
        try {
            store.wait(seen, s.timeout);
        } catch (const std::exception&) { // a rank that left without reading it: the message below still stands
        }
    }
    if (verdict != "ok")
        throw DistConfigError("rank " + std::to_string(s.rank) + " of " + std::to_string(s.worldSize) +
                              ": the ranks were started with different options or data (" + verdict +
                              "); start every rank with the same command and the same input file");
}

// ProcessGroupNCCL::shutdown() arrived in PyTorch 2.x; libtorch 1.13 and Gloo have none.
template <typename PG, typename = void> struct HasShutdown : std::false_type {};
template <typename PG> struct HasShutdown<PG, std::void_t<decltype(std::declval<PG&>().shutdown())>> : std::true_type {};

template <typename PG>
class Group final : public DistGroup {
public:
    Group(c10::intrusive_ptr<PG> pg, const DistSettings& s, torch::Device device, std::string name,
          std::unique_ptr<FlightRecorder> recorder)
        : m_pg(std::move(pg))
        , m_s(s)
        , m_device(device)
        , m_name(std::move(name))
        , m_rec(std::move(recorder))
    {
    }

    void allReduceSum(torch::Tensor& t, const std::string& label) override { startAllReduceSum(t, label)->wait(); }
    std::unique_ptr<PendingCollective> startAllReduceSum(torch::Tensor& t, const std::string& label) override
    {
        const uint64_t seq = m_rec->enqueue("all_reduce", label, bytesOf(t));
        auto work = begin(seq, label, [&] {
            std::vector<at::Tensor> v {t};
            c10d::AllreduceOptions o;
            o.timeout = m_s.timeout;
            return m_pg->allreduce(v, o);
        });
        return std::make_unique<Pending<decltype(work)>>(this, std::move(work), label, seq);
    }
    void broadcast(torch::Tensor& t, int root, const std::string& label) override
    {
        run("broadcast", bytesOf(t), label, [&] {
            std::vector<at::Tensor> v {t};
            c10d::BroadcastOptions o;
            o.rootRank = root;
            o.timeout = m_s.timeout;
            return m_pg->broadcast(v, o);
        });
    }
    void allGather(torch::Tensor& out, torch::Tensor& in, const std::string& label) override
    {
        run("all_gather", bytesOf(out), label, [&] {
            c10d::AllgatherOptions o;
            o.timeout = m_s.timeout;
            return m_pg->_allgather_base(out, in, o);
        });
    }
    void reduceScatterSum(torch::Tensor& out, torch::Tensor& in, const std::string& label) override
    {
        run("reduce_scatter", bytesOf(in), label, [&] {
            c10d::ReduceScatterOptions o;
            o.timeout = m_s.timeout;
            return m_pg->_reduce_scatter_base(out, in, o);
        });
    }
    void barrier(const std::string& label) override
    {
        run("barrier", 0, label, [&] {
            c10d::BarrierOptions o;
            o.timeout = m_s.timeout;
            if (m_device.is_cuda())
                o.device_ids = {m_device.index()};
            return m_pg->barrier(o);
        });
    }
    int rank() const override { return m_s.rank; }
    int worldSize() const override { return m_s.worldSize; }
    std::string backendName() const override { return m_name; }
    std::string lastCollective() const override { return m_rec->label(); }
    FlightRecorder& recorder() override { return *m_rec; }
    void shutdown() override
    {
        if constexpr (HasShutdown<PG>::value) {
            if (!m_shutDown)
                m_pg->shutdown();
        }
        m_shutDown = true;
    }
    ~Group() override
    {
        try {
            shutdown();
        } catch (...) { // a communicator that already failed: its error was reported by the collective
        }
    }

private:
    template <typename Work> class Pending : public PendingCollective {
    public:
        Pending(Group* group, Work work, std::string label, uint64_t seq)
            : m_group(group)
            , m_work(std::move(work))
            , m_label(std::move(label))
            , m_seq(seq)
        {
        }
        void wait() override { m_group->finish(m_work, m_label, m_seq); }

    private:
        Group* m_group;
        Work m_work;
        std::string m_label;
        uint64_t m_seq;
    };

    static int64_t bytesOf(const torch::Tensor& t) { return t.numel() * static_cast<int64_t>(t.element_size()); }

    template <typename Start> auto begin(uint64_t seq, const std::string& label, Start start)
    {
        try {
            return start();
        } catch (const c10::Error& e) { // its what() carries a C++ backtrace no person needs here
            m_rec->mark(seq, flight::State::Failed);
            throw CollectiveError(collectiveFailure(m_s, m_name, label, e.what_without_backtrace()));
        } catch (const std::exception& e) {
            m_rec->mark(seq, flight::State::Failed);
            throw CollectiveError(collectiveFailure(m_s, m_name, label, e.what()));
        }
    }
    template <typename Work> void finish(Work& work, const std::string& label, uint64_t seq)
    {
        try {
            // Gloo: wait on the host within the timeout. NCCL: wait() only orders this stream after the
            // collective (a timeout argument would block the host every step); NCCL's watchdog enforces the
            // options' timeout and ends the process with the operation it timed out in. Its ring entry stays
            // "enqueued" until the trainer's next host synchronisation (FlightRecorder::completeAll).
            if (m_name == "nccl") {
                work->wait();
                return;
            }
            m_rec->mark(seq, flight::State::Started);
            if (!work->wait(m_s.timeout))
                throw std::runtime_error("not finished within the timeout");
            m_rec->mark(seq, flight::State::Completed);
        } catch (const c10::Error& e) {
            m_rec->mark(seq, flight::State::Failed);
            throw CollectiveError(collectiveFailure(m_s, m_name, label, e.what_without_backtrace()));
        } catch (const std::exception& e) {
            m_rec->mark(seq, flight::State::Failed);
            throw CollectiveError(collectiveFailure(m_s, m_name, label, e.what()));
        }
    }
    template <typename Start> void run(const char* op, int64_t bytes, const std::string& label, Start start)
    {
        const uint64_t seq = m_rec->enqueue(op, label, bytes);
        auto work = begin(seq, label, start);
        finish(work, label, seq);
    }

    static std::string collectiveFailure(const DistSettings& s, const std::string& backend, const std::string& label,
                                         const std::string& what)
    {
        return "rank " + std::to_string(s.rank) + " of " + std::to_string(s.worldSize) + ": " + backend + " " +
               label + " failed (timeout " + std::to_string(s.timeout.count() / 1000) + " s): " + what +
               "; another rank died or hangs: look for its own message, fix that, then rerun with --resume";
    }

    c10::intrusive_ptr<PG> m_pg;
    DistSettings m_s;
    torch::Device m_device;
    std::string m_name;
    std::unique_ptr<FlightRecorder> m_rec;
    bool m_shutDown = false;
};

#ifdef STACKSCOPE_HAVE_GLOO
std::shared_ptr<::gloo::transport::Device> glooDevice(const DistSettings& s)
{
    if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME"); ifname && *ifname)
        return c10d::ProcessGroupGloo::createDeviceForInterface(ifname);
    if (isLoopback(s.masterAddr)) // every rank on this machine: no need to resolve the host name
        return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
    return c10d::ProcessGroupGloo::createDefaultDevice();
}
#endif

std::string chooseBackend(const DistSettings& s, const torch::Device& device)
{
    if (s.backend == "gloo" || s.backend == "nccl")
        return s.backend;
    return device.is_cuda() && ncclAvailable() ? "nccl" : "gloo";
}

} // namespace

static void refuseUnavailable(const std::string& backend, const torch::Device& device, const std::string& where)
{
    if (backend == "nccl" && !device.is_cuda())
        throw DistConfigError(where + "the nccl backend needs a GPU; use --dist-backend gloo on the CPU");
    if (backend == "nccl" && !ncclAvailable())
        throw DistConfigError(where + "this build (libtorch " TORCH_VERSION ") has no NCCL process group; use "
                              "--dist-backend gloo, or build StackScope against a CUDA PyTorch (nccl.h beside it, "
                              "-DSTACKSCOPE_NCCL=ON, the default)");
    if (backend == "gloo" && !glooAvailable())
        throw DistConfigError(where + "this build (libtorch " TORCH_VERSION ") has no Gloo process group: PyTorch "
                              "wheels ship no gloo headers to build it against; on GPUs use --dist-backend nccl, "
                              "for several CPU processes build against a libtorch with them (Debian: libtorch-dev "
                              "and libgloo-dev)");
    if (backend != "nccl" && backend != "gloo")
        throw DistConfigError(where + "unknown --dist-backend '" + backend + "'; use auto, nccl or gloo");
}

bool glooAvailable()
{
#ifdef STACKSCOPE_HAVE_GLOO
    return true;
#else
    return false;
#endif
}

bool ncclAvailable()
{
#ifdef STACKSCOPE_HAVE_NCCL
    return true;
#else
    return false;
#endif
}

DistSettings parseDistSettings(const char* text)
{
    const auto j = nlohmann::json::parse(text);
    DistSettings s;
    const auto it = j.find("dist");
    if (it == j.end() || !it->is_object()) {
        s.worldSize = 0;
        return s;
    }
    const auto& d = *it;
    s.rank = d.at("rank").get<int>();
    s.worldSize = d.at("world_size").get<int>();
    s.localRank = d.value("local_rank", 0);
    s.masterAddr = d.value("master_addr", std::string("127.0.0.1"));
    s.masterPort = d.value("master_port", 29500);
    s.backend = d.value("backend", std::string("auto"));
    s.timeout = std::chrono::milliseconds(static_cast<int64_t>(d.value("timeout_s", 300.0) * 1000.0));
    s.bucketBytes = std::max<int64_t>(4, d.value("bucket_bytes", int64_t {4000000}));
    s.statusFile = d.value("status_file", std::string());
    s.storeServer = d.value("store_server", s.rank == 0);
    if (const auto a = d.find("agree"); a != d.end() && a->is_object())
        s.agree = a->dump();
    return s;
}

std::unique_ptr<DistGroup> DistGroup::join(const DistSettings& s, const torch::Device& device)
{
    const std::string backend = chooseBackend(s, device);
    auto label = std::make_unique<FlightRecorder>(s.statusFile, s.rank, s.worldSize, backend);
    label->setLabel("rendezvous at " + s.masterAddr + ":" + std::to_string(s.masterPort));
    const std::string where = "rank " + std::to_string(s.rank) + " of " + std::to_string(s.worldSize) + ": ";
    refuseUnavailable(backend, device, where);
    try {
        auto store = rendezvousStore(s, s.storeServer);
        checkAgreement(*store, s);
        if (backend == "nccl") {
#ifdef STACKSCOPE_HAVE_NCCL
            auto o = c10d::ProcessGroupNCCL::Options::create();
            o->timeout = s.timeout;
            auto pg = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, s.rank, s.worldSize, o);
            return std::make_unique<Group<c10d::ProcessGroupNCCL>>(pg, s, device, "nccl", std::move(label));
#endif
        }
#ifdef STACKSCOPE_HAVE_GLOO
        if (backend == "gloo") {
            auto o = c10d::ProcessGroupGloo::Options::create(s.timeout);
            o->devices.push_back(glooDevice(s));
            auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, s.rank, s.worldSize, o);
            return std::make_unique<Group<c10d::ProcessGroupGloo>>(pg, s, device, "gloo", std::move(label));
        }
#endif
        throw std::logic_error("backend " + backend + " passed refuseUnavailable but is not built in");
    } catch (const CollectiveError&) {
        throw;
    } catch (const DistConfigError&) {
        throw;
    } catch (const c10::Error& e) {
        throw CollectiveError(where + backend + " rendezvous at " + s.masterAddr + ":" + std::to_string(s.masterPort) +
                              " failed (" + e.what_without_backtrace() + "); check that every rank was started with "
                              "the same MASTER_ADDR, MASTER_PORT and WORLD_SIZE, that the port is free on rank 0's "
                              "host, and that --dist-timeout covers the ranks' start-up");
    } catch (const std::exception& e) {
        throw CollectiveError(where + backend + " rendezvous at " + s.masterAddr + ":" + std::to_string(s.masterPort) +
                              " failed (" + e.what() + "); check that every rank was started with the same "
                              "MASTER_ADDR, MASTER_PORT and WORLD_SIZE and that the port is free on rank 0's host");
    }
}

} // namespace stackscope::trainer
