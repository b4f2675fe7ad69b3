// Databento DBN files (versions 1-3, plain or zstd): trades and OHLCV bars of one instrument as market records.
#pragma once

#include "core/vpoc/byte_stream.h"
#include "core/vpoc/market_source.h"
#include "core/vpoc/record_checks.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace stackscope::vpoc {

// The layout is Databento's published one (https://databento.com/docs/standards-and-conventions/databento-binary-encoding):
// "DBN" and a version byte, the metadata length (u32), the metadata (dataset, schema, symbols and their
// instrument mappings), then records each starting with a 16-byte header {length in 4-byte words, rtype,
// publisher_id, instrument_id, ts_event ns}. Prices are int64 in units of 1e-9. Trades (rtype 0) give
// trades, OHLCV records (0x20-0x24, 0x11) give bars (ts_event truncated to whole microseconds); other records (system, symbol mapping) are passed over.
// One instrument per run: records of another instrument are bad input (--skip-bad keeps the first one).
class DbnReader : public MarketSource {
public:
    DbnReader(const std::string& path, const ReadOptions& options);

    DataFormat format() const override { return m_format; }
    std::string kind() const override;
    const std::vector<std::string>& extraColumns() const override { return m_noExtras; }
    bool read(std::vector<MarketRecord>& out, size_t maxRows, std::vector<double>* extras = nullptr,
              std::vector<int64_t>* positions = nullptr) override;
    [[noreturn]] void failAt(int64_t record, const std::string& message) const override;
    int64_t endPosition() const override { return m_record; }
    const SkipReport& skipped() const override { return m_checks.skipped(); }
    int64_t rowsAccepted() const override { return m_checks.accepted(); }
    uint64_t bytesConsumed() const override { return m_bytes.fileBytesRead(); }
    uint64_t totalBytes() const override { return m_bytes.fileSize(); }

    int version() const { return m_version; }
    const std::string& dataset() const { return m_dataset; }
    // The symbol of an instrument id from the metadata's mappings ("" when not mapped).
    std::string symbolOf(uint32_t instrumentId) const;

private:
    void readMetadata();
    bool nextRecord();
    bool convert(MarketRecord& rec);

    ByteStream m_bytes;
    ReadOptions m_options;
    RecordChecks m_checks;
    int m_version = 0;
    uint16_t m_schema = 0xFFFF;
    std::string m_dataset;
    DataFormat m_format = DataFormat::Auto;
    int64_t m_tickNanos = 0;
    std::map<uint32_t, std::string> m_symbols;
    std::vector<unsigned char> m_rec; // the current record
    uint64_t m_recordByte = 0;
    int64_t m_record = 0;
    int64_t m_instrument = -1;
    std::vector<std::string> m_noExtras;
};

} // namespace stackscope::vpoc
