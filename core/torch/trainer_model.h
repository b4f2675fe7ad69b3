// The trainer's model, replicas with flat parameter/gradient buffers, the Adam step, and its files.
#pragma once

#include "core/torch/trainer_linear.h"
#include "core/util/atomic_file.h"

#include <torch/torch.h>

#include <string>
#include <vector>

namespace stackscope::trainer {

struct TrainSettings {
    std::vector<int64_t> hidden;
    double dropout = 0;
    double learningRate = 1e-3;
    int epochs = 1;
    int64_t batchSize = 256;
    uint64_t seed = 42;
    double clipNorm = 1.0;
    int patience = 0;
    std::vector<int> gpus; // empty: the CPU
    bool fallbackToCpu = false;
    bool bf16 = false;
    bool cudaGraphs = true;
    bool fusedStep = true;
    int64_t stepInterval = 50;
};
// Reads the JSON of core/training/training_config.h's moduleConfigJson; throws std::runtime_error.
TrainSettings parseSettings(const char* json);

// Linear -> LayerNorm -> SiLU (-> Dropout) per hidden layer, then Linear to one output. The parameter
// names ("0.weight", "1.bias", ...) are those of the same torch.nn.Sequential in Python.
torch::nn::Sequential buildModel(int64_t inputs, const std::vector<int64_t>& hidden, double dropout);

// One copy of the model on one device, its parameters and gradients views into two flat buffers so the
// optimiser, clipping and the all-reduce are a few whole-buffer operations (and graph-capturable).
struct Replica {
    Replica(const torch::nn::Sequential& prototype, const torch::Device& device, const torch::Tensor& x,
            const torch::Tensor& y);
    void bindBatch(const torch::Tensor& indices) { batchIdx = indices; }
    // Zeroes the gradients, forward and backward on the bound batch; adds the loss to lossSum (on the device).
    void forwardBackward(bool bf16);
    // Clip by global norm, then Adam (PyTorch's formula, bias corrections from a step count on the device).
    void adamStep(const struct TrainSettings& s);
    double validationLoss(int64_t begin, int64_t count, bool bf16);

    torch::Device device;
    torch::nn::Sequential model;
    torch::Tensor x, y; // the whole dataset, uploaded once
    torch::Tensor batchIdx;
    torch::Tensor flatParams, flatGrads, expAvg, expAvgSq, step, lossSum;
    // Data parallel (trainer_buckets.h): takes the Linear layers' gradients during backward, and writes every
    // slice of flatGrads each step, so the step does not zero them first. Not used under bf16 autocast.
    LinearGradSink* gradSink = nullptr;
};

struct TrainingState {
    int epoch = 0; // last finished epoch
    int bestEpoch = 0;
    double bestValLoss = 0;
    int badEpochs = 0;
    torch::Tensor bestParams; // flat, on the CPU
};

// Stages the file in `set` (written to a temporary file, renamed when the set is committed).
// Stages checkpoint.pt in `set`; returns the SHA-256 (hex) of the staged bytes, which the epoch event carries so
// that readers can tell which epoch the file holds (core/training/training_folder.h).
std::string saveCheckpoint(stackscope::StagedOutputs& set, const std::string& path, const Replica& r,
                           const TrainingState& s);
// Restores every replica's parameters and optimiser state; throws with what to do when the file does not fit.
TrainingState loadCheckpoint(const std::string& path, std::vector<Replica>& replicas);
// model.pt: a state dict Python's torch.load reads (weights_only), from flat parameters laid out as in `layout`.
void saveStateDict(stackscope::StagedOutputs& set, const std::string& path, const Replica& layout,
                   const torch::Tensor& flat);
void loadStateDict(const std::string& path, torch::nn::Sequential& model);

} // namespace stackscope::trainer
