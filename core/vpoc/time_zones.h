// Timestamps as written in market data files, read through the tz database, and printed back as ISO 8601.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace date {
class time_zone;
}

namespace stackscope::vpoc {

// Looks a zone up in the tz database; throws std::invalid_argument naming the zone and what to do.
const date::time_zone* findTimeZone(const std::string& name);

// Reads the timestamp forms the loader accepts: ISO 8601 (T or space, optional fraction, Z or an
// offset), `YYYYMMDD HHMMSS`, `YYYYMMDD HH:MM:SS`, epoch seconds or milliseconds. Naive times are read
// in the reader's zone; it keeps the zone's current rule in a cache because the tz lookup is slow.
class TimestampReader {
public:
    explicit TimestampReader(const std::string& zoneName);

    // `previousUs` resolves the repeated hour at the end of DST: the earlier reading is taken unless
    // it would go back before the previous row (then the later one). Returns the error text on failure.
    std::optional<std::string> read(std::string_view text, int64_t previousUs, bool allowEqual, int64_t& outUs);
    // The `date` + `time` column pair.
    std::optional<std::string> read(std::string_view dateText, std::string_view timeText, int64_t previousUs,
                                    bool allowEqual, int64_t& outUs);

    // The same without the previous row: `early` and `late` are the two readings of a time in the repeated
    // hour (equal elsewhere); resolve() picks one as read() does. Lets rows be parsed out of order.
    std::optional<std::string> readCandidates(std::string_view text, int64_t& early, int64_t& late);
    std::optional<std::string> readCandidates(std::string_view dateText, std::string_view timeText, int64_t& early,
                                              int64_t& late);
    static int64_t resolve(int64_t early, int64_t late, int64_t previousUs, bool allowEqual)
    {
        if (early == late)
            return early;
        const bool earlyOk = allowEqual ? early >= previousUs : early > previousUs;
        return earlyOk ? early : late;
    }

private:
    std::optional<std::string> localToUtc(int64_t localSeconds, int64_t fractionUs, int64_t& early, int64_t& late);

    const date::time_zone* m_zone;
    std::string m_zoneName;
    // The current rule of m_zone: UTC = local - m_offsetS, valid for UTC in [m_safeBegin, m_safeEnd).
    int64_t m_offsetS = 0;
    int64_t m_safeBegin = 1;
    int64_t m_safeEnd = 0;
};

// Local wall clock of a UTC instant in a zone, with the same caching.
class LocalClock {
public:
    explicit LocalClock(const date::time_zone* zone)
        : m_zone(zone)
    {
    }
    // Seconds since 1970-01-01 00:00 local wall time, and the zone's UTC offset at that instant.
    int64_t localSeconds(int64_t utcSeconds, int64_t* offsetS = nullptr);

private:
    const date::time_zone* m_zone;
    int64_t m_offsetS = 0;
    int64_t m_begin = 1;
    int64_t m_end = 0;
};

// "2024-03-11T09:30:00-04:00" (a fraction only when there is one).
std::string formatIso(int64_t utcUs, LocalClock& clock);
// "2024-03-11" from days since 1970-01-01.
std::string formatDate(int32_t days);

} // namespace stackscope::vpoc
