// Coverage rules: does a library's code run on a device (target-id features, PTX JIT, generic targets).
#pragma once

#include "core/snapshot/arch_coverage.h"

#include <optional>
#include <string>
#include <vector>

namespace stackscope::archscan {

// Whether the device ("gfx90a:xnack-", "sm_86") belongs to the library's vendor; coverage is only
// judged between the two of one vendor.
bool sameVendor(const LibraryScan& library, const std::string& device);

// The verdict for one device, with the consequence and the fix when it is not "yes".
// AMD: a feature the code leaves out means any; xnack+ code needs an xnack+ device and xnack- code an
// xnack- device; a device whose feature is unknown is assumed to match (and the explanation says so).
// CUDA: SASS runs on the same major with an equal or higher minor (sm_XYa only on XY, sm_XYf on the
// family); PTX at or below the device is JIT-compiled by the driver.
DeviceCoverage judgeCoverage(const LibraryScan& library, const std::string& device);

// Fills every library's `covers` for the devices of its vendor and computes `overrides`:
// with HSA_OVERRIDE_GFX_VERSION set (`overrideValue`), what it changes for each AMD device; without
// it, for an uncovered device, which override value would make the libraries cover it.
void applyCoverage(ArchCoverage& result, const std::optional<std::string>& overrideValue);

// True when `device` names a GPU architecture StackScope can judge (gfxNNNN[:feature±], sm_NN[a|f]).
bool isValidDeviceName(const std::string& device);

} // namespace stackscope::archscan
