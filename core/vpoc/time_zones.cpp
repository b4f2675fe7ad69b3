// Timestamp reading and printing through Howard Hinnant's date/tz (the tz database, never a DST table).
#include "core/vpoc/time_zones.h"

#include <date/date.h>
#include <date/tz.h>
#include <fmt/format.h>

#include <chrono>
#include <stdexcept>

namespace stackscope::vpoc {

namespace {

constexpr int64_t kDay = 86400;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Reads exactly `count` digits at `pos`.
bool digits(std::string_view s, size_t& pos, size_t count, int& out)
{
    if (pos + count > s.size())
        return false;
    int v = 0;
    for (size_t i = 0; i < count; ++i) {
        if (!isDigit(s[pos + i]))
            return false;
        v = v * 10 + (s[pos + i] - '0');
    }
    out = v;
    pos += count;
    return true;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

constexpr const char* kForms = "use ISO 8601 (2024-03-11T09:30:00, optional fraction and Z or +HH:MM), "
                               "YYYYMMDD HHMMSS, YYYYMMDD HH:MM:SS, MM/DD/YYYY HH:MM, or epoch seconds/milliseconds";

struct Civil {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    int64_t fractionUs = 0;
    bool hasOffset = false;
    int offsetMinutes = 0;
};

std::optional<std::string> parseDate(std::string_view s, size_t& pos, Civil& c)
{
    if (s.size() >= pos + 10 && s[pos + 2] == '/' && s[pos + 5] == '/') {
        // MM/DD/YYYY, as TradeStation and Barchart export it.
        if (!digits(s, pos, 2, c.month) || s[pos++] != '/' || !digits(s, pos, 2, c.day) || s[pos++] != '/'
            || !digits(s, pos, 4, c.year))
            return std::string("a malformed date; write it as MM/DD/YYYY or YYYY-MM-DD");
    } else if (s.size() >= pos + 10 && s[pos + 4] == '-') {
        if (!digits(s, pos, 4, c.year) || s[pos++] != '-' || !digits(s, pos, 2, c.month) || s[pos++] != '-'
            || !digits(s, pos, 2, c.day))
            return std::string("a malformed date; write it as YYYY-MM-DD");
    } else if (!digits(s, pos, 4, c.year) || !digits(s, pos, 2, c.month) || !digits(s, pos, 2, c.day)) {
        return std::string("a malformed date; write it as YYYY-MM-DD or YYYYMMDD");
    }
    const date::year_month_day ymd {date::year {c.year}, date::month {static_cast<unsigned>(c.month)},
                                    date::day {static_cast<unsigned>(c.day)}};
    if (!ymd.ok())
        return fmt::format("{:04}-{:02}-{:02} is not a calendar date; fix the date", c.year, c.month, c.day);
    return std::nullopt;
}

std::optional<std::string> parseTime(std::string_view s, size_t& pos, Civil& c)
{
    if (!digits(s, pos, 2, c.hour))
        return std::string("a malformed time; write it as HH:MM:SS or HHMMSS");
    if (pos < s.size() && s[pos] == ':') {
        ++pos;
        if (!digits(s, pos, 2, c.minute))
            return std::string("a malformed time; write it as HH:MM:SS");
        if (pos < s.size() && s[pos] == ':') {
            ++pos;
            if (!digits(s, pos, 2, c.second))
                return std::string("a malformed time; write it as HH:MM:SS");
        }
    } else if (!digits(s, pos, 2, c.minute)) {
        return std::string("a malformed time; write it as HH:MM:SS or HHMMSS");
    } else if (pos < s.size() && isDigit(s[pos]) && !digits(s, pos, 2, c.second)) {
        return std::string("a malformed time; write it as HH:MM:SS, HHMMSS or HHMM");
    }
    if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
        ++pos;
        int64_t scale = 100000;
        size_t n = 0;
        while (pos < s.size() && isDigit(s[pos])) {
            c.fractionUs += (s[pos] - '0') * scale;
            scale /= 10;
            ++pos;
            ++n;
        }
        if (n == 0)
            return std::string("a fraction of a second without digits; write HH:MM:SS.fff");
    } else if (pos + 8 == s.size() && s[pos] == ' ') {
        // NinjaTrader's tick time `HHmmss fffffff`: seven digits of 100 ns after a space.
        int hi = 0, lo = 0;
        size_t p = pos + 1;
        if (digits(s, p, 3, hi) && digits(s, p, 4, lo)) {
            c.fractionUs = (static_cast<int64_t>(hi) * 10000 + lo) / 10;
            pos = p;
        }
    }
    if (c.hour > 23 || c.minute > 59 || c.second > 59)
        return fmt::format("{:02}:{:02}:{:02} is not a time of day; fix the time", c.hour, c.minute, c.second);
    return std::nullopt;
}

std::optional<std::string> parseZone(std::string_view s, size_t& pos, Civil& c)
{
    if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
        ++pos;
        c.hasOffset = true;
        return std::nullopt;
    }
    if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
        const int sign = s[pos] == '-' ? -1 : 1;
        ++pos;
        int h = 0, m = 0;
        if (!digits(s, pos, 2, h))
            return std::string("a malformed UTC offset; write it as +HH:MM");
        if (pos < s.size() && s[pos] == ':')
            ++pos;
        if (pos < s.size() && !digits(s, pos, 2, m))
            return std::string("a malformed UTC offset; write it as +HH:MM");
        if (h > 18 || m > 59)
            return std::string("a UTC offset out of range; offsets lie within +-18:00");
        c.hasOffset = true;
        c.offsetMinutes = sign * (h * 60 + m);
    }
    return std::nullopt;
}

