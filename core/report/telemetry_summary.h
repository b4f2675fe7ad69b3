// A short telemetry sample for a report: a few readings per GPU from NVML or rocm_smi, summarised.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>

namespace stackscope::report {

// Takes `readings` samples `interval` apart with the default sources (NVML, rocm_smi). Returns
// {"available": true, "readings": N, "interval_ms": I, "sources": [...], "gpus": [{"vendor","index",
//  "name", "quantities": {"vram_used": {"unit","min","max","mean","last"} ...}}]}, or
// {"available": false, "reason": "..."} naming why no source gave a value.
nlohmann::json sampleTelemetrySummary(int readings = 3,
                                      std::chrono::milliseconds interval = std::chrono::milliseconds(200));

} // namespace stackscope::report
