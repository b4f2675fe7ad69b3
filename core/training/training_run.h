// A training run end to end: features from the data, the libtorch module's trainer, model_metadata.json.
#pragma once

#include "core/training/features.h"
#include "core/training/training_config.h"
#include "core/util/cancel_token.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stackscope::training {

struct EpochMetrics {
    int epoch = 0;
    double trainLoss = 0;
    double valLoss = 0;
    double samplesPerS = 0;
    double seconds = 0;
};

// One rank's memory at a report point of a run over several processes; -1 where not known (a CPU rank).
struct RankMemory {
    int rank = 0;
    int device = -1; // the rank's GPU
    double deviceUsedBytes = -1;
    double allocatedBytes = -1;
    double reservedBytes = -1;
};

// In a run over several GPU processes, the trainer's comparison of the ranks' steps/s (its first steps) with one GPU
// running the fused step kernel (rank 0's GPU, timed before training in the same run). The module's note event and
// model_metadata.json's "device_advice" carry it as fields; the CLI prints `message`, the Training page the figures.
struct DeviceAdvice {
    enum class Kind { FewerGpusFaster, SeveralGpusFaster };
    Kind kind = Kind::FewerGpusFaster;
    int processes = 0;
    double ranksStepsPerS = 0;
    double oneGpuStepsPerS = 0;
    int gpu = -1;                // the GPU one GPU was timed on
    std::string suggestedDevice; // FewerGpusFaster: the --device to train on instead ("gpu:0"); else empty
    std::string message;         // the trainer's sentence
};
// The names of DeviceAdvice::Kind in the event and the metadata ("fewer_gpus_faster", "several_gpus_faster").
const char* deviceAdviceKindName(DeviceAdvice::Kind kind);
// The advice an event or a record carries; none when `j` is no advice (another note) or lacks a figure: a record of
// another build never makes the reader throw.
std::optional<DeviceAdvice> deviceAdviceFromJson(const nlohmann::json& j);
// model_metadata.json's "device_advice": the event's fields without "event".
nlohmann::json toJson(const DeviceAdvice& advice);

// One report from the run, delivered on the run's thread.
struct TrainingProgress {
    enum class Kind { Started, Note, Step, Epoch, Finished };
    Kind kind = Kind::Step;
    int epoch = 0;
    int epochs = 0;
    int64_t step = 0;
    int64_t stepsPerEpoch = 0;
    double loss = 0;    // mean training loss over the last interval (Step) or the epoch (Epoch)
    double valLoss = 0; // Epoch
    double samplesPerS = 0;
    double allocatedBytes = -1; // libtorch caching allocator; -1 where not known
    double reservedBytes = -1;
    double deviceUsedBytes = -1; // the whole device, from the vendor runtime
    double deviceTotalBytes = -1;
    double elapsedS = 0; // since the run started
    double etaS = -1;
    std::string message; // Note; Started: the devices
    std::optional<DeviceAdvice> deviceAdvice; // Note: the trainer's figures, one GPU against the ranks
    int firstEpoch = 1;  // Started: 1, or the epoch a resumed run starts at
    int device = -1;     // Step: the GPU the memory figures are of; -1: the CPU or not known
    std::vector<RankMemory> ranks; // Step, several processes: every rank's figures (rank 0's are those above too)
    double seconds = 0;  // Epoch: the epoch's wall time
    int bestEpoch = 0;   // Epoch and Finished: the best so far
    bool improved = false; // Epoch: this epoch is the new best
    std::string execution; // Finished: "CUDA graph of the whole step", "eager (CPU)", ...
    nlohmann::json raw;  // the event as the module sent it (train-rank relays it to its launcher unchanged)
};
using TrainingProgressCallback = std::function<void(const TrainingProgress&)>;

// How a run ended. The names are those of the module's finished event and model_metadata.json's "status".
// Running is model_metadata.json's status while the run goes on: no run ends with it.
enum class TrainingStatus { Finished, EarlyStopped, Stopped, Failed, Running };
const char* trainingStatusName(TrainingStatus s);
// The status of the module's finished event. Throws std::runtime_error naming the value for one the module never
// sends (Running included).
TrainingStatus trainingStatusFromName(const std::string& name);

struct TrainingResult {
    TrainingStatus status = TrainingStatus::Finished;
    std::string outputDir;
    std::vector<EpochMetrics> epochs;
    int bestEpoch = 0;
    double bestValLoss = 0;
    double stepsPerS = 0;
    std::string execution; // "CUDA graph of the whole step", "eager (CPU)"...
    std::vector<std::string> notes;
    std::optional<DeviceAdvice> deviceAdvice; // several GPU processes: one GPU against the ranks, when measured
    nlohmann::json metadata; // what model_metadata.json holds
};

// Model and data errors that are the input's fault (exit 2, nothing written).
// The rest (module missing, libtorch failure) is std::runtime_error.

// Validates, builds the features, trains and writes the output folder. Throws ConfigError,
// vpoc::InputError, std::runtime_error. `cancel` stops within one step, keeping the last epoch's files.
std::shared_ptr<const TrainingResult> runTraining(const TrainingConfig& config,
                                                  const TrainingProgressCallback& progress = {},
                                                  const CancelToken& cancel = {});

// The same on features already built (unnormalised, in time order): tests, and callers with their own data.
std::shared_ptr<const TrainingResult> trainOnDataset(const TrainingConfig& config, Dataset data,
                                                     const TrainingProgressCallback& progress = {},
                                                     const CancelToken& cancel = {});

// The torch module's trainer entry points, loaded on demand; throws std::runtime_error saying how to get
// a module (build with libtorch) when there is none.
struct TrainerModule;
const TrainerModule& trainerModule();

// Writes a normalised dataset (datasetFor) as a torch pickle Python's torch.load reads (the benchmark's
// eager baseline trains on it). Predictions of a saved model.pt on `rows` rows from `firstRow`.
void saveDatasetForPython(const Dataset& data, int64_t trainRows, const std::string& path);
std::vector<float> predictRows(const TrainingConfig& config, const std::string& modelPath, const Dataset& data,
                               int64_t firstRow, int64_t rows);
// The features of `config` normalised with the statistics of model_metadata.json's "features".
Dataset datasetFor(const TrainingConfig& config, int64_t* trainRows);

} // namespace stackscope::training
