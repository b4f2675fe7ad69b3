// What the Training page does with the form's options before and around a run, as plain functions of values (no
// widgets, each tested with rows): whether a configuration may start, the configuration the device advice suggests,
// and a recorded run's options as this machine's form takes them.
#pragma once

#include "core/training/training_config.h"
#include "core/training/training_run.h"

#include <string>

namespace stackscope::ui {

// Throws what training::validate throws, or a ConfigError naming --input when the input CSV is not a file (the sample
// data, `inputIsSample`, is written by the job, so only its name is checked).
void checkStartable(const training::TrainingConfig& config, bool inputIsSample);

// `config` moved to the device the trainer suggested (one GPU, one process: through the whole configuration, so the
// processes follow the device). Throws a ConfigError naming --device when the advice suggests none or no device.
training::TrainingConfig withSuggestedDevice(training::TrainingConfig config, const training::DeviceAdvice& advice);

// A recorded run's options for this machine's form: the output folder stays `output` (the run's is on the machine
// that made it) and nothing resumes.
training::TrainingConfig recordedRunOnThisMachine(training::TrainingConfig recorded, const std::string& output);

} // namespace stackscope::ui
