// Picks the reader of a market data file from its first bytes.
#include "core/vpoc/market_source.h"

#include "core/vpoc/parallel_csv_reader.h"

namespace stackscope::vpoc {

std::unique_ptr<MarketSource> openMarketFile(const std::string& path, const ReadOptions& options)
{
    return std::make_unique<ParallelCsvReader>(path, options);
}

} // namespace stackscope::vpoc
