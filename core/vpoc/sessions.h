// Trading sessions: which session day a timestamp belongs to (globex, rth or a custom window in a tz zone).
#pragma once

#include "core/vpoc/time_zones.h"

#include <cstdint>
#include <optional>
#include <string>

namespace stackscope::vpoc {

// A daily window [start, end) in a zone's wall clock. When start > end the window crosses midnight
// and is labelled by the day it ends on (globex: 18:00 the day before to 17:00 on D, labelled D).
// VpocOptions keeps one, parsed once from --session and --session-tz (vpoc_options.h); the engine, the outputs and the
// page read it as it is.
struct SessionRule {
    std::string name = "globex"; // "globex", "rth" or "HH:MM-HH:MM" as given
    int startMinute = 18 * 60;
    int endMinute = 17 * 60;
    std::string zoneName = "America/New_York";

    // The one reading of a session's text (globex, rth or HH:MM-HH:MM), in a zone the tz database has. Throws
    // std::invalid_argument with what to write instead.
    static SessionRule parse(const std::string& spec, const std::string& zoneName);
};

class SessionClock {
public:
    explicit SessionClock(const SessionRule& rule);
    // Days since 1970-01-01 of the session holding this instant, or nullopt outside every session.
    std::optional<int32_t> sessionDay(int64_t utcUs);
    LocalClock& clock() { return m_clock; }

private:
    SessionRule m_rule;
    LocalClock m_clock;
};

} // namespace stackscope::vpoc
