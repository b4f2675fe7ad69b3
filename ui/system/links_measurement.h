// "Measure links" off the GUI thread: `stackscope-cli bench bandwidth --json` in a child process of its own group
// (the torch module and its NCCL ranks live there), so Stop ends all of it within a tenth of a second.
#pragma once

#include "core/perf/suite_run.h"
#include "core/util/cancel_token.h"

#include <chrono>
#include <stdexcept>
#include <string>

namespace stackscope::ui {

// The suite did not give a run: the message says what happened and what to do.
struct MeasureError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct LinksMeasurement {
    std::optional<perf::SuiteRun> run; // empty when stopped
    bool stopped = false;
    double seconds = 0;
};

// How long a measurement may take before it is ended: the whole default suite took 150 s on 2x H200
// (tests/fixtures/bandwidth, start_s to end_s) and grows with the GPU pairs; a hang ends at this bound.
inline constexpr std::chrono::minutes kMeasureLimit {20};

// Runs the suite in `program` (stackscope-cli; empty: cliProgram()) and parses its run. Checks `cancel` every 100 ms:
// once cancelled, the child's group is killed and {stopped = true} comes back. Throws MeasureError.
LinksMeasurement measureLinks(const CancelToken& cancel, const std::string& program = {},
                              std::chrono::milliseconds limit = kMeasureLimit);

} // namespace stackscope::ui
