// The trainer's JSON events turned into progress values and a result, the metadata file kept current.
#pragma once

#include "core/training/training_run.h"

#include <atomic>
#include <chrono>

namespace stackscope::training {

class TrainingMetadata;

// Receives the events of stackscope_torch_train (in-process) or of rank 0's output lines (training_launch.cpp).
class RunObserver {
public:
    // `metadata` may be null: a launcher whose rank 0 writes model_metadata.json itself.
    RunObserver(TrainingMetadata* metadata, const TrainingProgressCallback& progress, int epochs,
                const std::atomic<bool>* cancel);

    static void onEvent(void* self, const char* json) { static_cast<RunObserver*>(self)->handle(json); }
    static int stopRequested(void* self);
    // Throws nlohmann::json::parse_error on a line that is no JSON.
    void handle(const std::string& text);
    TrainingResult& result() { return m_result; }

private:
    void started(TrainingProgress& p);
    void step(TrainingProgress& p) const;
    void epoch(TrainingProgress& p);
    void finished(TrainingProgress& p);

    TrainingMetadata* m_metadata;
    TrainingProgressCallback m_progress;
    const std::atomic<bool>* m_cancel;
    int m_epochs;
    int m_firstEpoch = 1;
    int64_t m_stepsPerEpoch = 0;
    std::chrono::steady_clock::time_point m_start;
    TrainingResult m_result;
};

} // namespace stackscope::training
