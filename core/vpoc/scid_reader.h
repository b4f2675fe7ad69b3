// Sierra Chart intraday data files (.scid): tick records as trades, bar records as bars.
#pragma once

#include "core/vpoc/byte_stream.h"
#include "core/vpoc/market_source.h"
#include "core/vpoc/record_checks.h"

#include <string>
#include <vector>

namespace stackscope::vpoc {

// Layout from https://www.sierrachart.com/index.php?page=doc/IntradayDataFileFormat.html: a 56-byte
// s_IntradayHeader ("SCID", HeaderSize, RecordSize = 40, Version, ...), then 40-byte s_IntradayRecord
// {SCDateTimeMS DateTime (int64 microseconds since 1899-12-30 00:00 UTC); float Open, High, Low, Close;
// uint32 NumTrades, TotalVolume, BidVolume, AskVolume}. A tick record has Open 0 (or one of the two
// sub-trade markers) and its trade price in Close; the first record decides trades or bars.
class ScidReader : public MarketSource {
public:
    ScidReader(const std::string& path, const ReadOptions& options);

    DataFormat format() const override { return m_format; }
    std::string kind() const override { return m_format == DataFormat::Trades ? "Sierra Chart .scid ticks" : "Sierra Chart .scid bars"; }
    const std::vector<std::string>& extraColumns() const override { return m_noExtras; }
    bool read(std::vector<MarketRecord>& out, size_t maxRows, std::vector<double>* extras = nullptr,
              std::vector<int64_t>* positions = nullptr) override;
    [[noreturn]] void failAt(int64_t record, const std::string& message) const override;
    int64_t endPosition() const override { return m_record; }
    const SkipReport& skipped() const override { return m_checks.skipped(); }
    int64_t rowsAccepted() const override { return m_checks.accepted(); }
    uint64_t bytesConsumed() const override { return m_bytes.fileBytesRead(); }
    uint64_t totalBytes() const override { return m_bytes.fileSize(); }

    static constexpr int64_t kEpochOffsetUs = int64_t(25569) * 86400 * 1000000; // 1899-12-30 to 1970-01-01

private:
    bool next(unsigned char* rec);
    bool convert(const unsigned char* rec, MarketRecord& out);

    ByteStream m_bytes;
    ReadOptions m_options;
    RecordChecks m_checks;
    DataFormat m_format = DataFormat::Auto;
    int64_t m_record = 0;
    uint64_t m_headerSize = 56;
    uint64_t m_recordByte = 0;
    std::vector<unsigned char> m_first; // the first record, read to decide the format
    std::vector<std::string> m_noExtras;
};

} // namespace stackscope::vpoc
