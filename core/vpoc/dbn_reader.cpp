// DBN metadata and records, read little-endian with every length checked against what the file holds.
#include "core/vpoc/dbn_reader.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace stackscope::vpoc {

namespace {

template <typename T>
T le(const unsigned char* p)
{
    T v;
    std::memcpy(&v, p, sizeof v); // DBN is little-endian, as is every machine StackScope builds for
    return v;
}

constexpr uint8_t kTrade = 0x00;
bool isOhlcv(uint8_t rtype) { return rtype == 0x11 || (rtype >= 0x20 && rtype <= 0x24); }

// Schema ids of rust/dbn/src/enums.rs: 4 trades, 5-8 ohlcv-1s/1m/1h/1d, 13 ohlcv-eod, 0xFFFF mixed.
const char* schemaName(uint16_t s)
{
    switch (s) {
    case 4: return "trades";
    case 5: return "ohlcv-1s";
    case 6: return "ohlcv-1m";
    case 7: return "ohlcv-1h";
    case 8: return "ohlcv-1d";
    case 13: return "ohlcv-eod";
    case 0xFFFF: return "mixed";
    default: return nullptr;
    }
}

// Reads the metadata's variable part: bounds-checked cursor over the metadata bytes.
struct Cursor {
    const std::vector<unsigned char>& m;
    size_t pos;
    bool ok = true;
    uint32_t u32()
    {
        if (pos + 4 > m.size()) {
            ok = false;
            return 0;
        }
        pos += 4;
        return le<uint32_t>(m.data() + pos - 4);
    }
    std::string cstr(size_t len)
    {
        if (pos + len > m.size()) {
            ok = false;
            return {};
        }
        const char* p = reinterpret_cast<const char*>(m.data() + pos);
        pos += len;
        return std::string(p, strnlen(p, len));
    }
};

} // namespace

DbnReader::DbnReader(const std::string& path, const ReadOptions& options)
    : m_bytes(path)
    , m_options(options)
    , m_checks(path, options)
{
    const double tn = options.tick.value * 1e9;
    m_tickNanos = std::llround(tn);
    if (m_tickNanos <= 0 || std::fabs(tn - static_cast<double>(m_tickNanos)) > 1e-3)
        throw std::invalid_argument(fmt::format("--tick {}: DBN prices are in units of 1e-9; give a tick that is a "
                                                "whole number of them",
                                                options.tick.value));
    readMetadata();
}

std::string DbnReader::kind() const
{
    std::string symbols;
    for (const auto& [id, s] : m_symbols)
        symbols += (symbols.empty() ? "" : ", ") + s;
    return fmt::format("Databento DBN v{} {} {}{}", m_version, m_dataset, schemaName(m_schema) ? schemaName(m_schema) : "?",
                       symbols.empty() ? "" : " (" + symbols + ")");
}

std::string DbnReader::symbolOf(uint32_t id) const
{
    const auto it = m_symbols.find(id);
    return it == m_symbols.end() ? std::string() : it->second;
}

void DbnReader::failAt(int64_t record, const std::string& message) const
{
    throw InputError(m_bytes.path(), BinaryPosition {record, UINT64_MAX}, message);
}

void DbnReader::readMetadata()
{
    unsigned char head[8] = {};
    const size_t got = m_bytes.read(head, 8);
    auto bad = [&](uint64_t byte, const std::string& what) {
        throw InputError(m_bytes.path(), BinaryPosition {-1, byte}, what);
    };
    if (got < 8 || std::memcmp(head, "DBN", 3) != 0)
        bad(0, "not a Databento DBN file (no \"DBN\" at the start)");
    m_version = head[3];
    if (m_version < 1 || m_version > 3)
        bad(3, fmt::format("DBN version {}; this StackScope reads versions 1 to 3 (convert it with Databento's dbn "
                           "CLI: dbn FILE --output-version 3)",
                           m_version));
    const uint32_t length = le<uint32_t>(head + 4);
    if (length < 100 || length > (64u << 20))
        bad(4, fmt::format("metadata length {} is impossible; the file is damaged", length));
    std::vector<unsigned char> m(length);
    if (m_bytes.read(m.data(), length) != length)
        bad(8 + static_cast<uint64_t>(length), "the file ends inside its metadata; download it again");
    m_dataset = std::string(reinterpret_cast<const char*>(m.data()), strnlen(reinterpret_cast<const char*>(m.data()), 16));
    m_schema = le<uint16_t>(m.data() + 16);
    if (!schemaName(m_schema))
        bad(24, fmt::format("schema {} holds no trades or OHLCV bars; download the trades or an ohlcv schema", m_schema));
    m_format = m_schema == 4 ? DataFormat::Trades : m_schema == 0xFFFF ? DataFormat::Auto : DataFormat::Bars;
    // DBN files carry their own schema: --format must agree with it (a mixed-schema file reads only the kind given).
    if (m_options.format != DataFormat::Auto && m_format == DataFormat::Auto)
        m_format = m_options.format;
    else if (m_options.format != DataFormat::Auto && m_options.format != m_format)
        bad(24, fmt::format("--format {} but this DBN file's schema is {} (DBN files carry their own schema); leave "
                            "--format at auto, or download the {} schema",
                            m_options.format == DataFormat::Bars ? "bars" : "trades", schemaName(m_schema),
                            m_options.format == DataFormat::Bars ? "ohlcv-1m" : "trades"));
    // Offsets below are in the metadata (file offset - 8): v1 has record_count at 42 and 22-byte symbols,
    // v2 and v3 give the symbol length at 45; the fixed part is 100 bytes either way.
    const size_t cstrLen = m_version == 1 ? 22 : le<uint16_t>(m.data() + 45);
    if (cstrLen == 0 || cstrLen > 1024)
        bad(53, fmt::format("symbol length {} is impossible; the file is damaged", cstrLen));
    Cursor c {m, 100};
    const uint32_t schemaDefinition = c.u32();
    c.pos += schemaDefinition;
    for (int list = 0; list < 3 && c.ok; ++list) { // symbols, partial, not_found
        const uint32_t n = c.u32();
        if (static_cast<uint64_t>(n) * cstrLen > m.size())
            c.ok = false;
        for (uint32_t i = 0; i < n && c.ok; ++i)
            c.cstr(cstrLen);
    }
    const uint32_t mappings = c.ok ? c.u32() : 0;
    for (uint32_t i = 0; i < mappings && c.ok; ++i) {
        const std::string raw = c.cstr(cstrLen);
        const uint32_t intervals = c.u32();
        for (uint32_t k = 0; k < intervals && c.ok; ++k) {
            c.u32(); // start_date YYYYMMDD
            c.u32(); // end_date
            const std::string id = c.cstr(cstrLen);
            char* end = nullptr;
            const unsigned long v = std::strtoul(id.c_str(), &end, 10);
            if (c.ok && !id.empty() && end && *end == '\0' && v <= UINT32_MAX)
                m_symbols[static_cast<uint32_t>(v)] = raw;
        }
    }
    if (!c.ok)
        bad(8 + c.pos, "the metadata's symbol lists run past its length; the file is damaged");
}

