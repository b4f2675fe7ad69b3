// Picks the reader of a market data file from its first bytes, not its name.
#include "core/vpoc/market_source.h"

#include "core/vpoc/byte_stream.h"
#include "core/vpoc/dbn_reader.h"
#include "core/vpoc/parallel_csv_reader.h"
#include "core/vpoc/scid_reader.h"

#include <fmt/format.h>

#include <cstring>

namespace stackscope::vpoc {

bool MarketSource::borrow(size_t maxRows, BorrowedRows& out, std::vector<MarketRecord>& scratch,
                          std::vector<int64_t>& scratchPositions)
{
    scratch.clear();
    scratchPositions.clear();
    const bool more = read(scratch, maxRows, nullptr, &scratchPositions);
    out = {scratch.data(), scratchPositions.data(), scratch.size()};
    return more;
}

std::unique_ptr<MarketSource> openMarketFile(const std::string& path, const ReadOptions& options)
{
    findTimeZone(options.timeZone); // a bad option is reported before anything is read
    unsigned char head[256] = {};
    size_t got = 0;
    bool compressed = false;
    {
        ByteStream peek(path); // decompresses a zstd file's first bytes
        compressed = peek.compressed();
        got = peek.read(head, sizeof head);
    }
    if (std::memcmp(head, "DBN", 3) == 0)
        return std::make_unique<DbnReader>(path, options);
    if (std::memcmp(head, "SCID", 4) == 0)
        return std::make_unique<ScidReader>(path, options);
    if (compressed)
        throw InputError(path, BinaryPosition {-1, 0},
                         "a zstd-compressed file that is not Databento DBN; decompress it (zstd -d) and give the result");
    std::string_view first(reinterpret_cast<const char*>(head), got);
    first = first.substr(0, first.find('\n'));
    if (!first.empty() && first.back() == '\r')
        first.remove_suffix(1);
    CsvLayout ninja;
    if (ninjaTraderLayout(first, ninja)) {
        if (options.format != DataFormat::Auto && options.format != ninja.format)
            throw InputError(path, 1, 1, "--format does not match this NinjaTrader export; leave --format at auto");
        // NinjaTrader writes its exports in UTC (its import page above): naive times are UTC unless --tz says.
        ReadOptions o = options;
        if (!o.timeZoneGiven)
            o.timeZone = "UTC";
        return std::make_unique<ParallelCsvReader>(path, o, &ninja);
    }
    return std::make_unique<ParallelCsvReader>(path, options);
}

} // namespace stackscope::vpoc