int64_t civilSeconds(const Civil& c)
{
    const date::sys_days d = date::year_month_day {date::year {c.year}, date::month {static_cast<unsigned>(c.month)},
                                                   date::day {static_cast<unsigned>(c.day)}};
    return static_cast<int64_t>(d.time_since_epoch().count()) * kDay + c.hour * 3600 + c.minute * 60 + c.second;
}

} // namespace

const date::time_zone* findTimeZone(const std::string& name)
{
    try {
        return date::locate_zone(name);
    } catch (const std::exception& e) {
        throw std::invalid_argument(fmt::format("unknown time zone '{}' ({}); give a tz database name such as "
                                                "America/New_York, Europe/London or UTC",
                                                name, e.what()));
    }
}

TimestampReader::TimestampReader(const std::string& zoneName)
    : m_zone(findTimeZone(zoneName))
    , m_zoneName(zoneName)
{
}

std::optional<std::string> TimestampReader::localToUtc(int64_t localSeconds, int64_t fractionUs, int64_t& early,
                                                       int64_t& late)
{
    const int64_t guess = localSeconds - m_offsetS;
    if (guess >= m_safeBegin && guess < m_safeEnd) {
        early = late = guess * 1000000 + fractionUs;
        return std::nullopt;
    }
    using namespace std::chrono;
    const date::local_seconds lt {seconds {localSeconds}};
    const auto info = m_zone->get_info(lt);
    auto utcOf = [&](const date::sys_info& si) { return localSeconds - si.offset.count(); };
    auto remember = [&](const date::sys_info& si) {
        m_offsetS = si.offset.count();
        // A day of margin from the rule's ends: no gap or repeat can be nearer than that to a unique time.
        m_safeBegin = si.begin.time_since_epoch().count() + kDay;
        m_safeEnd = si.end.time_since_epoch().count() - kDay;
    };
    switch (info.result) {
    case date::local_info::unique:
        remember(info.first);
        early = late = utcOf(info.first) * 1000000 + fractionUs;
        return std::nullopt;
    case date::local_info::nonexistent:
        return fmt::format("{} does not exist in {} (the clocks skip it at the DST change); fix the timestamp or "
                           "write it with its UTC offset",
                           date::format("%F %T", lt), m_zoneName);
    case date::local_info::ambiguous:
        early = utcOf(info.first) * 1000000 + fractionUs;
        late = utcOf(info.second) * 1000000 + fractionUs;
        return std::nullopt;
    }
    return std::string("the tz database gave no reading for this time; write it with its UTC offset");
}

std::optional<std::string> TimestampReader::read(std::string_view text, int64_t previousUs, bool allowEqual,
                                                 int64_t& outUs)
{
    int64_t early = 0, late = 0;
    auto err = readCandidates(text, early, late);
    if (!err)
        outUs = resolve(early, late, previousUs, allowEqual);
    return err;
}

std::optional<std::string> TimestampReader::read(std::string_view dateText, std::string_view timeText,
                                                 int64_t previousUs, bool allowEqual, int64_t& outUs)
{
    int64_t early = 0, late = 0;
    auto err = readCandidates(dateText, timeText, early, late);
    if (!err)
        outUs = resolve(early, late, previousUs, allowEqual);
    return err;
}

