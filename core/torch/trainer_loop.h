// The trainer's run loop (trainer.cpp): one process's model replica, its optional process group and gradient buckets,
// the step (fused kernel, CUDA graph or eager), the epochs, checkpoints and the events the host reads. Private to the
// torch module; the module's C ABI (core/runtime/trainer_api.h) is its only way in.
#pragma once

#include "core/runtime/trainer_api.h"
#include "core/torch/flight_recorder.h"
#include "core/torch/trainer_buckets.h"
#include "core/torch/trainer_device.h"
#include "core/torch/trainer_dist.h"
#include "core/torch/trainer_fused.h"
#include "core/torch/trainer_model.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace stackscope::trainer {

// A configuration the device cannot run: stackscope_torch_train returns 2 with this message.
class DeviceConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The host's event callback returned non-zero: the run stops; stackscope_torch_train returns
// STACKSCOPE_TORCH_TRAIN_HOST_FAILED and the host reports its own error.
struct HostFailed {};

class Trainer {
public:
    using Clock = std::chrono::steady_clock;

    Trainer(const TrainSettings& s, const DistSettings& dist, const StackscopeTrainData& data, std::string outputDir,
            StackscopeTrainEventFn onEvent, StackscopeTrainStopFn stop, void* user)
        : m_s(s)
        , m_ds(dist)
        , m_data(data)
        , m_dir(std::move(outputDir))
        , m_onEvent(onEvent)
        , m_stop(stop)
        , m_user(user)
    {
    }

    void run(bool resume);
    // run() with the flight recorder's dump (flight_recorder.h) when a rank fails.
    void runRecorded(bool resume);

private:
    // What run() carries from epoch to epoch: how a step executes and the run's step and time figures.
    // fused is declared before graph so that, as when they were run()'s locals, the graph goes first.
    struct RunProgress {
        std::unique_ptr<stackscope::trainer::FusedStep> fused;
        std::string graphNote;
        bool tryGraphs = false;
        std::unique_ptr<stackscope::trainer::GraphedStep> graph;
        int64_t stepsSinceGraphTry = 0;
        double trainSeconds = 0;
        int64_t totalSteps = 0;
        // The eager warm-up steps and the capture of a CUDA graph are timed apart (setup_seconds), as the Python
        // baselines time their warm-up and capture apart: steps/s is the steady rate.
        double setupSeconds = 0;
        int64_t setupSteps = 0;
        bool stopped = false;
        // Several processes on a model the fused step serves: what one GPU runs (steps/s, measured on rank 0's GPU
        // before training), compared once with the ranks' own rate after their first steps.
        double oneGpuStepsPerS = 0;
        std::string oneGpuNotTimed; // why one GPU has no figure (then the note says the comparison was not made)
        int reports = 0;
        // Bytes a graph replay all-reduces (the flight recorder's entry for each replay).
        int64_t graphBytes = 0;
    };

    // Only rank 0 reports: the other ranks' losses and files are rank 0's.
    void emit(nlohmann::json event)
    {
        if (m_onEvent && rank() == 0 && m_onEvent(m_user, event.dump().c_str()) != 0)
            throw HostFailed();
    }
    bool stopRequested() const { return m_stop && m_stop(m_user) != 0; }
    void resolveDevices();
    std::unique_ptr<stackscope::trainer::FusedStep> chooseFusedStep(std::string& executionNote);
    void selectBatch(int64_t offset);
    void stepOnSelectedBatch();
    void allReduceGradients();
    double validate();
    nlohmann::json deviceFigures() const;
    // Data parallel over processes (trainer_dist.h): joins the group, takes this rank's shard of the batch.
    int rank() const { return m_ds.worldSize >= 1 ? m_ds.rank : 0; }
    int worldSize() const { return m_ds.worldSize >= 1 ? m_ds.worldSize : 1; }
    void joinGroup();
    void shareRankZeroState(stackscope::trainer::TrainingState& state);
    double intervalLoss(bool& stop, const nlohmann::json& figures, nlohmann::json& ranks);
    double agreedValidationLoss(int epoch);
    // run()'s stages, in the order run() calls them.
    void checkBatchFitsData() const;
    void buildReplicas();
    void restoreState(bool resume, const std::string& checkpoint, stackscope::trainer::TrainingState& state);
    nlohmann::json deviceNames() const;
    void chooseExecution(RunProgress& p);
    void emitStarted(const nlohmann::json& names, const stackscope::trainer::TrainingState& state);
    void startEpoch(int epoch);
    double trainEpoch(int epoch, Clock::time_point epochStart, RunProgress& p);
    int64_t runSteps(int64_t step, int64_t sinceReport, Clock::time_point epochStart, RunProgress& p);
    void eagerStep(Clock::time_point epochStart, RunProgress& p);
    void captureGraph(Clock::time_point epochStart, RunProgress& p);
    void measureOneGpu(RunProgress& p);
    void compareWithOneGpu(RunProgress& p, int64_t steps, double seconds);
    void synced() const;
    void endGroup(RunProgress& p);
    bool reportInterval(int epoch, int64_t step, int64_t sinceReport, Clock::time_point epochStart,
                        Clock::time_point& intervalStart, double& epochLoss);
    bool endEpoch(int epoch, double trainTime, double epochLoss, const std::string& checkpoint,
                  stackscope::trainer::TrainingState& state);
    void emitFinished(const stackscope::trainer::TrainingState& state, const RunProgress& p);
    int64_t stepsPerEpoch() const { return m_data.trainRows / m_s.batchSize; }

    TrainSettings m_s;
    DistSettings m_ds;
    std::unique_ptr<DistGroup> m_dist;
    std::unique_ptr<stackscope::trainer::GradientBuckets> m_buckets; // with m_dist: all-reduce during backward
    std::unique_ptr<stackscope::trainer::FlightWatch> m_watch;       // with m_dist; ends before the group
    int64_t m_step = 0;         // this epoch's step, for the collectives' labels
    int m_epoch = 0;
    int64_t m_shardBegin = 0;   // this rank's rows start here in every batch
    double m_shardWeight = 1.0; // its rows / the batch: the weight of its mean gradient and loss in the sum
    StackscopeTrainData m_data;
    std::string m_dir;
    StackscopeTrainEventFn m_onEvent;
    StackscopeTrainStopFn m_stop;
    void* m_user;

    std::vector<torch::Device> m_devices;
    std::vector<int> m_gpus;
    std::vector<Replica> m_replicas; // one: this process's device
    std::vector<torch::Tensor> m_perm;      // this epoch's permutation, on each device
    std::vector<torch::Tensor> m_batchIdx;  // the step's indices, a fixed buffer per device (graph input)
    std::vector<int64_t> m_shard;           // rows of the batch this process takes
};

} // namespace stackscope::trainer