// Reads the next record into m_rec; false at the end of the data.
bool DbnReader::nextRecord()
{
    m_recordByte = m_bytes.position();
    unsigned char len = 0;
    if (m_bytes.read(&len, 1) == 0)
        return false;
    ++m_record;
    const size_t size = static_cast<size_t>(len) * 4;
    if (size < 16)
        throw InputError(m_bytes.path(), BinaryPosition {m_record, m_recordByte},
                         fmt::format("record length {} bytes is shorter than its header; the file is damaged", size));
    m_rec.resize(size);
    m_rec[0] = len;
    if (m_bytes.read(m_rec.data() + 1, size - 1) != size - 1)
        throw InputError(m_bytes.path(), BinaryPosition {m_record, m_recordByte},
                         "the file ends inside a record (cut short?); download it again");
    return true;
}

// m_rec as a market record; false (after rejecting it or passing it over) when it is not one.
bool DbnReader::convert(MarketRecord& rec)
{
    const unsigned char* r = m_rec.data();
    const uint8_t rtype = r[1];
    const BinaryPosition at {m_record, m_recordByte};
    const bool trade = rtype == kTrade;
    if (!trade && !isOhlcv(rtype))
        return false; // system, symbol mapping, error and statistics records are not market data
    if (m_rec.size() < (trade ? 48u : 56u))
        return m_checks.reject(at, fmt::format("a {} record of {} bytes is too short; the file is damaged",
                                               trade ? "trade" : "OHLCV", m_rec.size()));
    const DataFormat f = trade ? DataFormat::Trades : DataFormat::Bars;
    if (m_format == DataFormat::Auto)
        m_format = f; // a mixed-schema file: the first data record decides
    if (f != m_format)
        return m_checks.reject(at, "trades and bars in one file; VPOC reads one kind: download one schema");
    const uint32_t instrument = le<uint32_t>(r + 4);
    if (m_instrument < 0)
        m_instrument = instrument;
    if (instrument != m_instrument)
        return m_checks.reject(at, fmt::format("instrument {} ({}) after instrument {} ({}); a profile is of one "
                                               "instrument: download one symbol, or pass --skip-bad to keep the first",
                                               instrument, symbolOf(instrument), m_instrument,
                                               symbolOf(static_cast<uint32_t>(m_instrument))));
    const uint64_t tsNs = le<uint64_t>(r + 8);
    if (tsNs == UINT64_MAX || tsNs > static_cast<uint64_t>(INT64_MAX))
        return m_checks.reject(at, "the record has no event time; skip it with --skip-bad");
    rec.timeUs = static_cast<int64_t>(tsNs / 1000);
    if (trade) {
        if (!m_checks.ticksOfNanos(le<int64_t>(r + 16), m_tickNanos, "price", rec.close, at))
            return false;
        rec.open = rec.high = rec.low = rec.close;
        rec.volume = le<uint32_t>(r + 24);
    } else {
        if (!m_checks.ticksOfNanos(le<int64_t>(r + 16), m_tickNanos, "open", rec.open, at)
            || !m_checks.ticksOfNanos(le<int64_t>(r + 24), m_tickNanos, "high", rec.high, at)
            || !m_checks.ticksOfNanos(le<int64_t>(r + 32), m_tickNanos, "low", rec.low, at)
            || !m_checks.ticksOfNanos(le<int64_t>(r + 40), m_tickNanos, "close", rec.close, at))
            return false;
        const uint64_t v = le<uint64_t>(r + 48);
        if (v > UINT32_MAX)
            return m_checks.reject(at, fmt::format("volume {} is larger than 4294967295 for one bar", v));
        rec.volume = static_cast<uint32_t>(v);
    }
    return m_checks.accept(rec, !trade, at);
}

bool DbnReader::read(std::vector<MarketRecord>& out, size_t maxRows, std::vector<double>*, std::vector<int64_t>* positions)
{
    size_t added = 0;
    MarketRecord rec;
    while (added < maxRows && nextRecord()) {
        if (!convert(rec))
            continue;
        out.push_back(rec);
        if (positions)
            positions->push_back(m_record);
        ++added;
    }
    return added > 0;
}

} // namespace stackscope::vpoc
