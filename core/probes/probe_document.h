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

} // namespace stackscope
