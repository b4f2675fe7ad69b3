// model_metadata.json ("stackscope.training/1"): configuration, features and their normalisation, the data
// file's hash, versions, devices and per-epoch metrics, rewritten atomically after every epoch.
#pragma once

#include "core/training/features.h"
#include "core/training/training_config.h"
#include "core/training/training_run.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace stackscope::training {

inline constexpr const char* kTrainingSchema = "stackscope.training/1";

class TrainingMetadata {
public:
    TrainingMetadata(std::string path, const TrainingConfig& config, const Dataset& data, const Normalisation& norm,
                     int64_t trainRows, const nlohmann::json& torchFacts);

    // A resumed run keeps the epochs the checkpoint had finished.
    void continueFrom(const nlohmann::json& saved);
    void started(const nlohmann::json& event);
    void note(const std::string& message);
    // "device_advice": the trainer's figures, one GPU against the ranks (written with the next epoch).
    void deviceAdvice(const DeviceAdvice& advice);
    void epochDone(const nlohmann::json& event);
    void finished(const nlohmann::json& event);
    void failed(const std::string& message);

    const nlohmann::json& json() const { return m_json; }

private:
    void write() const;
    std::string m_path;
    nlohmann::json m_json;
};

// Reads a model_metadata.json; throws ConfigError saying what is wrong with it.
nlohmann::json readMetadata(const std::string& path);

// What a page shows of a recorded run (model_metadata.json, a report's "training"): the epochs and the best one, the
// status and devices it names, its options when they can be read, and the trainer's one-GPU advice when recorded. What it does not say stays unknown.
struct RecordedTrainingRun {
    std::vector<EpochMetrics> epochs;
    int bestEpoch = 0;                    // 0: not recorded
    std::string status = "unknown";
    std::vector<std::string> devices;     // as the trainer named them
    std::optional<TrainingConfig> config; // none when the record has no configuration this version reads
    std::optional<DeviceAdvice> deviceAdvice; // "device_advice", when the run measured one GPU against its ranks
};
// Never throws: a record that is not an object, or whose epochs are not there, gives a run without epochs.
RecordedTrainingRun recordedTrainingRun(const nlohmann::json& metadata);

} // namespace stackscope::training
