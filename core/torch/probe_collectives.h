// The collective probes (all_reduce, broadcast, barrier) through c10d: one rank per visible GPU over NCCL/RCCL,
// two Gloo ranks on the CPU, the ranks as threads of the probe's child process (which the hang timeout kills).
#pragma once

#include "core/torch/probe_checks.h"

#include <string>

namespace stackscope::probe {

// op: "all_reduce", "broadcast" or "barrier". Throws Unsupported where this libtorch has no such process group.
void probeCollective(ProbeContext& ctx, const std::string& op);

} // namespace stackscope::probe
