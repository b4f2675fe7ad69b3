// One line-aligned piece of a CSV window, parsed on a thread of its own: the parallel reader's unit of work.
#pragma once

#include "core/vpoc/csv_row.h"
#include "core/vpoc/market_data.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stackscope::vpoc {

// What a chunk's thread made of its text. The checks that need the row before (time order, the repeated DST
// hour, which extra columns are kept) are the merge's; `ordered` and `extraAll` let it take a chunk whole.
struct CsvChunk {
    std::string_view text;
    std::vector<MarketRecord> rec;                  // timeUs holds the early reading
    std::vector<uint32_t> line;                     // 0-based line of each row within the chunk
    std::vector<uint32_t> lineStart;                // byte offset of each row's line (to word order errors)
    std::vector<std::pair<uint32_t, int64_t>> late; // rows in the repeated DST hour: the later reading
    std::vector<uint8_t> extraOk;                   // rows x extra columns: empty or a number
    std::vector<double> extraValue;
    struct Error {
        uint32_t beforeRow; // the error comes after this many rows of the chunk
        uint32_t line;
        int64_t column;
        std::string message;
    };
    std::vector<Error> errors;
    uint32_t lines = 0;
    bool ordered = true;           // each row after the one before by the merge's rule (bars: later, trades: not before)
    std::vector<uint8_t> extraAll; // per extra column: every row's value is empty or a number

    // No errors, no row in the repeated hour and in order: every row passes the merge's checks once the first
    // does (and the kept extra columns are all numbers).
    bool clean() const { return errors.empty() && late.empty() && ordered; }
    void clear();
};

void parseChunk(CsvChunk& c, const CsvLayout& layout, const ReadOptions& o);

// A clean chunk's rows as the merge would accept them one by one: records from `at`, their file lines
// (`firstLine` + the chunk's line), the kept extra columns (`keep`, positions among the chunk's `nExtra`).
void copyChunkRows(const CsvChunk& c, size_t at, int64_t firstLine, const std::vector<int>& keep, size_t nExtra,
                   MarketRecord* rec, int64_t* lines, double* extras);

} // namespace stackscope::vpoc
