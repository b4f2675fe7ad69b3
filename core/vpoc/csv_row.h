// One CSV row of bars or trades checked and converted, shared by the sequential and the parallel reader.
#pragma once

#include "core/vpoc/market_data.h"
#include "core/vpoc/time_zones.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stackscope::vpoc {

// Where a row is wrong: the 1-based column and what to do.
struct RowError {
    int64_t column = 1;
    std::string message;
};

// The columns a header names, and the format and delimiter it implies.
struct CsvLayout {
    DataFormat format = DataFormat::Auto;
    char delimiter = ',';
    size_t fieldCount = 0;
    int timestamp = -1, date = -1, timeOfDay = -1;
    int open = -1, high = -1, low = -1, close = -1, volume = -1, price = -1;
    int volume2 = -1; // TradeStation's Up and Down columns: volume is their sum
    std::vector<std::string> headerNames; // lower-cased, for matching
    std::vector<std::string> headerShown; // as the file writes them, for messages
    std::vector<int> extraIndex; // every column VPOC does not use, in order
};

// A line that holds no row: blank, a `#` comment, or the footer Barchart writes under its downloads.
bool isNonDataLine(std::string_view trimmed);

// NinjaTrader text files have no header: `yyyyMMdd HHmmss;o;h;l;c;v` bars, `yyyyMMdd HHmmss fffffff;last;bid;
// ask;volume` ticks (NinjaTrader 8) and `yyyyMMdd HHmmss;price;volume` ticks (older), as documented at
// https://ninjatrader.com/support/helpGuides/nt8/en-us/importing.htm. True (and the layout filled) when
// `firstLine` is one of them.
bool ninjaTraderLayout(std::string_view firstLine, CsvLayout& out);

// Reads a header line (BOM already removed). Returns the error when the header does not fit `requested`.
std::optional<RowError> parseCsvHeader(std::string_view line, DataFormat requested, CsvLayout& out);

// A converted row before the checks that need the previous row: the two readings of a naive time in the
// repeated DST hour (equal elsewhere).
struct ParsedRow {
    MarketRecord rec;
    int64_t early = 0;
    int64_t late = 0;
};

std::string_view trimCsvField(std::string_view s);
// Offset of the first byte that breaks UTF-8, or npos.
size_t invalidUtf8(std::string_view s);
// A finite decimal number, optional leading '+', nothing else.
bool parseCsvDouble(std::string_view s, double& out);
// The message for a line longer than `maxLine` of which `dropped` bytes were skipped.
std::string longLineMessage(size_t maxLine, size_t dropped);
// The messages of the checks that need the previous row or the first good row.
std::string timeOrderMessage(bool duplicate);
std::string badExtraMessage(std::string_view field, const std::string& column);

// Splits and checks rows one by one; each thread of a parallel read has its own (the tz cache is not shared).
class CsvRowParser {
public:
    CsvRowParser(const CsvLayout& layout, const ReadOptions& options);
    // All checks that depend on this row alone, in the order the sequential reader makes them.
    bool parse(std::string_view line, ParsedRow& row, RowError& error);
    // After parse(): the row's fields and their 1-based columns.
    std::string_view field(int index) const { return m_fields[static_cast<size_t>(index)]; }
    int64_t column(int index) const { return static_cast<int64_t>(m_fieldStart[static_cast<size_t>(index)]) + 1; }
    // Column of the timestamp (or date), where time order errors point.
    int64_t timeColumn() const { return column(m_layout.timestamp >= 0 ? m_layout.timestamp : m_layout.date); }
    // An extra column: true when empty (NaN) or a number.
    bool extra(int index, double& value) const;

private:
    bool split(std::string_view line, RowError& error);
    bool price(int idx, const char* what, int32_t& out, RowError& error) const;
    bool volume(int idx, uint32_t& out, RowError& error) const;
    bool ranges(const MarketRecord& rec, RowError& error) const;

    const CsvLayout& m_layout;
    double m_tick;
    TimestampReader m_time;
    std::vector<std::string_view> m_fields;
    std::vector<size_t> m_fieldStart;
};

} // namespace stackscope::vpoc
