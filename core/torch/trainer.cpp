// The libtorch trainer: an MLP (Linear, LayerNorm, SiLU, optional Dropout) trained with Adam on flat
// parameter buffers, one device per process, data parallel over processes through c10d (trainer_dist.h),
// CUDA-graphed where libtorch allows.
#include "core/torch/trainer_loop.h"

#include "core/runtime/trainer_api.h"
#include "core/torch/flight_recorder.h"
#include "core/torch/probe_runtime.h"
#include "core/torch/trainer_device.h"
#include "core/torch/trainer_buckets.h"
#include "core/torch/trainer_device_notes.h"
#include "core/torch/trainer_dist.h"
#include "core/torch/trainer_fused.h"
#include "core/torch/trainer_model.h"
#include "core/torch/torch_save_format.h"
#include "core/util/atomic_file.h"

#include <nlohmann/json.hpp>
#include <torch/cuda.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace {

void setError(char* error, size_t len, const std::string& what)
{
    if (error && len)
        std::snprintf(error, len, "%s", what.c_str());
}

double seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

} // namespace

namespace stackscope::trainer {

void Trainer::resolveDevices()
{
    m_gpus = m_s.gpus;
    if (m_gpus.size() > 1) // core/training/training_launch.cpp starts one process per GPU
        throw DeviceConfigError("one trainer process trains on one GPU; start several GPUs through stackscope-cli "
                                "train --device gpu:0,1 (one process each) or a launcher such as torchrun");
    if (!m_gpus.empty()) {
        const int64_t visible = torch::cuda::is_available() ? static_cast<int64_t>(torch::cuda::device_count()) : 0;
        for (int g : m_gpus) {
            if (g < visible)
                continue;
            if (m_s.fallbackToCpu) {
                emit({{"event", "note"},
                      {"message", visible == 0 ? "no GPU is visible to libtorch (" + stackscope::trainer::whyNoGpu() + "): training on the CPU"
                                               : "GPU " + std::to_string(g) + " is not visible (libtorch sees " +
                                                     std::to_string(visible) + "): training on the CPU"}});
                m_gpus.clear();
                break;
            }
            throw DeviceConfigError(
                visible == 0
                    ? "--device gpu:" + std::to_string(g) + ": no GPU is visible: " + stackscope::trainer::whyNoGpu() + "; or use --device cpu"
                    : "--device gpu:" + std::to_string(g) + ": this libtorch sees " + std::to_string(visible) +
                          " GPU(s), numbered 0 to " + std::to_string(visible - 1) +
                          "; check HIP_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES and name one of those");
        }
    }
    if (m_gpus.empty())
        m_devices.emplace_back(torch::kCPU);
    for (int g : m_gpus)
        m_devices.emplace_back(torch::kCUDA, static_cast<c10::DeviceIndex>(g));

    if (m_s.bf16) {
        for (int g : m_gpus) {
            const auto props = stackscope::probe::gpuProperties(g);
            const std::string cc = props.value("compute_capability", std::string());
            if (!cc.empty() && cc < std::string("8.0"))
                throw DeviceConfigError("--precision bf16: GPU " + std::to_string(g) + " (" +
                                        props.value("name", std::string("?")) + ", compute capability " + cc +
                                        ") has no bf16 arithmetic; use --precision fp32");
        }
    }
}

// Small models on one GPU: the fused step kernel, many steps per launch (checked against autograd first).
// Returns null (with a note saying why) where it does not serve; otherwise sets the run's execution note.
std::unique_ptr<stackscope::trainer::FusedStep> Trainer::chooseFusedStep(std::string& executionNote)
{
    if (m_gpus.size() != 1 || m_dist) // several processes: the gradients go through c10d between backward and Adam
        return nullptr;
    std::string why;
    auto fused = stackscope::trainer::FusedStep::create(m_replicas[0], m_s, m_gpus.front(), why);
    if (fused) {
        char note[200];
        std::snprintf(note, sizeof note, "fused step kernel, up to %lld steps per launch (gradients equal "
                      "autograd's to %.2g)", static_cast<long long>(m_s.stepInterval), fused->mismatch());
        executionNote = note;
    }
    emit({{"event", "note"}, {"message", fused ? executionNote : why}});
    return fused;
}

nlohmann::json Trainer::deviceFigures() const
{
    if (m_gpus.empty())
        return nlohmann::json::object();
    const int g = m_gpus.front();
    const auto alloc = stackscope::trainer::allocatorFigures(g);
    nlohmann::json out = {{"device", g}};
    if (alloc.allocatedBytes >= 0) {
        out["allocated_bytes"] = alloc.allocatedBytes;
        out["reserved_bytes"] = alloc.reservedBytes;
    }
    const auto mem = stackscope::probe::gpuMemory(g);
    if (mem.contains("used_bytes")) {
        out["device_used_bytes"] = mem["used_bytes"];
        out["device_total_bytes"] = mem["total_bytes"];
    }
    return out;
}

// Copies the batch at `offset` of this epoch's permutation into the fixed index buffers (each device its shard).
void Trainer::selectBatch(int64_t offset)
{
    int64_t begin = 0;
    for (size_t d = 0; d < m_replicas.size(); ++d) {
        m_batchIdx[d].copy_(m_perm[d].narrow(0, offset + m_shardBegin + begin, m_shard[d]));
        begin += m_shard[d];
    }
}

// One optimiser step on the selected batch. Touches only buffers that live for the whole run, so the same
// calls can be captured as a CUDA graph and replayed.
void Trainer::stepOnSelectedBatch()
{
    if (m_buckets)
        m_buckets->beginStep("epoch " + std::to_string(m_epoch) + " step " + std::to_string(m_step + 1));
    for (auto& r : m_replicas)
        r.forwardBackward(m_s.bf16);
    allReduceGradients();
    for (auto& r : m_replicas)
        r.adamStep(m_s);
}

// Data parallel: every rank gets the global batch's mean gradient, the sum over ranks of each shard's mean
// gradient weighted by its share of the batch (exact for unequal shards too). The buckets' all-reduces started
// during backward; this waits for them. They give every rank the same bits, so clipping and Adam stay identical.
void Trainer::allReduceGradients()
{
    if (m_buckets)
        m_buckets->finishStep();
}

double Trainer::validate()
{
    return m_replicas[0].validationLoss(m_data.trainRows, m_data.rows - m_data.trainRows, m_s.bf16);
}

void Trainer::joinGroup()
{
    if (m_ds.worldSize < 1)
        return;
    m_dist = DistGroup::join(m_ds, m_devices.front());
    const int64_t batch = m_s.batchSize;
    const int w = worldSize(), r = rank();
    if (w > batch)
        throw DeviceConfigError("--batch-size " + std::to_string(batch) + " is smaller than the " + std::to_string(w) +
                                " processes; give every process at least one row of the batch");
    // Rank r takes batch / w rows (the first batch % w ranks one more), after the rows of the ranks before it.
    for (int k = 0; k < r; ++k)
        m_shardBegin += batch / w + (k < batch % w ? 1 : 0);
    m_shardWeight = static_cast<double>(batch / w + (r < batch % w ? 1 : 0)) / static_cast<double>(batch);
}

// Every rank starts from rank 0's weights, optimiser state and epoch counters (its checkpoint on --resume):
// only rank 0 needs the output folder, so ranks on other nodes need no shared disk.
void Trainer::shareRankZeroState(stackscope::trainer::TrainingState& state)
{
    if (!m_dist)
        return;
    torch::NoGradGuard noGrad;
    auto& r = m_replicas[0];
    m_dist->broadcast(r.flatParams, 0, "broadcast(initial parameters)");
    m_dist->broadcast(r.expAvg, 0, "broadcast(Adam first moments)");
    m_dist->broadcast(r.expAvgSq, 0, "broadcast(Adam second moments)");
    m_dist->broadcast(r.step, 0, "broadcast(Adam step count)");
    auto counters = torch::tensor({static_cast<double>(state.epoch), static_cast<double>(state.bestEpoch),
                                   state.bestValLoss, static_cast<double>(state.badEpochs)},
                                  torch::TensorOptions().dtype(torch::kDouble))
                        .to(r.device);
    m_dist->broadcast(counters, 0, "broadcast(epoch counters)");
    const auto c = counters.to(torch::kCPU);
    synced();
    state.epoch = static_cast<int>(c[0].item<double>());
    state.bestEpoch = static_cast<int>(c[1].item<double>());
    state.bestValLoss = c[2].item<double>();
    state.badEpochs = static_cast<int>(c[3].item<double>());
}

// The summed training loss since the last report, over the whole batch (each rank's shard weighted by its
// share), and whether any rank was asked to stop: the ranks stop together, after the same step.
// The summed loss of the interval over every rank, whether any rank was asked to stop, and (several processes) each
// rank's memory figures: one all-reduce of [loss, stop, then four slots a rank], each rank filling only its own
// slots (device, VRAM used, allocated, reserved; -1 where not known), so the sum hands every figure to rank 0.
double Trainer::intervalLoss(bool& stop, const nlohmann::json& figures, nlohmann::json& ranks)
{
    auto& r = m_replicas[0];
    const double local = r.lossSum.item<double>();
    r.lossSum.zero_();
    if (!m_dist) {
        stop = false;
        return local;
    }
    constexpr int kSlots = 4;
    const int w = worldSize();
    std::vector<double> values(static_cast<size_t>(2 + kSlots * w), 0.0);
    values[0] = local * m_shardWeight;
    values[1] = stopRequested() ? 1.0 : 0.0;
    double* own = values.data() + 2 + kSlots * rank();
    own[0] = figures.value("device", -1.0);
    own[1] = figures.value("device_used_bytes", -1.0);
    own[2] = figures.value("allocated_bytes", -1.0);
    own[3] = figures.value("reserved_bytes", -1.0);
    auto t = torch::tensor(values, torch::TensorOptions().dtype(torch::kDouble)).to(r.device);
    m_dist->allReduceSum(t, "all_reduce(loss, stop, memory) epoch " + std::to_string(m_epoch) + " step " +
                                std::to_string(m_step + 1));
    const auto c = t.to(torch::kCPU).contiguous();
    synced();
    const double* sums = c.data_ptr<double>();
    stop = sums[1] > 0;
    ranks = nlohmann::json::array();
    for (int k = 0; k < w; ++k) {
        const double* f = sums + 2 + kSlots * k;
        ranks.push_back({{"rank", k}, {"device", static_cast<int>(f[0])}, {"device_used_bytes", f[1]},
                         {"allocated_bytes", f[2]}, {"reserved_bytes", f[3]}});
    }
    return sums[0];
}

// Rank 0 validates; the others take its figure, so every rank makes the same best-epoch and early-stop choices.
double Trainer::agreedValidationLoss(int epoch)
{
    const double own = rank() == 0 ? validate() : 0.0;
    if (!m_dist)
        return own;
    auto t = torch::tensor({own}, torch::TensorOptions().dtype(torch::kDouble)).to(m_replicas[0].device);
    m_dist->broadcast(t, 0, "broadcast(validation loss) epoch " + std::to_string(epoch));
    const double agreed = t.to(torch::kCPU)[0].item<double>();
    synced();
    return agreed;
}

void Trainer::runRecorded(bool resume)
{
    try {
        run(resume);
    } catch (const std::exception& e) {
        if (m_dist) { // this rank's last collectives beside the run's outputs; the message says where
            std::string why;
            const std::string path = m_dist->recorder().writeJson(m_dir, std::string("error: ") + e.what(), why);
            std::fprintf(stderr, "rank %d of %d: flight recorder %s\n", rank(), worldSize(),
                         path.empty() ? ("not written: " + why).c_str() : ("written to " + path).c_str());
        }
        throw;
    }
}

void Trainer::run(bool resume)
{
    resolveDevices();
    joinGroup();
    checkBatchFitsData();
    if (m_dist)
        m_watch = std::make_unique<stackscope::trainer::FlightWatch>(
            m_dist->recorder(), m_dir, m_ds.timeout, [this] { return stopRequested(); },
            "rank " + std::to_string(rank()) + " of " + std::to_string(worldSize()) + " (" + m_dist->backendName() + ")");

    std::unique_ptr<stackscope::trainer::SideStream> stream;
    if (!m_gpus.empty() && m_gpus.size() == 1)
        stream = stackscope::trainer::useSideStream(m_gpus.front());
    buildReplicas();

    stackscope::trainer::TrainingState state;
    const std::string checkpoint = m_dir + "/checkpoint.pt";
    restoreState(resume, checkpoint, state);

    const nlohmann::json names = deviceNames();
    RunProgress p;
    chooseExecution(p);
    measureOneGpu(p);
    emitStarted(names, state);

    for (int epoch = state.epoch + 1; epoch <= m_s.epochs && !p.stopped; ++epoch) {
        startEpoch(epoch);
        const auto epochStart = Clock::now();
        const double epochLoss = trainEpoch(epoch, epochStart, p);
        if (p.stopped)
            break;
        const double trainTime = seconds(epochStart, Clock::now());
        p.trainSeconds += trainTime;
        if (endEpoch(epoch, trainTime, epochLoss, checkpoint, state))
            break;
    }
    if (stream)
        stream->synchronize();
    endGroup(p);
    emitFinished(state, p);
}

// No rank leaves while another still waits on it; then the graph (whose NCCL kernels use the communicators) goes,
// and the process group is shut down (Python's destroy_process_group(): without it PyTorch warns at exit).
void Trainer::endGroup(RunProgress& p)
{
    if (!m_dist)
        return;
    m_dist->barrier("barrier(end of run)");
    synced();
    p.graph.reset();
    m_watch.reset();
    m_dist->shutdown();
}

void Trainer::checkBatchFitsData() const
{
    const int64_t batch = m_s.batchSize;
    if (batch > m_data.trainRows)
        throw DeviceConfigError("--batch-size " + std::to_string(batch) + " is larger than the " +
                                std::to_string(m_data.trainRows) +
                                " training rows; use a smaller batch or more data");
}

// One replica on this process's device, with its index buffer and (data parallel) its gradient buckets.
void Trainer::buildReplicas()
{
    const int64_t batch = m_s.batchSize;
    // Same initial weights everywhere: the model is built once on the CPU from the seed, then copied.
    torch::manual_seed(m_s.seed);
    auto x = torch::from_blob(const_cast<float*>(m_data.features), {m_data.rows, m_data.cols}, torch::kFloat);
    auto y = torch::from_blob(const_cast<float*>(m_data.targets), {m_data.rows}, torch::kFloat);
    auto prototype = stackscope::trainer::buildModel(m_data.cols, m_s.hidden, m_s.dropout);
    // This process takes its rank's shard of the batch (joinGroup) through a fixed index buffer.
    const int w = worldSize(), rk = rank();
    for (const auto& device : m_devices) {
        m_replicas.emplace_back(prototype, device, x, y);
        m_shard.push_back(batch / w + (rk < batch % w ? 1 : 0));
        m_batchIdx.push_back(torch::zeros({m_shard.back()}, torch::TensorOptions().dtype(torch::kLong).device(device)));
        m_replicas.back().bindBatch(m_batchIdx.back());
    }

    if (m_dist)
        m_buckets = std::make_unique<stackscope::trainer::GradientBuckets>(
            m_replicas[0], *m_dist, m_shardWeight, m_ds.bucketBytes);
}

// Rank 0 loads its checkpoint on --resume; every rank then starts from rank 0's state (shareRankZeroState).
void Trainer::restoreState(bool resume, const std::string& checkpoint, stackscope::trainer::TrainingState& state)
{
    if (resume && rank() == 0) {
        state = stackscope::trainer::loadCheckpoint(checkpoint, m_replicas);
        emit({{"event", "note"},
              {"message", "resumed from " + checkpoint + " after epoch " + std::to_string(state.epoch)}});
    }
    shareRankZeroState(state);
}

nlohmann::json Trainer::deviceNames() const
{
    nlohmann::json names = nlohmann::json::array();
    for (const auto& d : m_devices)
        names.push_back(d.is_cpu() ? std::string("CPU") : stackscope::probe::gpuName(d.index()));
    return names;
}

// How a step runs: the fused kernel, a CUDA graph captured after the warm-up (eagerStep), or eagerly;
// p.graphNote says which, or why not.
void Trainer::chooseExecution(RunProgress& p)
{
    p.fused = chooseFusedStep(p.graphNote);
    // Several processes: NCCL's collectives are captured with the step (c10d's ProcessGroupNCCL supports capture);
    // Gloo's run on the host and cannot be.
    const bool capturable = !m_dist || m_dist->backendName() == "nccl";
    p.tryGraphs = m_s.cudaGraphs && m_gpus.size() == 1 && !m_s.bf16 && capturable && !p.fused;
    if (p.fused) {
        // chooseFusedStep wrote graphNote
    } else if (!m_s.cudaGraphs)
        p.graphNote = "CUDA graphs off (--no-cuda-graphs)";
    else if (m_gpus.empty())
        p.graphNote = "eager (CPU)";
    else if (!capturable)
        p.graphNote = "eager (" + m_dist->backendName() + " collectives run on the host and cannot be captured in a CUDA "
                      "graph)";
    else if (m_s.bf16)
        p.graphNote = "eager (bf16 autocast is not graphed)";
}

void Trainer::emitStarted(const nlohmann::json& names, const stackscope::trainer::TrainingState& state)
{
    emit({{"event", "started"},
          {"devices", names},
          {"libtorch", TORCH_VERSION},
          {"steps_per_epoch", stepsPerEpoch()},
          {"parameters", m_replicas[0].flatParams.numel()},
          {"first_epoch", state.epoch + 1},
          {"world_size", worldSize()},
          {"dist_backend", m_dist ? m_dist->backendName() : std::string("none")}});
}

void Trainer::startEpoch(int epoch)
{
    m_epoch = epoch;
    // The permutation depends only on (seed, epoch): a resumed run draws the same batches.
    torch::manual_seed(m_s.seed + static_cast<uint64_t>(epoch) * 1000003ULL);
    auto perm = torch::randperm(m_data.trainRows, torch::TensorOptions().dtype(torch::kLong).device(m_devices[0]));
    m_perm.clear();
    for (const auto& d : m_devices)
        m_perm.push_back(perm.to(d));
    for (auto& r : m_replicas)
        r.lossSum.zero_();
}

// The epoch's steps, with a progress report every stepInterval steps and at the end; returns the summed
// training loss. Sets p.stopped (and returns early) where the run is asked to stop.
double Trainer::trainEpoch(int epoch, Clock::time_point epochStart, RunProgress& p)
{
    auto intervalStart = epochStart;
    double epochLoss = 0;
    int64_t sinceReport = 0;
    for (int64_t step = 0; step < stepsPerEpoch(); ++step) {
        m_step = step;
        if (!m_dist && stopRequested()) { // several processes agree on stopping at the loss report below
            p.stopped = true;
            break;
        }
        const int64_t chunk = runSteps(step, sinceReport, epochStart, p);
        step += chunk - 1;
        p.totalSteps += chunk;
        sinceReport += chunk;
        if (sinceReport == m_s.stepInterval || step + 1 == stepsPerEpoch()) {
            const auto before = intervalStart;
            const bool stopNow = reportInterval(epoch, step, sinceReport, epochStart, intervalStart, epochLoss);
            compareWithOneGpu(p, sinceReport, seconds(before, intervalStart));
            sinceReport = 0;
            if (stopNow) {
                p.stopped = true;
                break;
            }
        }
    }
    return epochLoss;
}

// Runs the epoch's step `step` (with the fused kernel: the steps up to the next report); returns how many ran.
int64_t Trainer::runSteps(int64_t step, int64_t sinceReport, Clock::time_point epochStart, RunProgress& p)
{
    const int64_t batch = m_s.batchSize;
    int64_t chunk = 1;
    if (p.fused) {
        // Steps up to the next progress report (or the epoch's end) in one launch.
        chunk = std::min<int64_t>(m_s.stepInterval - sinceReport, stepsPerEpoch() - step);
        p.fused->run(m_perm[0], step * batch, static_cast<int>(chunk));
    } else if (selectBatch(step * batch); p.graph) {
        if (m_dist) // the replay's all-reduces, as one entry of the flight recorder
            m_dist->recorder().enqueue("graph_replay",
                                       "step graph (" + std::to_string(m_buckets->bucketCount()) + " all_reduce) epoch " +
                                           std::to_string(m_epoch) + " step " + std::to_string(step + 1),
                                       p.graphBytes);
        p.graph->replay();
    } else {
        eagerStep(epochStart, p);
    }
    return chunk;
}

void Trainer::eagerStep(Clock::time_point epochStart, RunProgress& p)
{
    stepOnSelectedBatch();
    // Warm up eagerly (three real steps, on the side stream: NCCL's communicators are made in the first), then
    // capture the step once for the whole run.
    if (p.tryGraphs && p.graphNote.empty() && ++p.stepsSinceGraphTry == 3)
        captureGraph(epochStart, p);
}

// Captures the step; with several processes its bucketed NCCL all-reduces are captured with it, and every rank
// replays the graph or none does (a rank whose capture failed would otherwise pair its eager collectives with
// the others' graphs in another order).
void Trainer::captureGraph(Clock::time_point epochStart, RunProgress& p)
{
    std::string why;
    if (m_dist)
        m_dist->recorder().setCapturing(true);
    p.graph = stackscope::trainer::captureStep(m_gpus.front(), [this] { stepOnSelectedBatch(); }, why,
                                               m_dist != nullptr);
    if (m_dist) {
        m_dist->recorder().setCapturing(false);
        auto failed = torch::tensor({p.graph ? 0.0 : 1.0}, torch::TensorOptions().dtype(torch::kDouble)).to(m_devices[0]);
        m_dist->allReduceSum(failed, "all_reduce(graph capture agreement)");
        const double ranksFailed = failed.to(torch::kCPU).item<double>();
        synced();
        if (ranksFailed > 0 && p.graph) {
            p.graph.reset();
            why = "eager: the CUDA graph capture failed on " + std::to_string(static_cast<int>(ranksFailed)) +
                  " other rank(s) (their messages say why), so no rank replays one";
        }
        if (p.graph)
            p.graphBytes = m_replicas[0].flatGrads.numel() * 4;
    }
    if (p.graph) {
        p.setupSeconds = seconds(epochStart, Clock::now());
        p.setupSteps = p.totalSteps + 1;
    }
    p.graphNote = !p.graph ? why
        : m_dist ? "CUDA graph of the whole step, its " + std::to_string(m_buckets->bucketCount()) + " " +
                       m_dist->backendName() + " all-reduce(s) of the gradients included"
                 : std::string("CUDA graph of the whole step");
    emit({{"event", "note"}, {"message", p.graphNote}});
}

// Rank 0 times the fused step on its GPU before training, where it serves this model.
void Trainer::measureOneGpu(RunProgress& p)
{
    if (!m_dist || m_gpus.size() != 1 || rank() != 0)
        return;
    std::string why;
    p.oneGpuStepsPerS = stackscope::trainer::fusedStepsPerSecond(m_replicas[0], m_s, m_gpus.front(),
                                                                 m_data.trainRows, why);
    // Only a model the fused step takes, on a build or GPU where it could not be timed, leaves the question open; a
    // model it does not take (large, bf16, dropout) is not one a single GPU's fused step competes for.
    if (p.oneGpuStepsPerS <= 0 && stackscope::trainer::fusedStepSuitsModel(m_s, m_replicas[0].x.size(1)))
        p.oneGpuNotTimed = why.empty() ? std::string("the timing gave no figure") : why;
}

// After the ranks' first steps (the second report: the first holds the warm-up and the capture): says, with both
// figures, whether one GPU with the fused step would be faster, or that one GPU could not be timed (and why). Rank 0
// only (it measured one GPU).
void Trainer::compareWithOneGpu(RunProgress& p, int64_t steps, double secondsTaken)
{
    if ((p.oneGpuStepsPerS <= 0 && p.oneGpuNotTimed.empty()) || ++p.reports != 2 || secondsTaken <= 0)
        return;
    if (p.oneGpuStepsPerS <= 0) {
        emit(stackscope::trainer::oneGpuNotComparedNote(worldSize(), static_cast<double>(steps) / secondsTaken,
                                                        p.oneGpuNotTimed));
        return;
    }
    emit(stackscope::trainer::deviceAdviceNote(worldSize(), static_cast<double>(steps) / secondsTaken,
                                               p.oneGpuStepsPerS, m_gpus.front()));
}

// A host synchronisation that orders after every collective issued so far: the flight recorder marks them done.
void Trainer::synced() const
{
    if (m_dist)
        m_dist->recorder().completeAll();
}

// The report after `sinceReport` steps. The only host synchronisation in the loop: reading the summed loss
// (over every rank), which it adds to epochLoss. Returns whether any rank was asked to stop.
bool Trainer::reportInterval(int epoch, int64_t step, int64_t sinceReport, Clock::time_point epochStart,
                             Clock::time_point& intervalStart, double& epochLoss)
{
    const int64_t batch = m_s.batchSize;
    bool stopNow = false;
    const nlohmann::json figures = deviceFigures(); // this rank's: in the event (rank 0) and in the all-reduce
    nlohmann::json ranks;
    const double sum = intervalLoss(stopNow, figures, ranks);
    epochLoss += sum;
    const auto now = Clock::now();
    const double dt = seconds(intervalStart, now);
    nlohmann::json e = {{"event", "step"},
                        {"epoch", epoch},
                        {"step", step + 1},
                        {"steps_per_epoch", stepsPerEpoch()},
                        {"loss", sum / static_cast<double>(sinceReport)},
                        {"samples_per_s", dt > 0 ? static_cast<double>(sinceReport * batch) / dt : 0.0},
                        {"elapsed_s", seconds(epochStart, now)}};
    e.update(figures);
    if (!ranks.empty())
        e["ranks"] = std::move(ranks);
    emit(std::move(e));
    intervalStart = now; // intervals tile the epoch: reporting time counts too, as in the epoch figure
    return stopNow;
}

// Validation, the best-epoch and early-stop bookkeeping, the files and the epoch event; returns whether the
// run stops early.
bool Trainer::endEpoch(int epoch, double trainTime, double epochLoss, const std::string& checkpoint,
                       stackscope::trainer::TrainingState& state)
{
    const int64_t batch = m_s.batchSize;
    const double valLoss = agreedValidationLoss(epoch);
    const double trainLoss = epochLoss / static_cast<double>(stepsPerEpoch());
    const bool improved = state.bestEpoch == 0 || valLoss < state.bestValLoss;
    // model.pt, checkpoint.pt and model_metadata.json are one set: both files are written to temporary
    // files first (a full disk fails here, before anything is replaced), the epoch event then has the
    // caller rewrite model_metadata.json, and only then are the two renamed over the old ones.
    stackscope::StagedOutputs files(stackscope::OutputStreams::Refuse);
    if (improved) {
        state.bestEpoch = epoch;
        state.bestValLoss = valLoss;
        state.badEpochs = 0;
        if (rank() == 0) { // the files are rank 0's
            state.bestParams = m_replicas[0].flatParams.detach().to(torch::kCPU).clone();
            stackscope::trainer::saveStateDict(files, m_dir + "/model.pt", m_replicas[0], state.bestParams);
        }
    } else {
        ++state.badEpochs;
    }
    state.epoch = epoch;
    std::string checkpointSha256;
    if (rank() == 0)
        checkpointSha256 = stackscope::trainer::saveCheckpoint(files, checkpoint, m_replicas[0], state);
    const bool early = m_s.patience > 0 && state.badEpochs >= m_s.patience;
    emit({{"event", "epoch"},
          {"epoch", epoch},
          {"train_loss", trainLoss},
          {"val_loss", valLoss},
          {"samples_per_s", trainTime > 0 ? static_cast<double>(stepsPerEpoch() * batch) / trainTime : 0.0},
          {"seconds", trainTime},
          {"best_epoch", state.bestEpoch},
          {"best_val_loss", state.bestValLoss},
          {"improved", improved},
          {"early_stop", early},
          {"checkpoint_sha256", checkpointSha256}});
    files.commit();
    return early;
}

void Trainer::emitFinished(const stackscope::trainer::TrainingState& state, const RunProgress& p)
{
    emit({{"event", "finished"},
          {"status", p.stopped ? "stopped" : (state.epoch < m_s.epochs ? "early_stopped" : "finished")},
          {"epochs_done", state.epoch},
          {"steps", p.totalSteps},
          {"train_seconds", std::max(0.0, p.trainSeconds - p.setupSeconds)},
          {"setup_seconds", p.setupSeconds},
          {"steps_per_s", p.trainSeconds > p.setupSeconds
                              ? static_cast<double>(p.totalSteps - p.setupSteps) / (p.trainSeconds - p.setupSeconds)
                              : 0.0},
          {"best_epoch", state.bestEpoch},
          {"best_val_loss", state.bestValLoss},
          {"execution", p.graphNote.empty() ? "eager" : p.graphNote},
          {"world_size", worldSize()},
          {"dist_backend", m_dist ? m_dist->backendName() : std::string("none")}});
}

} // namespace stackscope::trainer

