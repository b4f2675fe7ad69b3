// Findings as JSON: `{"findings": [...]}` for stackscope-cli diagnose, the GUI and reports.
#pragma once

#include "core/diagnosis/diagnosis.h"

#include <nlohmann/json_fwd.hpp>
#include <vector>

namespace stackscope {

nlohmann::json toJson(const Evidence& e);
nlohmann::json toJson(const DiagnosisFinding& f);
nlohmann::json findingsToJson(const std::vector<DiagnosisFinding>& findings);

} // namespace stackscope
