// Streaming CSV reader for bars and trades: block reads, header detection, row checks with file:line:column.
#include "core/vpoc/csv_reader.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace stackscope::vpoc {

InputError::InputError(const std::string& file, int64_t line, int64_t column, const std::string& message)
    : std::runtime_error(fmt::format("{}:{}:{}: {}", file, line, column, message))
    , m_line(line)
    , m_column(column)
    , m_reason(message)
{
}

Tick Tick::parse(const std::string& text)
{
    Tick t;
    const char* b = text.data();
    const char* e = b + text.size();
    const auto r = std::from_chars(b, e, t.value);
    if (r.ec != std::errc() || r.ptr != e || !(t.value > 0) || !std::isfinite(t.value))
        throw std::invalid_argument(fmt::format("--tick {}: not a positive number; give the price step, for "
                                                "example 0.25 for ES",
                                                text));
    const auto dot = text.find('.');
    t.decimals = dot == std::string::npos ? 0 : static_cast<int>(text.size() - dot - 1);
    return t;
}

double Tick::price(int64_t ticks) const
{
    // Round to the tick's decimals so 0.1-tick prices print as 5123.1, not 5123.1000000000004.
    const double scale = std::pow(10.0, decimals);
    return std::round(static_cast<double>(ticks) * value * scale) / scale;
}

