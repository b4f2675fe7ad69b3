// The row checks of binary market data (DBN, SCID) with --skip-bad: bar ranges, time order, where it went wrong.
#pragma once

#include "core/vpoc/market_data.h"

#include <cstdint>
#include <string>

namespace stackscope::vpoc {

class RecordChecks {
public:
    RecordChecks(const std::string& path, const ReadOptions& options)
        : m_path(path)
        , m_skipBad(options.skipBad)
    {
    }
    // Bad input at `at`: throws InputError, or counts it under --skip-bad. Returns false.
    bool reject(BinaryPosition at, const std::string& message);
    // Checks a converted record (bars: low <= open, close <= high; time order as for CSV) and counts it.
    bool accept(const MarketRecord& rec, bool bars, BinaryPosition at);
    // Exact integer ticks of a fixed-point price (units of 1e-9) on a grid of `tickNanos`.
    bool ticksOfNanos(int64_t nanos, int64_t tickNanos, const char* what, int32_t& out, BinaryPosition at);
    // Ticks of a float price: on the grid within the float's own rounding.
    bool ticksOfFloat(float price, double tick, const char* what, int32_t& out, BinaryPosition at);

    const SkipReport& skipped() const { return m_skipped; }
    int64_t accepted() const { return m_accepted; }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    bool m_skipBad;
    SkipReport m_skipped;
    int64_t m_accepted = 0;
    int64_t m_previousUs = INT64_MIN;
};

} // namespace stackscope::vpoc
