// A pasted text diagnosed against a machine (inspected, a file, a recorded root, a report's): the machine's own facts
// (GPUs, driver, ROCm, device nodes, kernel log) are measured and stay; what the text states about the user's process
// stands in for StackScope's own process. StackScope's libtorch is not the user's Python torch, and StackScope's
// environment is not the user's shell: the torch the text shows (version, backend, devices it saw), the variables it
// exports and its own "no GPU" check describe the program that failed.
#pragma once

#include "core/snapshot/snapshot.h"

namespace stackscope {

// Whether `stated` (the facts a text states, log_facts.h) says anything about the user's process.
bool statesProcessFacts(const Snapshot& stated);

// `machine` with the process facts of `stated` laid over it:
// - torch: the text's torch replaces the machine's when the two name different versions or backends (another torch);
//   else each field the text states replaces the machine's (the same torch, seen by the user's process);
// - env: each variable the text shows replaces the machine's (the user's shell, not StackScope's);
// - the text's own "no GPU for PyTorch" line and its `docker run` line that passes no GPU (never read live).
Snapshot withStatedProcessFacts(const Snapshot& machine, const Snapshot& stated);

} // namespace stackscope
