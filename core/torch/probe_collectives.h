// The collective probes (all_reduce, broadcast, barrier) through c10d: one rank per visible GPU over NCCL/RCCL,
// two Gloo ranks on the CPU, the ranks as threads of the probe's child process (which the hang timeout kills).
#pragma once

#include "core/torch/probe_checks.h"

#include <string>

namespace stackscope::probe {

// op: "all_reduce", "broadcast" or "barrier". Throws Unsupported where this libtorch has no such process group.
void probeCollective(ProbeContext& ctx, const std::string& op);

// A free TCP port on 127.0.0.1 for an in-process group's rendezvous (one rank per GPU, one thread each); throws
// std::runtime_error when none can be had.
int loopbackPort();

} // namespace stackscope::probe
