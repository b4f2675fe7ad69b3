// A VPOC run read back from its JSON (`vpoc --json`, or a report's "vpoc", which keeps the sessions' levels but not
// their profiles): what the GUI shows when a report is opened.
#pragma once

#include "core/vpoc/vpoc_engine.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace stackscope::vpoc {

// A recorded run that cannot be read; what() names the key and what was found.
class RecordedRunError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The options, sessions (day, first/last, bars, volume, low/high/POC/VAH/VAL in ticks; the profile where the JSON
// has one), rows, backend and skipped rows of a run. Throws RecordedRunError on a missing or mistyped key.
VpocResult recordedVpocRun(const nlohmann::json& run);

} // namespace stackscope::vpoc
