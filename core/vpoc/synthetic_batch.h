// In-memory synthetic profile batches (POC-concentrated trades, or ranged bars) for the GPU check and the benchmark.
#pragma once

#include "core/vpoc/volume_profile.h"

#include <cstdint>

namespace stackscope::vpoc {

// `elements` spread over `sessions`; prices are normal around each session's centre (so the POC region is
// hot, as in real data); with `ranges` every element spans 0..7 levels (uniform bars), else points (trades).
ProfileBatch syntheticBatch(uint64_t elements, uint32_t sessions, bool ranges, uint64_t seed);

} // namespace stackscope::vpoc
