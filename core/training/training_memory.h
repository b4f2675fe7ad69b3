// Memory a training run will need, checked against what the machine (or the process's limits) has, before it starts.
#pragma once

#include "core/training/training_config.h"

#include <cstdint>
#include <string>

namespace stackscope::training {

// Host bytes a run needs beyond the dataset, by a stated model:
// - 64 bytes a parameter: fp32 weights, gradients and Adam's two moments (16), the best weights (4), and
//   the serialised bytes of model.pt (4) and checkpoint.pt (five tensors, held twice while written: 40);
// - activations: batch x (features + every hidden layer + 1) floats, four times (values, gradients,
//   ReLU and dropout masks).
// Measured (tests/bench/RESULTS.md): a CPU run of 9.06 M parameters peaked 463 MiB above a tiny model's run,
// the model says 577 MiB: 1.25x on the safe side.
struct MemoryNeed {
    double parameters = 0; // double: --hidden 2000000000 must not overflow
    double bytes = 0;
};
MemoryNeed trainingMemoryNeed(const TrainingConfig& config, int64_t featureColumns);

struct MemoryAvailable {
    double bytes = -1;  // -1: unknown (no /proc)
    std::string source; // "MemAvailable", "RLIMIT_AS", "the cgroup's memory limit"
};
// The least of: /proc/meminfo's MemAvailable, the address-space limit (RLIMIT_AS) less what the
// process has mapped, and the cgroup memory limit less its current use (cgroupMemoryLeft).
MemoryAvailable availableMemory();

// Bytes the process's cgroups leave it: for each hierarchy `procSelfCgroup` (the text of /proc/self/cgroup) names,
// v2's memory.max - memory.current and v1's memory.limit_in_bytes - memory.usage_in_bytes, at its own level and at
// every parent (a parent's limit binds too), under `sysRoot`/sys/fs/cgroup; the least of them, or -1 when none
// sets a limit. A container whose own cgroup is mounted at the root is read there.
double cgroupMemoryLeft(const std::string& sysRoot, const std::string& procSelfCgroup);

// Throws ConfigError (exit 2) with the figures when the need exceeds what is available.
void checkTrainingMemory(const TrainingConfig& config, int64_t featureColumns);

} // namespace stackscope::training
