// What a training run is asked to do: the model, the optimiser, the device, the data and the output.
#pragma once

#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace stackscope::training {

// A configuration that cannot run: the message says which option and what to write instead.
class ConfigError : public Error {
public:
    explicit ConfigError(const std::string& what)
        : Error(what, ErrorKind::Input)
    {
    }
    // The option the message starts with, as the CLI spells it ("--lr" of "--lr 0: use ..."); empty when it names
    // none (a rank's environment, a saved run). The GUI turns it into the field to correct.
    std::string option() const;
};

// The c10d backend between processes: Auto is NCCL (RCCL on ROCm) on GPUs and Gloo on the CPU.
enum class DistBackend { Auto, Nccl, Gloo };
// Every backend with the name the CLI, the form and the run's JSON use, in the order the form offers them.
inline constexpr std::pair<DistBackend, const char*> kDistBackends[] = {
    {DistBackend::Auto, "auto"}, {DistBackend::Nccl, "nccl"}, {DistBackend::Gloo, "gloo"}};
const char* distBackendName(DistBackend backend);
// "auto", "nccl" or "gloo"; anything else is a ConfigError naming `option` and the choices.
DistBackend parseDistBackend(const std::string& text, const char* option = "--dist-backend");

// Where a run trains, as --device names it: auto (the first GPU libtorch sees, else the CPU), the CPU, or GPUs by
// index (one process per GPU when there are several). Parsed once from text (parseDevices) where the configuration
// comes in: the CLI, the form, a rank's JSON; everything after reads the typed value.
struct DeviceSelection {
    enum class Kind { Auto, Cpu, Gpus };
    Kind kind = Kind::Auto;
    std::vector<int> gpus; // Gpus: at least one index, each once, in the order given; empty otherwise

    static DeviceSelection cpu() { return {Kind::Cpu, {}}; }
    static DeviceSelection onGpus(std::vector<int> indices) { return {Kind::Gpus, std::move(indices)}; }
    bool isAuto() const { return kind == Kind::Auto; }
    // "auto", "cpu" or "gpu:N,M": what --device takes, the run's JSON and the form's list hold.
    std::string toString() const;
    bool operator==(const DeviceSelection& o) const { return kind == o.kind && gpus == o.gpus; }
    bool operator!=(const DeviceSelection& o) const { return !(*this == o); }
};

struct TrainingConfig {
    std::string input;  // market data CSV (bars), as `vpoc` reads it
    std::string output; // folder for model.pt, checkpoint.pt, model_metadata.json

    // Features and target
    int horizon = 5;                           // forward return over this many bars, in ticks
    std::vector<int> returnHorizons {1, 5, 15}; // past returns, in bars
    int volumeWindow = 30;                     // bars in the volume z-score
    std::string session = "globex";
    std::string timeZone = "America/New_York"; // of naive timestamps and of the session rule
    std::string tick = "0.25";
    double validationFraction = 0.2; // the last part by time

    // Model and optimiser
    std::vector<int> hidden {32, 16};
    double dropout = 0.0;
    double learningRate = 1e-3;
    int epochs = 10;
    int batchSize = 256;
    uint64_t seed = 42;
    double clipNorm = 1.0; // 0 = no clipping
    int patience = 5;      // epochs without a better validation loss; 0 = never stop early

    // Where and how
    DeviceSelection device;          // auto | cpu | gpu:N | gpu:N,M,...
    std::string precision = "fp32"; // fp32 | bf16
    bool cudaGraphs = true;          // capture the training step as a CUDA graph where possible
    bool fusedStep = true;           // small models on one GPU: the fused step kernel (core/torch/fused_mlp.h)
    int stepInterval = 50;           // steps between progress reports (and host syncs)
    bool resume = false;
    bool deviceFallback = false; // a GPU asked for by an alias (--device_ids) may fall back to the CPU
    int processes = 0;               // ranks to start here (--nproc); 0: one per GPU of --device
    DistBackend distBackend = DistBackend::Auto; // the c10d backend between processes
    double distTimeoutS = 300;        // the longest any collective may wait for the other ranks
    double distBucketMb = 4;          // gradient bucket size: all-reduce overlapped with backward per bucket

    std::vector<std::string> notes; // what the seed's aliases were mapped to, fallbacks taken
};

// "auto", "cpu", "gpu:N" or "gpu:N,M,..." ("cuda:" is read as "gpu:"); anything else is a ConfigError naming
// `option` and what to write.
DeviceSelection parseDevices(const std::string& text, const char* option = "--device");
// Parses "32,16"; throws ConfigError on a zero, a negative or a non-number.
std::vector<int> parseLayerList(const std::string& text, const char* option);

// Checks every option; throws ConfigError naming the option and the accepted values.
void validate(const TrainingConfig& config);

// The options that shape the model and the optimiser (what the torch module reads), and the full
// configuration for model_metadata.json.
nlohmann::json moduleConfigJson(const TrainingConfig& config, const std::vector<int>& gpus);
nlohmann::json toJson(const TrainingConfig& config);
// The inverse of toJson (what a launched rank reads); throws ConfigError on a missing or mistyped key.
TrainingConfig configFromJson(const nlohmann::json& j);

// The options that must match for --resume to continue a run (everything but epochs, patience and
// the output folder). Returns the first difference as "option: old -> new", or empty.
std::string resumeMismatch(const nlohmann::json& saved, const TrainingConfig& config);

} // namespace stackscope::training
