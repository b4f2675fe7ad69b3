// VPOC results as the CLI prints them: JSON, the sessions CSV and the developing-values CSV.
#pragma once

#include "core/vpoc/vpoc_engine.h"

#include <nlohmann/json.hpp>

#include <string>

namespace stackscope::vpoc {

nlohmann::json toJson(const VpocResult& r, bool withProfiles = false);
std::string sessionsCsv(const VpocResult& r);
// One session's profile after the sessions CSV (the page's Export CSV): "# profile of session DATE", then
// price,volume,in_value_area a level, low to high.
std::string profileCsv(const VpocResult& r, std::size_t session);
// date,time,poc,vah,val: one row per bar, from that bar and the earlier bars of its session only.
std::string developingCsv(const VpocResult& r);

// The same CSV written a session at a time (vpoc --developing streams it while the sessions are computed).
class DevelopingCsv {
public:
    explicit DevelopingCsv(const VpocOptions& options);
    static const char* header() { return "session,time,poc,vah,val\n"; }
    std::string rows(int32_t day, const DevelopingPoint* points, std::size_t count) const;
    std::string rows(const SessionResult& session, const std::vector<DevelopingPoint>& points) const
    {
        return rows(session.day, points.data(), points.size());
    }

private:
    Tick m_tick;
    mutable SessionClock m_clock; // its LocalClock caches time zone transitions as it converts
};

} // namespace stackscope::vpoc