std::optional<std::string> TimestampReader::readCandidates(std::string_view text, int64_t& early, int64_t& late)
{
    const std::string_view s = trim(text);
    if (s.empty())
        return std::string("an empty timestamp; fill it in or remove the row");
    // Epoch seconds or milliseconds: digits only (optionally a fraction), more than 8 of them.
    size_t nDigits = 0;
    while (nDigits < s.size() && isDigit(s[nDigits]))
        ++nDigits;
    if (nDigits > 8 && (nDigits == s.size() || s[nDigits] == '.')) {
        // 15 digits keep milliseconds * 1000 inside int64 (and reach the year 33658).
        if (nDigits > 15)
            return fmt::format("'{}' is too large for epoch seconds or milliseconds; {}", s, kForms);
        int64_t v = 0;
        for (size_t i = 0; i < nDigits; ++i)
            v = v * 10 + (s[i] - '0');
        int64_t frac = 0;
        if (nDigits < s.size()) {
            int64_t scale = 100000;
            for (size_t i = nDigits + 1; i < s.size(); ++i) {
                if (!isDigit(s[i]))
                    return fmt::format("'{}' is not a timestamp; {}", s, kForms);
                frac += (s[i] - '0') * scale;
                scale /= 10;
            }
        }
        // 1e11 seconds is the year 5138 while 1e11 milliseconds is 1973: the magnitude tells them apart.
        early = late = v >= 100000000000LL ? v * 1000 + frac / 1000 : v * 1000000 + frac;
        return std::nullopt;
    }
    Civil c;
    size_t pos = 0;
    if (auto err = parseDate(s, pos, c))
        return fmt::format("'{}': {}", s, *err);
    if (pos < s.size()) {
        if (s[pos] != 'T' && s[pos] != ' ' && s[pos] != 't')
            return fmt::format("'{}' is not a timestamp; {}", s, kForms);
        ++pos;
        if (auto err = parseTime(s, pos, c))
            return fmt::format("'{}': {}", s, *err);
        if (auto err = parseZone(s, pos, c))
            return fmt::format("'{}': {}", s, *err);
    }
    if (pos != s.size())
        return fmt::format("'{}' has trailing text; {}", s, kForms);
    const int64_t secs = civilSeconds(c);
    if (c.hasOffset) {
        early = late = (secs - c.offsetMinutes * 60) * 1000000 + c.fractionUs;
        return std::nullopt;
    }
    return localToUtc(secs, c.fractionUs, early, late);
}

std::optional<std::string> TimestampReader::readCandidates(std::string_view dateText, std::string_view timeText,
                                                           int64_t& early, int64_t& late)
{
    const std::string_view d = trim(dateText);
    const std::string_view t = trim(timeText);
    Civil c;
    size_t pos = 0;
    if (auto err = parseDate(d, pos, c))
        return fmt::format("date '{}': {}", d, *err);
    if (pos != d.size())
        return fmt::format("date '{}' has trailing text; write it as YYYY-MM-DD or YYYYMMDD", d);
    pos = 0;
    if (auto err = parseTime(t, pos, c))
        return fmt::format("time '{}': {}", t, *err);
    if (auto err = parseZone(t, pos, c))
        return fmt::format("time '{}': {}", t, *err);
    if (pos != t.size())
        return fmt::format("time '{}' has trailing text; write it as HH:MM:SS", t);
    const int64_t secs = civilSeconds(c);
    if (c.hasOffset) {
        early = late = (secs - c.offsetMinutes * 60) * 1000000 + c.fractionUs;
        return std::nullopt;
    }
    return localToUtc(secs, c.fractionUs, early, late);
}

int64_t LocalClock::localSeconds(int64_t utcSeconds, int64_t* offsetS)
{
    if (utcSeconds < m_begin || utcSeconds >= m_end) {
        const auto si = m_zone->get_info(date::sys_seconds {std::chrono::seconds {utcSeconds}});
        m_offsetS = si.offset.count();
        m_begin = si.begin.time_since_epoch().count();
        m_end = si.end.time_since_epoch().count();
    }
    if (offsetS)
        *offsetS = m_offsetS;
    return utcSeconds + m_offsetS;
}

namespace {
int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
} // namespace

std::string formatDate(int32_t days)
{
    const date::year_month_day ymd {date::sys_days {date::days {days}}};
    return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                       static_cast<unsigned>(ymd.day()));
}

std::string formatIso(int64_t utcUs, LocalClock& clock)
{
    const int64_t utcS = floorDiv(utcUs, 1000000);
    const int64_t fracUs = utcUs - utcS * 1000000;
    int64_t offset = 0;
    const int64_t local = clock.localSeconds(utcS, &offset);
    const int64_t day = floorDiv(local, kDay);
    const int64_t tod = local - day * kDay;
    std::string out = formatDate(static_cast<int32_t>(day));
    out += fmt::format("T{:02}:{:02}:{:02}", tod / 3600, (tod / 60) % 60, tod % 60);
    if (fracUs != 0) {
        out += fmt::format(".{:06}", fracUs);
        while (out.back() == '0')
            out.pop_back();
    }
    if (offset == 0)
        return out + "Z";
    const int64_t a = offset < 0 ? -offset : offset;
    return out + fmt::format("{}{:02}:{:02}", offset < 0 ? '-' : '+', a / 3600, (a / 60) % 60);
}

} // namespace stackscope::vpoc
