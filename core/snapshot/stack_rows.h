// The stack table (component, version, where found, status) derived from a snapshot; shared by GUI and CLI.
#pragma once

#include "core/snapshot/snapshot.h"

#include <string>
#include <vector>

namespace stackscope {

// Ok, a problem (Missing, Failed), Unknown (could not be checked: the note says why) or NotApplicable (nothing to
// check on this machine, such as the NVIDIA driver on an AMD machine).
enum class StackStatus { Ok, Missing, Failed, NotApplicable, Unknown };

struct StackRow {
    std::string component;
    std::string version;  // "-" when unknown
    std::string location; // where it was found or loaded from
    StackStatus status = StackStatus::Ok;
    std::string note;     // why it is missing, failed or unknown
};

// `findings` (the one diagnosis: diagnoseMachine in core/diagnosis) mark the rows their cause lies in: Secure Boot and
// the amdgpu driver for SECURE_BOOT_DKMS, GPU access for the permission findings; without them the rows say only what
// the snapshot's facts say.
std::vector<StackRow> stackRows(const Snapshot& s, const std::vector<Finding>& findings = {});
const char* stackStatusName(StackStatus s);
// One line for a status bar: "2 GPUs (gfx1100) · ROCm 6.2.0 · torch 2.5.1+rocm6.2 (rocm) · 1 error, 2 warnings", the
// counts of `findings` (diagnoseMachine in core/diagnosis: the checks and what the rules say about the snapshot).
std::string stackSummary(const Snapshot& s, const std::vector<Finding>& findings);
// "20.0 GiB"
std::string formatBytes(std::uint64_t bytes);

} // namespace stackscope
