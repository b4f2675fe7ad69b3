// Streaming CSV reader for bars and trades: block reads, header detection, row checks with file:line:column.
#include "core/vpoc/csv_reader.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace stackscope::vpoc {

InputError::InputError(const std::string& file, int64_t line, int64_t column, const std::string& message)
    : Error(line > 0 ? fmt::format("{}:{}:{}: {}", file, line, column, message) : fmt::format("{}: {}", file, message),
            ErrorKind::Input)
    , m_line(line)
    , m_column(column)
    , m_reason(message)
{
}

InputError::InputError(const std::string& file, BinaryPosition at, const std::string& message)
    : Error(at.byte == UINT64_MAX ? fmt::format("{}: record {}: {}", file, at.record, message)
                : at.record >= 0      ? fmt::format("{}: record {} at byte {}: {}", file, at.record, at.byte, message)
                                      : fmt::format("{}: at byte {}: {}", file, at.byte, message),
            ErrorKind::Input)
    , m_line(at.record)
    , m_column(static_cast<int64_t>(at.byte) + 1)
    , m_reason(message)
{
}

Tick Tick::parse(const std::string& text)
{
    Tick t;
    const char* b = text.data();
    const char* e = b + text.size();
    const auto r = std::from_chars(b, e, t.value);
    if (r.ec != std::errc() || r.ptr != e || !(t.value > 0) || !std::isfinite(t.value))
        throw std::invalid_argument(fmt::format("--tick {}: not a positive number; give the price step, for "
                                                "example 0.25 for ES",
                                                text));
    const auto dot = text.find('.');
    t.decimals = dot == std::string::npos ? 0 : static_cast<int>(text.size() - dot - 1);
    return t;
}

double Tick::price(int64_t ticks) const
{
    // Round to the tick's decimals so 0.1-tick prices print as 5123.1, not 5123.1000000000004.
    const double scale = std::pow(10.0, decimals);
    return std::round(static_cast<double>(ticks) * value * scale) / scale;
}

namespace {

constexpr size_t kBlock = 1 << 20;

} // namespace

MarketDataReader::MarketDataReader(const std::string& path, const ReadOptions& options)
    : m_file(std::make_unique<std::ifstream>(path, std::ios::binary))
    , m_in(m_file.get())
    , m_name(path)
    , m_options(options)
{
    findTimeZone(options.timeZone); // an unknown zone is a bad option before anything is read
    if (!*m_file)
        throw InputError(path, 0, 0, fmt::format("cannot open the file ({}); check the path and its permissions",
                                                 std::strerror(errno)));
    m_file->seekg(0, std::ios::end);
    const auto size = m_file->tellg();
    m_file->seekg(0, std::ios::beg);
    m_totalBytes = size > 0 ? static_cast<uint64_t>(size) : 0;
    readHeader();
}

MarketDataReader::MarketDataReader(std::istream& in, const std::string& name, const ReadOptions& options)
    : m_in(&in)
    , m_name(name)
    , m_options(options)
{
    findTimeZone(options.timeZone); // an unknown zone is a bad option before anything is read
    readHeader();
}

void MarketDataReader::fail(int64_t column, const std::string& message) const
{
    throw InputError(m_name, m_lineNo, column, message);
}

void MarketDataReader::reject(int64_t column, const std::string& message)
{
    if (!m_options.skipBad)
        fail(column, message);
    ++m_skipped.count;
    if (m_skipped.first.size() < SkipReport::kKept)
        m_skipped.first.push_back(fmt::format("{}:{}:{}: {}", m_name, m_lineNo, column, message));
}

