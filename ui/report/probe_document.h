// Probe results <-> the `stackscope-cli probe --json` document, so the GUI's grid can go into a report and back.
#pragma once

#include "core/probes/probe_runner.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace stackscope::ui {

// {"devices":[{id,name}], "variants":[{name, env, rules}], "results":[...], "failures": n}, the shape
// `probe --json` prints. A variant's env change is what its records' environment differs in from the
// baseline's on the same device (the records carry the complete GPU environment each child ran with).
nlohmann::json probeDocument(const std::vector<ProbeRecord>& records, const std::vector<ProbeDevice>& devices = {});

// The records of such a document; throws std::runtime_error naming the result's index and key.
std::vector<ProbeRecord> probeRecordsFromDocument(const nlohmann::json& document);

} // namespace stackscope::ui
