// The trainer's process group: env:// rendezvous over c10d's TCPStore, Gloo on the CPU, NCCL (RCCL on ROCm)
// on GPUs, every collective with a timeout and a "last collective" label per rank.
#pragma once

#include "core/util/error.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <chrono>
#include <memory>
#include <string>

namespace stackscope::trainer {

class FlightRecorder;

// What core/training/training_launch.cpp passes in the module's JSON under "dist" (absent: one process).
struct DistSettings {
    int rank = 0;
    int worldSize = 1;
    int localRank = 0;
    std::string masterAddr = "127.0.0.1";
    int masterPort = 29500;
    std::string backend = "auto"; // auto | nccl | gloo
    std::chrono::milliseconds timeout {std::chrono::seconds(300)};
    int64_t bucketBytes = 4000000; // gradient buckets (trainer_buckets.h)
    std::string statusFile; // the flight recorder's ring and the last collective's label, for the launcher; may be empty
    bool storeServer = true; // rank 0 hosts the TCPStore, unless a launcher's agent already does (torchrun)
    // What every rank must share (training_launch.h, agreementJson), as JSON text; empty: nothing is compared.
    std::string agree;
};
// Reads "dist" of the module's JSON; worldSize 0 when the key is absent (one process, no group).
DistSettings parseDistSettings(const char* json);

// A collective that failed or timed out: the message names this rank and the collective it was in.
// The asked-for backend is not in this build or does not fit the device: bad configuration (exit 2), refused
// before the rendezvous so the other ranks are ended at once.
class DistConfigError : public Error {
public:
    explicit DistConfigError(const std::string& what)
        : Error(what, ErrorKind::Input)
    {
    }
};

class CollectiveError : public Error {
public:
    explicit CollectiveError(const std::string& what)
        : Error(what, ErrorKind::Failed)
    {
    }
};

// A collective started and not yet waited for.
class PendingCollective {
public:
    virtual ~PendingCollective() = default;
    // Waits as the blocking calls do (Gloo: within the timeout on the host; NCCL: this stream after it).
    virtual void wait() = 0;
};

class DistGroup {
public:
    virtual ~DistGroup() = default;
    // Joins the group (blocks until every rank has joined, or the timeout). `device` picks the backend
    // for "auto": nccl for a GPU where this libtorch has it, gloo otherwise. Throws CollectiveError.
    static std::unique_ptr<DistGroup> join(const DistSettings& s, const torch::Device& device);

    // Each call labels itself (the label is what a failure or the launcher reports) and waits for completion
    // within the timeout.
    virtual void allReduceSum(torch::Tensor& t, const std::string& label) = 0;
    // Starts an all-reduce (sum) of t in place; the caller waits on the result before reading t.
    virtual std::unique_ptr<PendingCollective> startAllReduceSum(torch::Tensor& t, const std::string& label) = 0;
    virtual void broadcast(torch::Tensor& t, int root, const std::string& label) = 0;
    // out holds worldSize() copies of in's size, rank order (c10d's _allgather_base).
    virtual void allGather(torch::Tensor& out, torch::Tensor& in, const std::string& label) = 0;
    // out holds in's size / worldSize(): this rank's share of the sum (c10d's _reduce_scatter_base).
    virtual void reduceScatterSum(torch::Tensor& out, torch::Tensor& in, const std::string& label) = 0;
    virtual void barrier(const std::string& label) = 0;

    virtual int rank() const = 0;
    virtual int worldSize() const = 0;
    virtual std::string backendName() const = 0;
    virtual std::string lastCollective() const = 0;
    // This rank's flight recorder (flight_recorder.h): every collective above is an entry of its ring.
    virtual FlightRecorder& recorder() = 0;
    // Ends the backend's communicators before the group is destroyed (what destroy_process_group() does in Python;
    // without it PyTorch 2.x warns at exit). Called by the destructor too.
    virtual void shutdown() = 0;
};

// Whether this libtorch build can make each backend here (compiled in and its headers were found).
bool glooAvailable();
bool ncclAvailable();

} // namespace stackscope::trainer
