// Any market data file read as bars or trades: the interface of the CSV, DBN, SCID and NinjaTrader readers.
#pragma once

#include "core/vpoc/market_data.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace stackscope::vpoc {

// Rows a reader lends rather than copies: valid until its next read() or borrow().
struct BorrowedRows {
    const MarketRecord* rows = nullptr;
    const int64_t* positions = nullptr; // as read() gives them
    size_t count = 0;
};

class MarketSource {
public:
    virtual ~MarketSource() = default;
    virtual DataFormat format() const = 0;
    // "CSV", "Databento DBN v2 trades (ESH4)", ...: what the file was recognised as.
    virtual std::string kind() const = 0;
    // Numeric columns beyond the ones VPOC needs (vix, ...); known after the first read().
    virtual const std::vector<std::string>& extraColumns() const = 0;
    // Appends up to maxRows good rows; `extras` gets extraColumns().size() values per row, `positions` the
    // row's place in the file (a line for text, a record number for binary files). False once exhausted.
    virtual bool read(std::vector<MarketRecord>& out, size_t maxRows, std::vector<double>* extras = nullptr,
                      std::vector<int64_t>* positions = nullptr) = 0;
    // Up to maxRows good rows and their positions, lent where the reader holds them in memory (the parallel CSV
    // reader: no copy); other readers read() them into `scratch` and `scratchPositions`. False once exhausted.
    virtual bool borrow(size_t maxRows, BorrowedRows& out, std::vector<MarketRecord>& scratch,
                        std::vector<int64_t>& scratchPositions);
    // Throws an InputError at a position read() gave, worded for the file's kind.
    [[noreturn]] virtual void failAt(int64_t position, const std::string& message) const = 0;
    // Where the data ended, for "no rows" errors.
    virtual int64_t endPosition() const = 0;
    virtual const SkipReport& skipped() const = 0;
    virtual int64_t rowsAccepted() const = 0;
    virtual uint64_t bytesConsumed() const = 0;
    // Bytes whose rows read() has handed out: the progress a caller can count on. A reader that parses a
    // large window ahead (the parallel CSV reader) is ahead of this by up to a window in bytesConsumed().
    virtual uint64_t bytesParsed() const { return bytesConsumed(); }
    virtual uint64_t totalBytes() const = 0;
};

// Opens a market data file and picks its reader by content (magic bytes, header), not by name: Databento
// DBN (plain or zstd), Sierra Chart .scid, NinjaTrader text exports, CSV with a header. Throws InputError
// on bad input, std::runtime_error when the file cannot be opened, std::invalid_argument on a bad option.
std::unique_ptr<MarketSource> openMarketFile(const std::string& path, const ReadOptions& options);

} // namespace stackscope::vpoc
