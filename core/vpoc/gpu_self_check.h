// One launch of StackScope's own VPOC kernel against the CPU path: the "stackscope_kernel" probe.
#pragma once

#include "core/snapshot/probe_outcome.h"

#include <string>

namespace stackscope::vpoc {

struct KernelSelfCheck {
    ProbeResult outcome = ProbeResult::Error; // Ok, Wrong, Error or Unsupported
    std::string message;
};

// Builds a small synthetic batch, computes it with the GPU module and on the CPU, and compares bit for
// bit. The module opens GPU 0, so any other `device` is reported unsupported with the reason.
KernelSelfCheck runKernelSelfCheck(const std::string& device);

} // namespace stackscope::vpoc
