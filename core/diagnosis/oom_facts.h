// An out-of-memory finding in numbers: what the job asked for and what the GPU had (parsed from PyTorch's
// CUDA/HIP OOM message, both its pre-2.1 and its current form), and who holds the memory (the snapshot's processes).
#pragma once

#include "core/snapshot/snapshot.h"

#include <optional>
#include <string>
#include <string_view>

namespace stackscope {

struct OomMessage {
    std::string requested;       // "20.00 MiB"
    std::optional<int> gpu;      // "GPU 0"
    std::string total;           // "4.00 GiB"
    std::string free;            // "0 bytes"
    std::string heldByProcesses; // "Process 1234 has 77.00 GiB memory in use" (current form), joined with "; "
};

// Nullopt when the line holds no "out of memory. Tried to allocate".
std::optional<OomMessage> parseOomMessage(std::string_view line);

// One or two sentences for the finding: the request against the GPU's memory, then the processes the snapshot saw
// on that GPU (pid, command, user, bytes) or that nobody could be asked. Empty when nothing is known.
std::string describeOom(const std::optional<OomMessage>& message, const Snapshot* snapshot);

} // namespace stackscope
