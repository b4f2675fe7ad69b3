// Header detection and the per-row checks of bars and trades, with the messages a person acts on.
#include "core/vpoc/csv_row.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace stackscope::vpoc {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

int findColumn(const std::vector<std::string>& names, std::initializer_list<const char*> wanted)
{
    for (const char* n : wanted)
        for (size_t i = 0; i < names.size(); ++i)
            if (names[i] == n)
                return static_cast<int>(i);
    return -1;
}

// A line quoted in a message: at most 60 characters, cut in the middle.
std::string shortened(std::string_view line)
{
    constexpr size_t kMax = 60;
    std::string text(line.substr(0, line.find_last_not_of(" \r\n\t") + 1));
    if (text.size() <= kMax)
        return text;
    // Cut on UTF-8 character starts, never inside one.
    size_t head = kMax / 2, tail = text.size() - kMax / 2;
    while (head > 0 && (static_cast<unsigned char>(text[head]) & 0xC0) == 0x80)
        --head;
    while (tail < text.size() && (static_cast<unsigned char>(text[tail]) & 0xC0) == 0x80)
        ++tail;
    return text.substr(0, head) + "..." + text.substr(tail);
}

std::optional<RowError> requireColumns(CsvLayout& l)
{
    const std::string have = fmt::format("the header has: {}", fmt::join(l.headerShown.empty() ? l.headerNames : l.headerShown, ", "));
    const bool bars = l.format == DataFormat::Bars;
    auto missing = [&](const char* name) {
        return RowError {1, fmt::format("missing column '{}' ({}); {} need timestamp (or date and time), {}", name,
                                        have, bars ? "bars" : "trades",
                                        bars ? "open, high, low, close, volume" : "price, size")};
    };
    if (l.timestamp < 0 && (l.date < 0 || l.timeOfDay < 0))
        return missing(l.date >= 0 ? "time" : "timestamp");
    if (bars) {
        for (auto [idx, name] : {std::pair {l.open, "open"}, std::pair {l.high, "high"}, std::pair {l.low, "low"},
                                 std::pair {l.close, "close"}, std::pair {l.volume, "volume"}})
            if (idx < 0)
                return missing(name);
    } else {
        if (l.price < 0)
            return missing("price");
        if (l.volume < 0)
            return missing("size");
    }
    return std::nullopt;
}

} // namespace

std::string_view trimCsvField(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"')
        s = s.substr(1, s.size() - 2);
    return s;
}

