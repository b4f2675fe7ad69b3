// Parsing one chunk of a CSV window on its thread, and copying a clean chunk's rows out whole.
#include "core/vpoc/csv_chunk.h"

#include "core/vpoc/csv_reader.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <new>

namespace stackscope::vpoc {

void CsvChunk::clear()
{
    rec.clear();
    line.clear();
    lineStart.clear();
    late.clear();
    extraOk.clear();
    extraValue.clear();
    errors.clear();
    lines = 0;
    ordered = true;
    extraAll.clear();
}

void parseChunk(CsvChunk& c, const CsvLayout& layout, const ReadOptions& o)
{
    CsvRowParser parser(layout, o);
    const size_t nExtra = layout.extraIndex.size();
    const bool bars = layout.format == DataFormat::Bars;
    const char* begin = c.text.data();
    const char* p = begin;
    const char* end = begin + c.text.size();
    ParsedRow row;
    RowError err;
    uint32_t lineIdx = 0;
    int64_t previous = INT64_MIN;
    c.extraAll.assign(nExtra, 1);
    auto fail = [&](int64_t column, std::string message) {
        c.errors.push_back({static_cast<uint32_t>(c.rec.size()), lineIdx, column, std::move(message)});
        return o.skipBad;
    };
    for (; p < end; ++lineIdx) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
        const char* lineEnd = nl ? nl : end;
        std::string_view line(p, static_cast<size_t>(lineEnd - p));
        const uint32_t start = static_cast<uint32_t>(p - begin);
        p = nl ? nl + 1 : end;
        if (line.size() > o.maxLineBytes) {
            if (!fail(static_cast<int64_t>(o.maxLineBytes) + 1, longLineMessage(o.maxLineBytes, line.size() + (nl ? 1 : 0))))
                break;
            continue;
        }
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        const auto t = trimCsvField(line);
        if (isNonDataLine(t))
            continue;
        if (!parser.parse(line, row, err)) {
            if (!fail(err.column, std::move(err.message)))
                break;
            continue;
        }
        if (row.late != row.early)
            c.late.emplace_back(static_cast<uint32_t>(c.rec.size()), row.late);
        // The merge's order rule (acceptRow) between neighbours; the first row is checked by the merge.
        if (previous != INT64_MIN && (row.early < previous || (bars && row.early == previous)))
            c.ordered = false;
        previous = row.early;
        row.rec.timeUs = row.early;
        c.rec.push_back(row.rec);
        c.line.push_back(lineIdx);
        for (size_t k = 0; k < nExtra; ++k) {
            double v = 0;
            const uint8_t ok = parser.extra(layout.extraIndex[k], v) ? 1 : 0;
            c.extraOk.push_back(ok);
            c.extraAll[k] &= ok;
            c.extraValue.push_back(v);
        }
        c.lineStart.push_back(start);
    }
    c.lines = lineIdx;
}

void copyChunkRows(const CsvChunk& c, size_t at, int64_t firstLine, const std::vector<int>& keep, size_t nExtra,
                   MarketRecord* rec, int64_t* lines, double* extras)
{
    // Into storage that holds no rows yet (UnzeroedArray): each element's life begins here.
    const size_t n = c.rec.size();
    std::uninitialized_copy(c.rec.begin(), c.rec.end(), rec + at);
    for (size_t i = 0; i < n; ++i)
        ::new (static_cast<void*>(lines + at + i)) int64_t(firstLine + c.line[i]);
    const size_t k = keep.size();
    if (k == 0)
        return;
    if (k == nExtra) { // every extra column kept: the values are already in the output's layout
        std::uninitialized_copy(c.extraValue.begin(), c.extraValue.end(), extras + at * k);
        return;
    }
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < k; ++j)
            ::new (static_cast<void*>(extras + (at + i) * k + j))
                double(c.extraValue[i * nExtra + static_cast<size_t>(keep[j])]);
}

} // namespace stackscope::vpoc
