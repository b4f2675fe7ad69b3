// The probe run document (`stackscope-cli probe --json`, a report's "probes"): devices, variants, results
// and the failure count, built in one place for the CLI, the report and the Probes page.
#pragma once

#include "core/probes/probe_runner.h"
#include "core/probes/probe_variants.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace stackscope {

// `deviceListError` (empty when the GPUs were listed) goes in as "device_list_error".
nlohmann::json probeRunDocument(const std::vector<ProbeRecord>& records, const std::vector<ProbeDevice>& devices,
                                const std::vector<ProbeVariant>& variants, const std::string& deviceListError = {});

// The same from the records alone (the Probes page's grid going into a report): the devices given, then any a record
// names that they lack; a variant's env change is what its records' environment differs in from the baseline's on
// the same device (the records carry the complete GPU environment each child ran with).
nlohmann::json probeDocument(const std::vector<ProbeRecord>& records, const std::vector<ProbeDevice>& devices = {});

// The records of a probe run document (`probe --json`, a report's "probes"; null or no "results": none); throws
// std::runtime_error naming the result's index and key.
std::vector<ProbeRecord> probeRecordsFromDocument(const nlohmann::json& document);

} // namespace stackscope
