// Session windows read from the tz database: the DST change moves the UTC bounds, never the wall-clock ones.
#include "core/vpoc/sessions.h"

#include <fmt/format.h>

#include <stdexcept>

namespace stackscope::vpoc {

namespace {

bool parseClock(const std::string& s, int& minutes)
{
    if (s.size() != 5 || s[2] != ':')
        return false;
    for (size_t i : {0, 1, 3, 4})
        if (s[i] < '0' || s[i] > '9')
            return false;
    const int h = (s[0] - '0') * 10 + (s[1] - '0');
    const int m = (s[3] - '0') * 10 + (s[4] - '0');
    if (h > 24 || m > 59 || (h == 24 && m != 0))
        return false;
    minutes = h * 60 + m;
    return true;
}

int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

} // namespace

SessionRule SessionRule::parse(const std::string& spec, const std::string& zoneName)
{
    SessionRule r;
    r.name = spec;
    r.zoneName = zoneName;
    findTimeZone(zoneName); // fail early on an unknown zone
    if (spec == "globex") {
        r.startMinute = 18 * 60;
        r.endMinute = 17 * 60;
        return r;
    }
    if (spec == "rth") {
        r.startMinute = 9 * 60 + 30;
        r.endMinute = 16 * 60;
        return r;
    }
    const auto dash = spec.find('-');
    if (dash == std::string::npos || !parseClock(spec.substr(0, dash), r.startMinute)
        || !parseClock(spec.substr(dash + 1), r.endMinute))
        throw std::invalid_argument(fmt::format("--session {}: write globex, rth or a window HH:MM-HH:MM such as "
                                                "08:30-15:15",
                                                spec));
    if (r.startMinute == r.endMinute || r.startMinute == 24 * 60)
        throw std::invalid_argument(fmt::format("--session {}: the window is empty or a whole day; give different "
                                                "start and end times",
                                                spec));
    return r;
}

SessionClock::SessionClock(const SessionRule& rule)
    : m_rule(rule)
    , m_clock(findTimeZone(rule.zoneName))
{
}

std::optional<int32_t> SessionClock::sessionDay(int64_t utcUs)
{
    const int64_t local = m_clock.localSeconds(floorDiv(utcUs, 1000000));
    const int64_t day = floorDiv(local, 86400);
    const int minute = static_cast<int>((local - day * 86400) / 60);
    if (m_rule.startMinute < m_rule.endMinute) {
        if (minute >= m_rule.startMinute && minute < m_rule.endMinute)
            return static_cast<int32_t>(day);
        return std::nullopt;
    }
    if (minute >= m_rule.startMinute)
        return static_cast<int32_t>(day + 1);
    if (minute < m_rule.endMinute)
        return static_cast<int32_t>(day);
    return std::nullopt;
}

} // namespace stackscope::vpoc
