// Telemetry as JSON lines (stackscope-cli monitor) and as CSV (the Monitor panel's export).
#pragma once

#include "core/telemetry/telemetry_store.h"
#include "core/telemetry/telemetry_types.h"

#include <nlohmann/json.hpp>

#include <string>

namespace stackscope::telemetry {

// "2026-11-21T17:20:44.250Z"
std::string isoTimeUtc(TimeMs t);

// One sample: {"time_ms", "time", "gpus": [{"index", "vendor", "name", "readings": {"vram_used":
// {"value", "unit", "source"} or {"value": null, "missing", "source", "detail"}}}], "sources": [...]}.
nlohmann::json sampleToJson(const TelemetrySample& sample);

// One row per point and per event, sorted by time:
// time_ms,time_utc,gpu,quantity,unit,value,text  (events: quantity "event:<kind>", empty value).
std::string timelineCsv(const TelemetryStore& store);
// Writes timelineCsv atomically (no partial file on failure); throws FileWriteError.
void exportTimelineCsv(const TelemetryStore& store, const std::string& path);

// Quotes a CSV field when it holds a comma, quote or line break.
std::string csvField(const std::string& s);

} // namespace stackscope::telemetry
