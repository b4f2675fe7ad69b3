// The stack table (component, version, where found, status) derived from a snapshot; shared by GUI and CLI.
#pragma once

#include "core/snapshot/snapshot.h"

#include <string>
#include <vector>

namespace stackscope {

enum class StackStatus { Ok, Missing, Failed, NotApplicable };

struct StackRow {
    std::string component;
    std::string version;  // "-" when unknown
    std::string location; // where it was found or loaded from
    StackStatus status = StackStatus::Ok;
    std::string note;     // why it is missing or failed
};

std::vector<StackRow> stackRows(const Snapshot& s);
const char* stackStatusName(StackStatus s);
// One line for a status bar: "2 GPUs (gfx1100) · ROCm 6.2.0 · torch 2.5.1+rocm6.2 (rocm) · 1 error, 2 warnings", the
// counts of `findings` (machineFindings in core/diagnosis: the checks and what the rules say about the snapshot).
std::string stackSummary(const Snapshot& s, const std::vector<Finding>& findings);
// "20.0 GiB"
std::string formatBytes(std::uint64_t bytes);

} // namespace stackscope