using stackscope::trainer::DeviceConfigError;
using stackscope::trainer::HostFailed;
using stackscope::trainer::Trainer;

extern "C" int stackscope_torch_train_abi(void)
{
    return STACKSCOPE_TORCH_TRAIN_ABI;
}

extern "C" int stackscope_torch_train(const char* configJson, const StackscopeTrainData* data, const char* outputDir,
                                      int resume, StackscopeTrainEventFn onEvent, StackscopeTrainStopFn stopRequested,
                                      void* user,
                                      char* error, size_t errorLen)
{
    try {
        const auto settings = stackscope::trainer::parseSettings(configJson);
        const auto dist = stackscope::trainer::parseDistSettings(configJson);
        Trainer trainer(settings, dist, *data, outputDir, onEvent, stopRequested, user);
        trainer.runRecorded(resume != 0);
        return 0;
    } catch (const DeviceConfigError& e) {
        setError(error, errorLen, e.what());
        return 2;
    } catch (const stackscope::FileWriteError& e) { // a full disk, an unwritable folder: the message names it
        setError(error, errorLen, e.what());
        return 2;
    } catch (const stackscope::trainer::DistConfigError& e) { // a backend this build lacks: bad configuration
        setError(error, errorLen, e.what());
        return 2;
    } catch (const stackscope::trainer::CollectiveError& e) { // names the rank and the collective
        setError(error, errorLen, e.what());
        return 3;
    } catch (const HostFailed&) { // the host keeps its own error
        setError(error, errorLen, "the program using the trainer could not handle an event (its error says why)");
        return STACKSCOPE_TORCH_TRAIN_HOST_FAILED;
    } catch (const c10::Error& e) {
        // The message without libtorch's C++ frames; the whole text goes to a details file beside the run's outputs.
        const std::string details = (std::filesystem::path(outputDir) / "libtorch-error.txt").string();
        bool written = false;
        if (std::FILE* f = std::fopen(details.c_str(), "w")) {
            written = std::fputs(e.what(), f) >= 0;
            written = std::fclose(f) == 0 && written;
        }
        setError(error, errorLen, std::string("training failed in libtorch: ") + e.what_without_backtrace()
                                      + (written ? " (libtorch's full trace: " + details + ")" : std::string()));
        return -1;
    } catch (const std::exception& e) {
        setError(error, errorLen, std::string("training failed in libtorch: ") + e.what());
        return -1;
    }
}

