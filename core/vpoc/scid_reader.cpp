// Sierra Chart .scid records to market records: SCDateTime to UTC microseconds, float prices to ticks.
#include "core/vpoc/scid_reader.h"

#include <fmt/format.h>

#include <cstring>

namespace stackscope::vpoc {

namespace {

template <typename T>
T le(const unsigned char* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

constexpr size_t kHeader = 56;
constexpr size_t kRecord = 40;
// s_IntradayRecord's markers of a tick record (Sierra Chart's documentation): 0, and the first and last
// sub-trade of an unbundled trade.
bool isTick(float open)
{
    return open == 0.0f || open == -1.99900095e37f || open == -1.99900197e37f;
}

} // namespace

ScidReader::ScidReader(const std::string& path, const ReadOptions& options)
    : m_bytes(path)
    , m_options(options)
    , m_checks(path, options)
{
    unsigned char h[kHeader] = {};
    auto bad = [&](uint64_t byte, const std::string& what) {
        throw InputError(path, BinaryPosition {-1, byte}, what);
    };
    if (m_bytes.read(h, kHeader) != kHeader || std::memcmp(h, "SCID", 4) != 0)
        bad(0, "not a Sierra Chart intraday file (no \"SCID\" header of 56 bytes)");
    const uint32_t headerSize = le<uint32_t>(h + 4);
    const uint32_t recordSize = le<uint32_t>(h + 8);
    if (headerSize < kHeader || headerSize > (1u << 20))
        bad(4, fmt::format("header size {} is impossible (56 expected); the file is damaged", headerSize));
    if (recordSize != kRecord)
        bad(8, fmt::format("record size {} but s_IntradayRecord has 40 bytes; this is another version of the format",
                           recordSize));
    m_headerSize = headerSize;
    std::vector<unsigned char> skip(headerSize - kHeader);
    if (m_bytes.read(skip.data(), skip.size()) != skip.size())
        bad(kHeader, "the file ends inside its header");
    m_first.resize(kRecord);
    if (next(m_first.data()))
        m_format = isTick(le<float>(m_first.data() + 8)) ? DataFormat::Trades : DataFormat::Bars;
    else
        m_first.clear();
    if (options.format != DataFormat::Auto && m_format != DataFormat::Auto && options.format != m_format)
        bad(kHeader, fmt::format("--format {} but the file holds {}; leave --format at auto",
                                 options.format == DataFormat::Bars ? "bars" : "trades",
                                 m_format == DataFormat::Bars ? "bars" : "ticks (trades)"));
}

void ScidReader::failAt(int64_t record, const std::string& message) const
{
    throw InputError(m_bytes.path(), BinaryPosition {record, m_headerSize + static_cast<uint64_t>(record - 1) * kRecord},
                     message);
}

bool ScidReader::next(unsigned char* rec)
{
    m_recordByte = m_bytes.position();
    const size_t got = m_bytes.read(rec, kRecord);
    if (got == 0)
        return false;
    ++m_record;
    if (got != kRecord)
        throw InputError(m_bytes.path(), BinaryPosition {m_record, m_recordByte},
                         fmt::format("the file ends {} bytes into a 40-byte record (cut short while written?); "
                                     "copy it again once Sierra Chart has flushed it",
                                     got));
    return true;
}

bool ScidReader::convert(const unsigned char* r, MarketRecord& out)
{
    const BinaryPosition at {m_record, m_recordByte};
    const int64_t dt = le<int64_t>(r);
    if (dt < 0 || dt > kEpochOffsetUs * 4)
        return m_checks.reject(at, fmt::format("date-time {} is not a time between 1899-12-30 and 2179; the record is "
                                               "damaged",
                                               dt));
    out.timeUs = dt - kEpochOffsetUs;
    const float open = le<float>(r + 8);
    const bool tick = isTick(open);
    if (tick != (m_format == DataFormat::Trades))
        return m_checks.reject(at, tick ? "a tick record in a file of bars" : "a bar record in a file of ticks");
    const double t = m_options.tick.value;
    if (tick) {
        if (!m_checks.ticksOfFloat(le<float>(r + 20), t, "price", out.close, at))
            return false;
        out.open = out.high = out.low = out.close;
    } else if (!m_checks.ticksOfFloat(open, t, "open", out.open, at)
               || !m_checks.ticksOfFloat(le<float>(r + 12), t, "high", out.high, at)
               || !m_checks.ticksOfFloat(le<float>(r + 16), t, "low", out.low, at)
               || !m_checks.ticksOfFloat(le<float>(r + 20), t, "close", out.close, at)) {
        return false;
    }
    out.volume = le<uint32_t>(r + 28); // TotalVolume
    return m_checks.accept(out, !tick, at);
}

bool ScidReader::read(std::vector<MarketRecord>& out, size_t maxRows, std::vector<double>*, std::vector<int64_t>* positions)
{
    size_t added = 0;
    unsigned char buf[kRecord];
    MarketRecord rec;
    while (added < maxRows) {
        const unsigned char* r = buf;
        if (!m_first.empty()) {
            r = m_first.data();
        } else if (!next(buf)) {
            break;
        }
        const int64_t record = m_first.empty() ? m_record : 1;
        const bool ok = convert(r, rec);
        m_first.clear();
        if (!ok)
            continue;
        out.push_back(rec);
        if (positions)
            positions->push_back(record);
        ++added;
    }
    return added > 0;
}

} // namespace stackscope::vpoc
