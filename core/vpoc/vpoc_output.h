// VPOC results as the CLI prints them: JSON, the sessions CSV and the developing-values CSV.
#pragma once

#include "core/vpoc/vpoc_engine.h"

#include <nlohmann/json.hpp>

#include <string>

namespace stackscope::vpoc {

nlohmann::json toJson(const VpocResult& r, bool withProfiles = false);
std::string sessionsCsv(const VpocResult& r);
// date,time,poc,vah,val: one row per bar, from that bar and the earlier bars of its session only.
std::string developingCsv(const VpocResult& r);

} // namespace stackscope::vpoc
