// Puts the kernel coverage scan into a snapshot: the `arch_coverage` section and a finding per gap.
#pragma once

#include "core/snapshot/snapshot.h"

namespace stackscope::archscan {

// Scans the snapshot's default set against its GPUs (a few seconds: call it off the GUI thread), stores
// the result in `snapshot.archCoverage` and adds an ARCH_NOT_COVERED finding for each device a library
// cannot run on. Does nothing for a recorded root (its libraries are not on this machine).
void addArchCoverage(Snapshot& snapshot);

} // namespace stackscope::archscan