size_t invalidUtf8(std::string_view s)
{
    size_t i = 0;
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    while (i < s.size()) {
        // ASCII, nearly every byte of market data: eight at a time (this check was a sixth of the parse).
        for (uint64_t word; i + 8 <= s.size(); i += 8) {
            std::memcpy(&word, p + i, 8);
            if (word & 0x8080808080808080ull)
                break;
        }
        if (i >= s.size())
            break;
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

bool parseCsvDouble(std::string_view s, double& out)
{
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    if (s.empty())
        return false;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(out);
}

std::string longLineMessage(size_t maxLine, size_t dropped)
{
    return fmt::format("a line longer than {} bytes ({} at least); this is not a market data row (is the file binary "
                       "or missing line breaks?)",
                       maxLine, dropped);
}

std::string timeOrderMessage(bool duplicate)
{
    return duplicate ? "duplicate timestamp (bars must have strictly increasing times); remove the repeated bar"
                     : "timestamp goes back before the previous row; sort the file by time";
}

std::string badExtraMessage(std::string_view field, const std::string& column)
{
    return fmt::format("bad number '{}' in column '{}'; write a number or leave it empty", field, column);
}

bool isNonDataLine(std::string_view t)
{
    static constexpr std::string_view kBarchartFooter = "Downloaded from Barchart";
    return t.empty() || t.front() == '#' || t.substr(0, kBarchartFooter.size()) == kBarchartFooter;
}

bool ninjaTraderLayout(std::string_view line, CsvLayout& l)
{
    auto digitsAt = [&](size_t pos, size_t n) {
        if (pos + n > line.size())
            return false;
        for (size_t i = pos; i < pos + n; ++i)
            if (line[i] < '0' || line[i] > '9')
                return false;
        return true;
    };
    if (!digitsAt(0, 8) || line.size() < 16 || line[8] != ' ' || !digitsAt(9, 6))
        return false;
    const bool fraction = line.size() > 23 && line[15] == ' ' && digitsAt(16, 7) && line[23] == ';';
    if (!fraction && line[15] != ';')
        return false;
    const size_t fields = static_cast<size_t>(std::count(line.begin(), line.end(), ';')) + 1;
    const bool bars = !fraction && fields == 6;
    if (!bars && fields != 3 && !(fraction && fields == 5))
        return false;
    l = CsvLayout {};
    l.delimiter = ';';
    l.fieldCount = fields;
    l.timestamp = 0;
    if (bars) {
        l.format = DataFormat::Bars;
        l.headerNames = {"timestamp", "open", "high", "low", "close", "volume"};
        l.open = 1, l.high = 2, l.low = 3, l.close = 4, l.volume = 5;
    } else {
        l.format = DataFormat::Trades;
        l.headerNames = fields == 5 ? std::vector<std::string> {"timestamp", "price", "bid", "ask", "volume"}
                                    : std::vector<std::string> {"timestamp", "price", "volume"};
        l.price = 1;
        l.volume = static_cast<int>(fields) - 1; // bid and ask are not used
    }
    return true;
}

std::optional<RowError> parseCsvHeader(std::string_view line, DataFormat requested, CsvLayout& l)
{
    if (const size_t bad = invalidUtf8(line); bad != std::string_view::npos)
        return RowError {static_cast<int64_t>(bad) + 1, "the header has bytes that are not UTF-8; save the file as UTF-8"};
    const size_t commas = std::count(line.begin(), line.end(), ',');
    const size_t semis = std::count(line.begin(), line.end(), ';');
    const size_t tabs = std::count(line.begin(), line.end(), '\t');
    l.delimiter = commas >= semis && commas >= tabs ? ',' : (semis >= tabs ? ';' : '\t');
    size_t start = 0;
    for (;;) {
        const size_t end = line.find(l.delimiter, start);
        const std::string name(trimCsvField(line.substr(start, end == std::string_view::npos ? end : end - start)));
        l.headerShown.push_back(name);
        l.headerNames.push_back(lower(name));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    const auto& names = l.headerNames;
    l.fieldCount = names.size();
    l.timestamp = findColumn(names, {"timestamp", "datetime"});
    l.date = findColumn(names, {"date"});
    l.timeOfDay = findColumn(names, {"time"});
    if (l.timestamp < 0 && l.date < 0 && l.timeOfDay >= 0) {
        l.timestamp = l.timeOfDay; // a lone `time` column holds full timestamps
        l.timeOfDay = -1;
    }
    l.open = findColumn(names, {"open"});
    l.high = findColumn(names, {"high"});
    l.low = findColumn(names, {"low"});
    l.close = findColumn(names, {"close", "last"});
    l.volume = findColumn(names, {"volume", "size", "vol", "totalvolume", "total volume"});
    if (l.volume < 0 && findColumn(names, {"up"}) >= 0 && findColumn(names, {"down"}) >= 0) {
        l.volume = findColumn(names, {"up"});
        l.volume2 = findColumn(names, {"down"});
    }
    l.price = findColumn(names, {"price"});
    if (requested != DataFormat::Auto)
        l.format = requested;
    else if (l.open >= 0 || l.high >= 0 || l.low >= 0 || l.close >= 0)
        l.format = DataFormat::Bars;
    else if (l.price >= 0)
        l.format = DataFormat::Trades;
    else if (l.timestamp < 0 && l.date < 0 && l.timeOfDay < 0 && l.volume < 0)
        // Nothing a market data file has: a log, an error message or another file given by mistake.
        return RowError {1, fmt::format("not market data: the first line (\"{}\") names no column of bars or trades; "
                                        "give a CSV whose header has timestamp (or date and time) with open, high, low, "
                                        "close, volume for bars, or price and size for trades",
                                        shortened(line))};
    else
        return RowError {1, fmt::format("cannot tell bars from trades (the header has: {}); bars need open, high, "
                                        "low, close, volume and trades need price and size, or pass --format",
                                        fmt::join(l.headerShown, ", "))};
    if (auto err = requireColumns(l))
        return err;
    if (l.format == DataFormat::Bars && findColumn(names, {"volume"}) >= 0)
        l.volume = findColumn(names, {"volume"});
    for (int idx = 0; idx < static_cast<int>(names.size()); ++idx)
        if (idx != l.timestamp && idx != l.date && idx != l.timeOfDay && idx != l.open && idx != l.high
            && idx != l.low && idx != l.close && idx != l.volume && idx != l.volume2 && idx != l.price)
            l.extraIndex.push_back(idx);
    return std::nullopt;
}

CsvRowParser::CsvRowParser(const CsvLayout& layout, const ReadOptions& options)
    : m_layout(layout)
    , m_tick(options.tick.value)
    , m_time(options.timeZone)
{
}

bool CsvRowParser::split(std::string_view line, RowError& error)
{
    m_fields.clear();
    m_fieldStart.clear();
    const char delim = m_layout.delimiter;
    size_t start = 0;
    for (;;) {
        const size_t end = line.find(delim, start);
        m_fieldStart.push_back(start);
        m_fields.push_back(trimCsvField(line.substr(start, end == std::string_view::npos ? end : end - start)));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    if (m_fields.size() == m_layout.fieldCount)
        return true;
    error = {static_cast<int64_t>(line.size()) + 1,
             fmt::format("the row has {} fields but the header has {}; fix the row (a stray '{}' or a missing value?)",
                         m_fields.size(), m_layout.fieldCount, delim == '\t' ? std::string("tab") : std::string(1, delim))};
    return false;
}

bool CsvRowParser::price(int idx, const char* what, int32_t& out, RowError& error) const
{
    double v = 0;
    const auto f = field(idx);
    if (!parseCsvDouble(f, v)) {
        error = {column(idx), fmt::format("bad number '{}' for {}; write a decimal price such as 5123.25", f, what)};
        return false;
    }
    const double x = v / m_tick;
    const double r = std::round(x);
    if (std::fabs(r) > static_cast<double>(std::numeric_limits<int32_t>::max())) {
        error = {column(idx), fmt::format("{} {} is {} ticks of {}, too many; check --tick", what, f, r, m_tick)};
        return false;
    }
    // Off the grid by more than the error of a decimal number read into a double.
    if (std::fabs(x - r) > 1e-6) {
        error = {column(idx), fmt::format("{} {} is not on the tick grid of {}; pass the right --tick or fix the price",
                                          what, f, m_tick)};
        return false;
    }
    out = static_cast<int32_t>(r);
    return true;
}

bool CsvRowParser::volume(int idx, uint32_t& out, RowError& error) const
{
    double v = 0;
    const auto f = field(idx);
    if (!parseCsvDouble(f, v) || v != std::floor(v)) {
        error = {column(idx), fmt::format("bad volume '{}'; volumes are whole numbers", f)};
        return false;
    }
    if (v < 0) {
        error = {column(idx), fmt::format("negative volume {}; volumes are zero or more, fix the row", f)};
        return false;
    }
    if (v > static_cast<double>(std::numeric_limits<uint32_t>::max())) {
        error = {column(idx), fmt::format("volume {} is larger than 4294967295 for one row; split the row or check "
                                          "the column",
                                          f)};
        return false;
    }
    out = static_cast<uint32_t>(v);
    return true;
}

bool CsvRowParser::ranges(const MarketRecord& rec, RowError& error) const
{
    const auto& l = m_layout;
    if (rec.high < rec.low) {
        error = {column(l.high), fmt::format("high {} is below low {}; fix the row or swap the columns", field(l.high),
                                             field(l.low))};
        return false;
    }
    if (rec.open < rec.low || rec.open > rec.high || rec.close < rec.low || rec.close > rec.high) {
        const int idx = rec.open < rec.low || rec.open > rec.high ? l.open : l.close;
        error = {column(idx), fmt::format("{} {} lies outside low {} .. high {}; fix the row",
                                          idx == l.open ? "open" : "close", field(idx), field(l.low), field(l.high))};
        return false;
    }
    return true;
}

bool CsvRowParser::parse(std::string_view line, ParsedRow& row, RowError& error)
{
    if (const size_t bad = invalidUtf8(line); bad != std::string_view::npos) {
        error = {static_cast<int64_t>(bad) + 1, "bytes that are not UTF-8; save the file as UTF-8 or fix the row"};
        return false;
    }
    if (!split(line, error))
        return false;
    const auto& l = m_layout;
    const auto timeErr = l.timestamp >= 0 ? m_time.readCandidates(field(l.timestamp), row.early, row.late)
                                          : m_time.readCandidates(field(l.date), field(l.timeOfDay), row.early, row.late);
    if (timeErr) {
        error = {timeColumn(), "bad timestamp " + *timeErr};
        return false;
    }
    MarketRecord& rec = row.rec;
    if (l.format == DataFormat::Bars) {
        if (!price(l.open, "open", rec.open, error) || !price(l.high, "high", rec.high, error)
            || !price(l.low, "low", rec.low, error) || !price(l.close, "close", rec.close, error)
            || !volume(l.volume, rec.volume, error) || !ranges(rec, error))
            return false;
    } else {
        if (!price(l.price, "price", rec.close, error) || !volume(l.volume, rec.volume, error))
            return false;
        rec.open = rec.high = rec.low = rec.close;
    }
    uint32_t down = 0;
    if (l.volume2 >= 0) {
        if (!volume(l.volume2, down, error))
            return false;
        if (rec.volume > UINT32_MAX - down) {
            error = {column(l.volume2), "up + down volume is larger than 4294967295 for one row; check the columns"};
            return false;
        }
        rec.volume += down;
    }
    return true;
}

bool CsvRowParser::extra(int index, double& value) const
{
    const auto f = field(index);
    value = std::numeric_limits<double>::quiet_NaN();
    return f.empty() || parseCsvDouble(f, value);
}

} // namespace stackscope::vpoc