bool MarketDataReader::nextLine(std::string_view& line)
{
    const size_t maxLine = m_options.maxLineBytes;
    if (m_buffer.empty())
        m_buffer.resize(std::max(kBlock, 2 * maxLine + 2));
    auto refill = [&] {
        if (m_begin > 0) {
            std::memmove(m_buffer.data(), m_buffer.data() + m_begin, m_end - m_begin);
            m_end -= m_begin;
            m_begin = 0;
        }
        m_in->read(m_buffer.data() + m_end, static_cast<std::streamsize>(m_buffer.size() - m_end));
        const auto got = m_in->gcount();
        m_end += static_cast<size_t>(got);
        if (got == 0 || !*m_in)
            m_eof = m_in->eof() || got == 0;
        if (m_in->bad())
            throw std::runtime_error(fmt::format("{}: read error after {} bytes; check the disk or the file", m_name,
                                                 m_consumed));
    };
    for (;;) {
        const char* base = m_buffer.data() + m_begin;
        const size_t avail = m_end - m_begin;
        const void* nl = std::memchr(base, '\n', std::min(avail, maxLine + 1));
        if (nl) {
            const size_t len = static_cast<size_t>(static_cast<const char*>(nl) - base);
            line = std::string_view(base, len);
            m_begin += len + 1;
            m_consumed += len + 1;
            ++m_lineNo;
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            return true;
        }
        if (avail > maxLine) {
            // A line longer than any sane row: drop the rest of it so that --skip-bad can go on.
            ++m_lineNo;
            size_t dropped = 0;
            for (;;) {
                const char* b = m_buffer.data() + m_begin;
                const void* end = std::memchr(b, '\n', m_end - m_begin);
                if (end) {
                    const size_t n = static_cast<size_t>(static_cast<const char*>(end) - b) + 1;
                    m_begin += n;
                    m_consumed += n;
                    dropped += n;
                    break;
                }
                dropped += m_end - m_begin;
                m_consumed += m_end - m_begin;
                m_begin = m_end;
                if (m_eof)
                    break;
                refill();
            }
            line = std::string_view();
            m_longLine = longLineMessage(maxLine, dropped);
            return true;
        }
        if (m_eof) {
            if (avail == 0)
                return false;
            line = std::string_view(base, avail);
            m_begin = m_end;
            m_consumed += avail;
            ++m_lineNo;
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            return true;
        }
        refill();
    }
}

void MarketDataReader::readHeader()
{
    std::string_view line;
    for (;;) {
        if (!nextLine(line)) {
            const bool empty = m_lineNo == 0;
            m_lineNo = std::max<int64_t>(m_lineNo, 1);
            fail(1, empty ? "the file is empty; give a CSV file with a header row and data rows"
                                  : "the file has no header row, only comments; add a header such as "
                                    "timestamp,open,high,low,close,volume");
        }
        if (!m_longLine.empty())
            fail(m_options.maxLineBytes + 1, m_longLine);
        if (m_lineNo == 1 && line.size() >= 3 && std::memcmp(line.data(), "\xEF\xBB\xBF", 3) == 0)
            line.remove_prefix(3);
        const auto t = trimCsvField(line);
        if (isNonDataLine(t))
            continue;
        break;
    }
    if (auto err = parseCsvHeader(line, m_options.format, m_layout))
        fail(err->column, err->message);
    m_format = m_layout.format;
    m_rows = std::make_unique<CsvRowParser>(m_layout, m_options);
}

bool MarketDataReader::read(std::vector<MarketRecord>& out, size_t maxRows, std::vector<double>* extras)
{
    size_t added = 0;
    std::string_view line;
    MarketRecord rec;
    while (added < maxRows && nextLine(line)) {
        if (!m_longLine.empty()) {
            const std::string msg = std::move(m_longLine);
            m_longLine.clear();
            reject(static_cast<int64_t>(m_options.maxLineBytes) + 1, msg);
            continue;
        }
        const auto t = trimCsvField(line);
        if (isNonDataLine(t))
            continue;
        if (parseRow(line, rec, extras)) {
            out.push_back(rec);
            ++added;
            ++m_accepted;
        }
    }
    return added > 0;
}

bool MarketDataReader::parseRow(std::string_view line, MarketRecord& rec, std::vector<double>* extras)
{
    ParsedRow row;
    RowError err;
    if (!m_rows->parse(line, row, err)) {
        reject(err.column, err.message);
        return false;
    }
    const bool bars = m_format == DataFormat::Bars;
    const int64_t us = TimestampReader::resolve(row.early, row.late, m_previousUs, !bars);
    if (m_previousUs != INT64_MIN && (us < m_previousUs || (bars && us == m_previousUs))) {
        reject(m_rows->timeColumn(), timeOrderMessage(us == m_previousUs));
        return false;
    }
    if (!m_extrasDecided) {
        // Further columns are kept when they hold numbers on the first data row (a symbol column is not).
        std::vector<int> keep;
        for (int idx : m_layout.extraIndex) {
            double v = 0;
            if (m_rows->extra(idx, v)) {
                keep.push_back(idx);
                m_extraNames.push_back(m_layout.headerNames[static_cast<size_t>(idx)]);
            }
        }
        m_extraIndex = std::move(keep);
        m_extrasDecided = true;
    }
    const size_t extrasBefore = extras ? extras->size() : 0;
    for (int idx : m_extraIndex) {
        double v = 0;
        if (!m_rows->extra(idx, v)) {
            if (extras)
                extras->resize(extrasBefore);
            reject(m_rows->column(idx), badExtraMessage(m_rows->field(idx), m_layout.headerNames[static_cast<size_t>(idx)]));
            return false;
        }
        if (extras)
            extras->push_back(v);
    }
    rec = row.rec;
    rec.timeUs = us;
    m_previousUs = us;
    return true;
}

} // namespace stackscope::vpoc
