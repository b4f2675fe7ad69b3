// The trainer's JSON events turned into progress values and a result, the metadata file kept current.
#pragma once

#include "core/training/training_run.h"

#include <chrono>
#include <exception>

namespace stackscope::training {

class TrainingMetadata;

// Receives the events of stackscope_torch_train (in-process) or of rank 0's output lines (training_launch.cpp).
class RunObserver {
public:
    // `metadata` may be null: a launcher whose rank 0 writes model_metadata.json itself.
    RunObserver(TrainingMetadata* metadata, const TrainingProgressCallback& progress, int epochs,
                CancelToken cancel);

    // The module's callbacks (trainer_api.h): no exception leaves them. A failure to handle an event (a full disk
    // under model_metadata.json, an event this build does not know) is kept and the module told to stop.
    static int onEvent(void* self, const char* json) noexcept;
    static int stopRequested(void* self) noexcept;
    // After the module returned STACKSCOPE_TORCH_TRAIN_HOST_FAILED: rethrows what onEvent kept (no-op when nothing).
    void rethrowFailure();
    // Throws nlohmann::json::parse_error on a line that is no JSON.
    void handle(const std::string& text);
    TrainingResult& result() { return m_result; }

private:
    void note(TrainingProgress& p);
    void started(TrainingProgress& p);
    void step(TrainingProgress& p) const;
    void epoch(TrainingProgress& p);
    void finished(TrainingProgress& p);

    TrainingMetadata* m_metadata;
    TrainingProgressCallback m_progress;
    CancelToken m_cancel;
    int m_epochs;
    int m_firstEpoch = 1;
    int64_t m_stepsPerEpoch = 0;
    std::chrono::steady_clock::time_point m_start;
    TrainingResult m_result;
    std::exception_ptr m_failure;
};

} // namespace stackscope::training