namespace {

constexpr size_t kBlock = 1 << 20;

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string_view trimField(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"')
        s = s.substr(1, s.size() - 2);
    return s;
}

// Offset of the first byte that breaks UTF-8, or npos.
size_t invalidUtf8(std::string_view s)
{
    size_t i = 0;
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    while (i < s.size()) {
        const unsigned char c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        size_t n = 0;
        uint32_t cp = 0;
        if ((c & 0xE0) == 0xC0) {
            n = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3;
            cp = c & 0x07;
        } else {
            return i;
        }
        for (size_t k = 1; k <= n; ++k) {
            if (i + k >= s.size() || (p[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        // Overlong forms, surrogates and values past U+10FFFF are not UTF-8 either.
        if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF
            || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += n + 1;
    }
    return std::string_view::npos;
}

bool parseDouble(std::string_view s, double& out)
{
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    if (s.empty())
        return false;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(out);
}

} // namespace

MarketDataReader::MarketDataReader(const std::string& path, const ReadOptions& options)
    : m_file(std::make_unique<std::ifstream>(path, std::ios::binary))
    , m_in(m_file.get())
    , m_name(path)
    , m_options(options)
    , m_time(options.timeZone)
{
    if (!*m_file)
        throw std::runtime_error(fmt::format("{}: cannot open the file ({}); check the path and its permissions", path,
                                             std::strerror(errno)));
    m_file->seekg(0, std::ios::end);
    const auto size = m_file->tellg();
    m_file->seekg(0, std::ios::beg);
    m_totalBytes = size > 0 ? static_cast<uint64_t>(size) : 0;
    readHeader();
}

MarketDataReader::MarketDataReader(std::istream& in, const std::string& name, const ReadOptions& options)
    : m_in(&in)
    , m_name(name)
    , m_options(options)
    , m_time(options.timeZone)
{
    readHeader();
}

void MarketDataReader::fail(int64_t column, const std::string& message) const
{
    throw InputError(m_name, m_lineNo, column, message);
}

void MarketDataReader::reject(int64_t column, const std::string& message)
{
    if (!m_options.skipBad)
        fail(column, message);
    ++m_skipped.count;
    if (m_skipped.first.size() < SkipReport::kKept)
        m_skipped.first.push_back(fmt::format("{}:{}:{}: {}", m_name, m_lineNo, column, message));
}

bool MarketDataReader::nextLine(std::string_view& line)
{
    const size_t maxLine = m_options.maxLineBytes;
    if (m_buffer.empty())
        m_buffer.resize(std::max(kBlock, 2 * maxLine + 2));
    auto refill = [&] {
        if (m_begin > 0) {
            std::memmove(m_buffer.data(), m_buffer.data() + m_begin, m_end - m_begin);
            m_end -= m_begin;
            m_begin = 0;
        }
        m_in->read(m_buffer.data() + m_end, static_cast<std::streamsize>(m_buffer.size() - m_end));
        const auto got = m_in->gcount();
        m_end += static_cast<size_t>(got);
        if (got == 0 || !*m_in)
            m_eof = m_in->eof() || got == 0;
        if (m_in->bad())
            throw std::runtime_error(fmt::format("{}: read error after {} bytes; check the disk or the file", m_name,
                                                 m_consumed));
    };
    for (;;) {
        const char* base = m_buffer.data() + m_begin;
        const size_t avail = m_end - m_begin;
        const void* nl = std::memchr(base, '\n', std::min(avail, maxLine + 1));
        if (nl) {
            const size_t len = static_cast<size_t>(static_cast<const char*>(nl) - base);
            line = std::string_view(base, len);
            m_begin += len + 1;
            m_consumed += len + 1;
            ++m_lineNo;
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            return true;
        }
        if (avail > maxLine) {
            // A line longer than any sane row: drop the rest of it so that --skip-bad can go on.
            ++m_lineNo;
            size_t dropped = 0;
            for (;;) {
                const char* b = m_buffer.data() + m_begin;
                const void* end = std::memchr(b, '\n', m_end - m_begin);
                if (end) {
                    const size_t n = static_cast<size_t>(static_cast<const char*>(end) - b) + 1;
                    m_begin += n;
                    m_consumed += n;
                    dropped += n;
                    break;
                }
                dropped += m_end - m_begin;
                m_consumed += m_end - m_begin;
                m_begin = m_end;
                if (m_eof)
                    break;
                refill();
            }
            line = std::string_view();
            m_longLine = fmt::format("a line longer than {} bytes ({} at least); this is not a market data row "
                                     "(is the file binary or missing line breaks?)",
                                     maxLine, dropped);
            return true;
        }
        if (m_eof) {
            if (avail == 0)
                return false;
            line = std::string_view(base, avail);
            m_begin = m_end;
            m_consumed += avail;
            ++m_lineNo;
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            return true;
        }
        refill();
    }
}

void MarketDataReader::readHeader()
{
    std::string_view line;
    for (;;) {
        if (!nextLine(line)) {
            const bool empty = m_lineNo == 0;
            m_lineNo = std::max<int64_t>(m_lineNo, 1);
            fail(1, empty ? "the file is empty; give a CSV file with a header row and data rows"
                                  : "the file has no header row, only comments; add a header such as "
                                    "timestamp,open,high,low,close,volume");
        }
        if (!m_longLine.empty())
            fail(m_options.maxLineBytes + 1, m_longLine);
        if (m_lineNo == 1 && line.size() >= 3 && std::memcmp(line.data(), "\xEF\xBB\xBF", 3) == 0)
            line.remove_prefix(3);
        const auto t = trimField(line);
        if (t.empty() || t.front() == '#')
            continue;
        break;
    }
    if (const size_t bad = invalidUtf8(line); bad != std::string_view::npos)
        fail(static_cast<int64_t>(bad) + 1, "the header has bytes that are not UTF-8; save the file as UTF-8");
    const size_t commas = std::count(line.begin(), line.end(), ',');
    const size_t semis = std::count(line.begin(), line.end(), ';');
    const size_t tabs = std::count(line.begin(), line.end(), '\t');
    m_delimiter = commas >= semis && commas >= tabs ? ',' : (semis >= tabs ? ';' : '\t');

    size_t start = 0;
    for (;;) {
        const size_t end = line.find(m_delimiter, start);
        m_headerNames.push_back(lower(trimField(line.substr(start, end == std::string_view::npos ? end : end - start))));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    m_fieldCount = m_headerNames.size();
    auto find = [&](std::initializer_list<const char*> names) {
        for (const char* n : names)
            for (size_t i = 0; i < m_headerNames.size(); ++i)
                if (m_headerNames[i] == n)
                    return static_cast<int>(i);
        return -1;
    };
    m_timestamp = find({"timestamp", "datetime"});
    m_date = find({"date"});
    m_timeOfDay = find({"time"});
    if (m_timestamp < 0 && m_date < 0 && m_timeOfDay >= 0) {
        m_timestamp = m_timeOfDay; // a lone `time` column holds full timestamps
        m_timeOfDay = -1;
    }
    m_open = find({"open"});
    m_high = find({"high"});
    m_low = find({"low"});
    m_close = find({"close"});
    m_volume = find({"volume", "size"});
    m_price = find({"price"});

    const std::string have = fmt::format("the header has: {}", fmt::join(m_headerNames, ", "));
    if (m_options.format == DataFormat::Auto) {
        if (m_open >= 0 || m_high >= 0 || m_low >= 0 || m_close >= 0)
            m_format = DataFormat::Bars;
        else if (m_price >= 0)
            m_format = DataFormat::Trades;
        else
            fail(1, fmt::format("cannot tell bars from trades ({}); bars need open, high, low, close, volume and "
                                "trades need price and size, or pass --format",
                                have));
    } else {
        m_format = m_options.format;
    }
    auto require = [&](int idx, const char* name) {
        if (idx < 0)
            fail(1, fmt::format("missing column '{}' ({}); {} need timestamp (or date and time), {}", name, have,
                                m_format == DataFormat::Bars ? "bars" : "trades",
                                m_format == DataFormat::Bars ? "open, high, low, close, volume" : "price, size"));
    };
    if (m_timestamp < 0 && (m_date < 0 || m_timeOfDay < 0))
        require(-1, m_date >= 0 ? "time" : "timestamp");
    if (m_format == DataFormat::Bars) {
        require(m_open, "open");
        require(m_high, "high");
        require(m_low, "low");
        require(m_close, "close");
        require(m_volume, "volume");
    } else {
        require(m_price, "price");
        if (m_volume < 0)
            require(-1, "size");
    }
    if (m_format == DataFormat::Bars)
        m_volume = find({"volume"}) >= 0 ? find({"volume"}) : m_volume;
    for (size_t i = 0; i < m_headerNames.size(); ++i) {
        const int idx = static_cast<int>(i);
        if (idx != m_timestamp && idx != m_date && idx != m_timeOfDay && idx != m_open && idx != m_high
            && idx != m_low && idx != m_close && idx != m_volume && idx != m_price)
            m_extraIndex.push_back(idx);
    }
}

bool MarketDataReader::read(std::vector<MarketRecord>& out, size_t maxRows, std::vector<double>* extras)
{
    size_t added = 0;
    std::string_view line;
    MarketRecord rec;
    while (added < maxRows && nextLine(line)) {
        if (!m_longLine.empty()) {
            const std::string msg = std::move(m_longLine);
            m_longLine.clear();
            reject(static_cast<int64_t>(m_options.maxLineBytes) + 1, msg);
            continue;
        }
        const auto t = trimField(line);
        if (t.empty() || t.front() == '#')
            continue;
        if (parseRow(line, rec, extras)) {
            out.push_back(rec);
            ++added;
            ++m_accepted;
        }
    }
    return added > 0;
}

bool MarketDataReader::parseRow(std::string_view line, MarketRecord& rec, std::vector<double>* extras)
{
    if (const size_t bad = invalidUtf8(line); bad != std::string_view::npos) {
        reject(static_cast<int64_t>(bad) + 1, "bytes that are not UTF-8; save the file as UTF-8 or fix the row");
        return false;
    }
    m_fields.clear();
    m_fieldStart.clear();
    size_t start = 0;
    for (;;) {
        const size_t end = line.find(m_delimiter, start);
        m_fieldStart.push_back(start);
        m_fields.push_back(trimField(line.substr(start, end == std::string_view::npos ? end : end - start)));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    if (m_fields.size() != m_fieldCount) {
        reject(static_cast<int64_t>(line.size()) + 1,
               fmt::format("the row has {} fields but the header has {}; fix the row (a stray '{}' or a missing "
                           "value?)",
                           m_fields.size(), m_fieldCount, m_delimiter == '\t' ? std::string("tab") : std::string(1, m_delimiter)));
        return false;
    }
    auto col = [&](int idx) { return static_cast<int64_t>(m_fieldStart[static_cast<size_t>(idx)]) + 1; };
    const bool bars = m_format == DataFormat::Bars;

    int64_t us = 0;
    std::optional<std::string> timeErr = m_timestamp >= 0
        ? m_time.read(m_fields[m_timestamp], m_previousUs, !bars, us)
        : m_time.read(m_fields[m_date], m_fields[m_timeOfDay], m_previousUs, !bars, us);
    if (timeErr) {
        reject(col(m_timestamp >= 0 ? m_timestamp : m_date), "bad timestamp " + *timeErr);
        return false;
    }

    const double tick = m_options.tick.value;
    auto price = [&](int idx, const char* what, int32_t& out) {
        double v = 0;
        if (!parseDouble(m_fields[idx], v)) {
            reject(col(idx), fmt::format("bad number '{}' for {}; write a decimal price such as 5123.25", m_fields[idx],
                                         what));
            return false;
        }
        const double x = v / tick;
        const double r = std::round(x);
        if (std::fabs(r) > static_cast<double>(std::numeric_limits<int32_t>::max())) {
            reject(col(idx), fmt::format("{} {} is {} ticks of {}, too many; check --tick", what, m_fields[idx], r, tick));
            return false;
        }
        // Off the grid by more than the error of a decimal number read into a double.
        if (std::fabs(x - r) > 1e-6) {
            reject(col(idx), fmt::format("{} {} is not on the tick grid of {}; pass the right --tick or fix the price",
                                         what, m_fields[idx], m_options.tick.value));
            return false;
        }
        out = static_cast<int32_t>(r);
        return true;
    };
    auto volume = [&](int idx, uint32_t& out) {
        double v = 0;
        const auto f = m_fields[idx];
        if (!parseDouble(f, v) || v != std::floor(v)) {
            reject(col(idx), fmt::format("bad volume '{}'; volumes are whole numbers", f));
            return false;
        }
        if (v < 0) {
            reject(col(idx), fmt::format("negative volume {}; volumes are zero or more, fix the row", f));
            return false;
        }
        if (v > static_cast<double>(std::numeric_limits<uint32_t>::max())) {
            reject(col(idx), fmt::format("volume {} is larger than 4294967295 for one row; split the row or check "
                                         "the column",
                                         f));
            return false;
        }
        out = static_cast<uint32_t>(v);
        return true;
    };

    if (bars) {
        if (!price(m_open, "open", rec.open) || !price(m_high, "high", rec.high) || !price(m_low, "low", rec.low)
            || !price(m_close, "close", rec.close) || !volume(m_volume, rec.volume))
            return false;
        if (rec.high < rec.low) {
            reject(col(m_high), fmt::format("high {} is below low {}; fix the row or swap the columns",
                                            m_fields[m_high], m_fields[m_low]));
            return false;
        }
        if (rec.open < rec.low || rec.open > rec.high || rec.close < rec.low || rec.close > rec.high) {
            const int idx = rec.open < rec.low || rec.open > rec.high ? m_open : m_close;
            reject(col(idx), fmt::format("{} {} lies outside low {} .. high {}; fix the row", idx == m_open ? "open" : "close",
                                         m_fields[idx], m_fields[m_low], m_fields[m_high]));
            return false;
        }
    } else {
        if (!price(m_price, "price", rec.close) || !volume(m_volume, rec.volume))
            return false;
        rec.open = rec.high = rec.low = rec.close;
    }
    if (m_previousUs != INT64_MIN && (us < m_previousUs || (bars && us == m_previousUs))) {
        reject(col(m_timestamp >= 0 ? m_timestamp : m_date),
               us == m_previousUs ? "duplicate timestamp (bars must have strictly increasing times); remove the "
                                    "repeated bar"
                                  : "timestamp goes back before the previous row; sort the file by time");
        return false;
    }

    if (!m_extrasDecided) {
        // Further columns are kept when they hold numbers on the first data row (a symbol column is not).
        std::vector<int> keep;
        for (int idx : m_extraIndex) {
            double v = 0;
            if (parseDouble(m_fields[idx], v) || m_fields[idx].empty()) {
                keep.push_back(idx);
                m_extraNames.push_back(m_headerNames[idx]);
            }
        }
        m_extraIndex = std::move(keep);
        m_extrasDecided = true;
    }
    const size_t extrasBefore = extras ? extras->size() : 0;
    for (int idx : m_extraIndex) {
        double v = std::numeric_limits<double>::quiet_NaN();
        if (!m_fields[idx].empty() && !parseDouble(m_fields[idx], v)) {
            if (extras)
                extras->resize(extrasBefore);
            reject(col(idx), fmt::format("bad number '{}' in column '{}'; write a number or leave it empty",
                                         m_fields[idx], m_headerNames[idx]));
            return false;
        }
        if (extras)
            extras->push_back(v);
    }
    rec.timeUs = us;
    m_previousUs = us;
    return true;
}

} // namespace stackscope::vpoc