extern "C" int stackscope_torch_predict(const char* configJson, const char* modelPath, const float* features,
                                        int64_t rows, int64_t cols, float* out, char* error, size_t errorLen)
{
    try {
        const auto s = stackscope::trainer::parseSettings(configJson);
        auto model = stackscope::trainer::buildModel(cols, s.hidden, s.dropout);
        stackscope::trainer::loadStateDict(modelPath, model);
        model->eval();
        torch::NoGradGuard noGrad;
        auto x = torch::from_blob(const_cast<float*>(features), {rows, cols}, torch::kFloat);
        auto y = model->forward(x).reshape({rows}).contiguous();
        std::memcpy(out, y.data_ptr<float>(), static_cast<size_t>(rows) * sizeof(float));
        return 0;
    } catch (const std::exception& e) {
        setError(error, errorLen, std::string("prediction failed: ") + e.what());
        return -1;
    }
}

extern "C" int stackscope_torch_save_dataset(const StackscopeTrainData* data, const char* path, char* error,
                                             size_t errorLen)
{
    try {
        auto x = torch::from_blob(const_cast<float*>(data->features), {data->rows, data->cols}, torch::kFloat);
        auto y = torch::from_blob(const_cast<float*>(data->targets), {data->rows}, torch::kFloat);
        stackscope::writeFileAtomically(
            path, stackscope::trainer::torchSaveBytes({{"x", x}, {"y", y}, {"train_rows", torch::tensor(data->trainRows)}}));
        return 0;
    } catch (const std::exception& e) {
        setError(error, errorLen, std::string("cannot save the dataset: ") + e.what());
        return -1;
    }
}
