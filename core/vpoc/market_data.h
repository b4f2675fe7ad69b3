// Market data as read from CSV: bars or trades with prices in integer ticks, and the reading options.
#pragma once

#include "core/util/error.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace stackscope {
class TaskRunner;
}

namespace stackscope::vpoc {

enum class DataFormat { Auto, Bars, Trades };

// One bar or trade. Prices are ticks (round(price / tick)); a trade has open = high = low = close.
struct MarketRecord {
    int64_t timeUs = 0; // UTC, microseconds since the epoch
    int32_t open = 0;
    int32_t high = 0;
    int32_t low = 0;
    int32_t close = 0;
    uint32_t volume = 0;
};

// A price step as given on the command line: the value, and its decimal places for printing prices.
struct Tick {
    double value = 0.25;
    int decimals = 2;
    static Tick parse(const std::string& text); // throws std::invalid_argument with a message
    double price(int64_t ticks) const;
};

struct ReadOptions {
    DataFormat format = DataFormat::Auto;
    Tick tick;
    std::string timeZone = "America/New_York"; // for naive timestamps
    bool timeZoneGiven = false; // set when the user chose it: NinjaTrader files are otherwise read as UTC
    bool skipBad = false;
    size_t maxLineBytes = 1 << 16;
    // The threads a CSV is parsed on: runVpoc gives its run's runner (sized once from VpocOptions::threads, shared
    // with the profiles); a reader opened on its own (tests, benchmarks) makes one of `threads` (0 = every usable).
    std::shared_ptr<TaskRunner> pool;
    unsigned threads = 0;
    size_t windowBytes = 0;  // bytes read and parsed at once; 0 = 8 MiB a thread, at most 16 MiB (two are held)
};

// A place in a binary file: the 1-based record (-1 when none) and the byte offset in the (decompressed) data
// (UINT64_MAX when not known).
struct BinaryPosition {
    int64_t record = -1;
    uint64_t byte = 0;
};

// Bad input at a place in a file: what() is "file:line:column: what and what to do", "file: ..." when there
// is no line (line 0: the file cannot be opened or read), or for binary files "file: record R at byte B: ..."
// (line() is then the record, column() the byte + 1).
class InputError : public Error {
public:
    InputError(const std::string& file, int64_t line, int64_t column, const std::string& message);
    InputError(const std::string& file, BinaryPosition at, const std::string& message);
    int64_t line() const { return m_line; }
    int64_t column() const { return m_column; }
    const std::string& reason() const { return m_reason; }

private:
    int64_t m_line;
    int64_t m_column;
    std::string m_reason;
};

// Rows skipped under --skip-bad: how many, and the first few messages.
struct SkipReport {
    int64_t count = 0;
    std::vector<std::string> first;
    static constexpr size_t kKept = 5;
};

} // namespace stackscope::vpoc
