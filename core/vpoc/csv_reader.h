// Streaming reader of bars or trades from CSV: reads in blocks, never the whole file, and checks every row.
#pragma once

#include "core/vpoc/csv_row.h"
#include "core/vpoc/market_data.h"
#include "core/vpoc/time_zones.h"

#include <cstdint>
#include <fstream>
#include <istream>
#include <memory>
#include <string>
#include <vector>

namespace stackscope::vpoc {

class MarketDataReader {
public:
    // Opens the file and reads its header. Throws InputError on bad input, std::runtime_error when the
    // file cannot be opened, std::invalid_argument on a bad option (an unknown time zone).
    MarketDataReader(const std::string& path, const ReadOptions& options);
    // Reads from a stream; `name` stands for the file in messages (used by tests and the fuzzer).
    MarketDataReader(std::istream& in, const std::string& name, const ReadOptions& options);

    DataFormat format() const { return m_format; }
    // Numeric columns beyond the ones VPOC needs (vix, ...), kept row by row in `extras`.
    const std::vector<std::string>& extraColumns() const { return m_extraNames; }

    // Appends up to maxRows good rows (and their extra values, extraColumns().size() per row, when
    // `extras` is given). Returns false once the file is exhausted and nothing was appended.
    bool read(std::vector<MarketRecord>& out, size_t maxRows, std::vector<double>* extras = nullptr);

    const SkipReport& skipped() const { return m_skipped; }
    // The header as read, and where the data rows start (for the parallel reader).
    const CsvLayout& layout() const { return m_layout; }
    int64_t linesRead() const { return m_lineNo; }
    int64_t rowsAccepted() const { return m_accepted; }
    uint64_t bytesConsumed() const { return m_consumed; }
    uint64_t totalBytes() const { return m_totalBytes; } // 0 when unknown (a stream)

private:
    void readHeader();
    bool nextLine(std::string_view& line);
    // Parses one data line; returns false (after recording or throwing) when the row is bad.
    bool parseRow(std::string_view line, MarketRecord& rec, std::vector<double>* extras);
    [[noreturn]] void fail(int64_t column, const std::string& message) const;
    void reject(int64_t column, const std::string& message);

    std::unique_ptr<std::ifstream> m_file;
    std::istream* m_in = nullptr;
    std::string m_name;
    ReadOptions m_options;

    std::vector<char> m_buffer;
    size_t m_begin = 0;
    size_t m_end = 0;
    bool m_eof = false;
    std::string m_longLine;
    int64_t m_lineNo = 0;
    uint64_t m_consumed = 0;
    uint64_t m_totalBytes = 0;

    DataFormat m_format = DataFormat::Auto;
    CsvLayout m_layout;
    std::unique_ptr<CsvRowParser> m_rows;
    std::vector<int> m_extraIndex;
    std::vector<std::string> m_extraNames;
    bool m_extrasDecided = false;

    int64_t m_previousUs = INT64_MIN;
    int64_t m_accepted = 0;
    SkipReport m_skipped;
};

} // namespace stackscope::vpoc
