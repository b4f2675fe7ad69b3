// Checks shared by the binary readers, worded like the CSV reader's.
#include "core/vpoc/record_checks.h"

#include "core/vpoc/csv_row.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace stackscope::vpoc {

bool RecordChecks::reject(BinaryPosition at, const std::string& message)
{
    InputError e(m_path, at, message);
    if (!m_skipBad)
        throw e;
    ++m_skipped.count;
    if (m_skipped.first.size() < SkipReport::kKept)
        m_skipped.first.push_back(e.what());
    return false;
}

bool RecordChecks::accept(const MarketRecord& r, bool bars, BinaryPosition at)
{
    if (bars && r.high < r.low)
        return reject(at, fmt::format("high is {} ticks below low; the record is damaged", r.low - r.high));
    if (bars && (r.open < r.low || r.open > r.high || r.close < r.low || r.close > r.high))
        return reject(at, "open or close lies outside low .. high; the record is damaged");
    if (m_previousUs != INT64_MIN && (r.timeUs < m_previousUs || (bars && r.timeUs == m_previousUs)))
        return reject(at, timeOrderMessage(r.timeUs == m_previousUs));
    m_previousUs = r.timeUs;
    ++m_accepted;
    return true;
}

bool RecordChecks::ticksOfNanos(int64_t nanos, int64_t tickNanos, const char* what, int32_t& out, BinaryPosition at)
{
    if (nanos == std::numeric_limits<int64_t>::max())
        return reject(at, fmt::format("{} is undefined (the record has no price); skip it with --skip-bad", what));
    if (nanos % tickNanos != 0)
        return reject(at, fmt::format("{} {:.9f} is not on the tick grid of {:.9f}; pass the right --tick", what,
                                      static_cast<double>(nanos) * 1e-9, static_cast<double>(tickNanos) * 1e-9));
    const int64_t t = nanos / tickNanos;
    if (t > std::numeric_limits<int32_t>::max() || t < std::numeric_limits<int32_t>::min())
        return reject(at, fmt::format("{} {:.9f} is {} ticks, too many; check --tick", what,
                                      static_cast<double>(nanos) * 1e-9, t));
    out = static_cast<int32_t>(t);
    return true;
}

bool RecordChecks::ticksOfFloat(float price, double tick, const char* what, int32_t& out, BinaryPosition at)
{
    const double v = price;
    if (!std::isfinite(v))
        return reject(at, fmt::format("{} is not a number; the record is damaged", what));
    const double x = v / tick;
    const double r = std::round(x);
    if (std::fabs(r) > static_cast<double>(std::numeric_limits<int32_t>::max()))
        return reject(at, fmt::format("{} {} is {} ticks of {}, too many; check --tick", what, v, r, tick));
    // A float carries 24 bits: a price on the grid may be off by half a unit in the last place of the float.
    const double floatError = std::fabs(v) * std::ldexp(1.0, -24) / tick;
    if (std::fabs(x - r) > std::max(1e-6, floatError))
        return reject(at, fmt::format("{} {} is not on the tick grid of {}; pass the right --tick", what, v, tick));
    out = static_cast<int32_t>(r);
    return true;
}

} // namespace stackscope::vpoc
