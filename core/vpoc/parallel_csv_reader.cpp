// Parallel CSV reading: pread windows, line-aligned chunks parsed on threads, joined in file order with the order checks.
#include "core/vpoc/parallel_csv_reader.h"

#include "core/vpoc/csv_chunk.h"
#include "core/vpoc/csv_reader.h"
#include "core/vpoc/market_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <thread>
#include <utility>
#include <unistd.h>

namespace stackscope::vpoc {

namespace {

constexpr size_t kMinChunk = 1 << 16;
constexpr size_t kWindowPerThread = 8u << 20; // two windows are held: one merged, one read and parsed
// From 2 threads on the window stops growing: its chunks (128 KiB at 16 threads) keep every thread busy, the pipeline
// fills (the first window is read and parsed before anything else) and drains (the last one's merge and profiles)
// sooner, and memory stays small. 352 MB of trades on the 16-core H100 host with the work pool, caps of 8/16/32/64
// MiB, four interleaved rounds, best of 5: 16 threads 0.157-0.183 / 0.151-0.173 / 0.167-0.177 / 0.177-0.187 s,
// 16 MiB ahead of 32 MiB in all four rounds (tests/bench/RESULTS.md, "Session windows and the reader's window").
constexpr size_t kMaxWindow = 16u << 20;

} // namespace

ParallelCsvReader::ParallelCsvReader(const std::string& path, const ReadOptions& options, const CsvLayout* headerless)
    : m_path(path)
    , m_options(options)
{
    findTimeZone(options.timeZone);
    m_file.fd = openMarketFile(path, m_totalBytes, m_mtimeNs);
    if (headerless) {
        m_layout = *headerless;
        m_kind = m_layout.format == DataFormat::Bars ? "NinjaTrader bars" : "NinjaTrader ticks";
    } else {
        MarketDataReader header(path, options); // the header and its errors exactly as the sequential reader
        m_layout = header.layout();
        m_lineNo = header.linesRead();
        m_consumed = m_fileOffset = header.bytesConsumed();
        m_shown.lineNo = m_lineNo;
        m_shown.consumed = m_consumed;
    }
    m_pool = options.pool ? options.pool : std::make_shared<TaskRunner>(options.threads);
    m_threads = m_pool->threads();
    size_t window = options.windowBytes ? options.windowBytes : std::min(kWindowPerThread * m_threads, kMaxWindow);
    window = std::max(window, 4 * options.maxLineBytes + 4);
    window = std::min<size_t>(window, size_t(1) << 31); // chunk offsets are 32-bit
    window = static_cast<size_t>(std::min<uint64_t>(window, m_totalBytes - m_fileOffset + options.maxLineBytes + 4));
    window = std::max(window, 4 * options.maxLineBytes + 4);
    for (auto& w : m_windows)
        w.ensure(window); // first touched by the threads that read into it
}

ParallelCsvReader::~ParallelCsvReader()
{
    // A window being read on a thread writes into the buffers: wait for it.
    if (m_next.valid())
        m_next.wait();
}

namespace {

// The file changed under the reader; the merge side adds the line (the first not yet merged).
struct FileChanged {
    std::string message;
};

} // namespace

void ParallelCsvReader::checkUnchanged(const char* when)
{
    struct stat st {};
    if (::fstat(m_file.fd, &st) != 0)
        throw std::runtime_error(fmt::format("{}: cannot check the file {} ({})", m_path, when, std::strerror(errno)));
    if (static_cast<uint64_t>(st.st_size) != m_totalBytes || modificationTimeNs(st) != m_mtimeNs)
        throw FileChanged {fmt::format("the file changed while it was being read (size {} -> {} bytes{}); results "
                                       "would be incomplete, so nothing is reported: run again once whatever writes "
                                       "the file has finished",
                                       m_totalBytes, st.st_size, modificationTimeNs(st) != m_mtimeNs ? ", modified" : "")};
}

// Puts the partial line the last window left at the start of `buffer` and plans reading the file after it.
ParallelCsvReader::FillPlan ParallelCsvReader::planFill(int buffer)
{
    auto& window = m_windows[buffer];
    if (m_carry && buffer != m_filled)
        std::memcpy(window.data(), m_windows[m_filled].data() + m_carryAt, m_carry);
    else if (m_carry && m_carryAt)
        std::memmove(window.data(), window.data() + m_carryAt, m_carry);
    m_filled = buffer;
    m_carryAt = 0;
    FillPlan plan;
    plan.to = window.data() + m_carry;
    plan.carry = m_carry;
    plan.from = m_fileOffset;
    plan.want = static_cast<size_t>(std::min<uint64_t>(window.capacity() - m_carry, m_totalBytes - m_fileOffset));
    plan.pieces = plan.want ? std::max<size_t>(1, std::min<size_t>(m_threads * kTasksPerThread, plan.want / kMinChunk)) : 0;
    plan.errs.assign(plan.pieces, 0);
    plan.shortRead.assign(plan.pieces, 0);
    return plan;
}

// One pread task of a plan: its share of the bytes, however many calls it takes.
void ParallelCsvReader::readPiece(FillPlan& plan, size_t i) const
{
    size_t pos = plan.want * i / plan.pieces;
    const size_t stop = plan.want * (i + 1) / plan.pieces;
    while (pos < stop) {
        const ssize_t got = ::pread(m_file.fd, plan.to + pos, stop - pos, static_cast<off_t>(plan.from + pos));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            plan.errs[i] = got < 0 ? errno : 0;
            plan.shortRead[i] = 1;
            return;
        }
        pos += static_cast<size_t>(got);
    }
}

// After a plan's reads: the window's byte count (the carry and what was read). Throws on a read error or a file that
// changed (FileChanged).
size_t ParallelCsvReader::finishFill(const FillPlan& plan)
{
    for (size_t i = 0; i < plan.pieces; ++i) {
        if (plan.errs[i])
            throw InputError(m_path, 0, 0, fmt::format("read error near byte {} ({}); check the disk or the file",
                                                       plan.from, std::strerror(plan.errs[i])));
        if (plan.shortRead[i]) {
            checkUnchanged("after a short read"); // throws: the file shrank
            // Unchanged by fstat yet short: the bytes after it were never read, so nothing after it can be trusted.
            throw InputError(m_path, 0, 0,
                             fmt::format("reading stopped near byte {} of the {} the file reports; check the disk or "
                                         "the file system (copy the file to a local disk and run again)",
                                         plan.from + plan.want * i / plan.pieces, m_totalBytes));
        }
    }
    m_fileOffset += plan.want;
    if (plan.want)
        checkUnchanged("while reading it");
    return plan.carry + plan.want;
}

// The bytes of the window in `buffer`: read ahead while the window before was parsed, or read now (the first).
size_t ParallelCsvReader::windowBytes(int buffer)
{
    auto& ahead = m_ahead[buffer];
    if (ahead.ready) {
        ahead.ready = false;
        if (ahead.error)
            std::rethrow_exception(std::exchange(ahead.error, nullptr));
        return ahead.bytes;
    }
    FillPlan plan = planFill(buffer);
    m_pool->forEach(plan.pieces, [&](size_t i) { readPiece(plan, i); });
    return finishFill(plan);
}

void ParallelCsvReader::failAt(int64_t line, const std::string& message) const
{
    throw InputError(m_path, line, 1, message);
}

void ParallelCsvReader::reject(int64_t line, int64_t column, const std::string& message)
{
    if (!m_options.skipBad)
        throw InputError(m_path, line, column, message);
    ++m_skipped.count;
    if (m_skipped.first.size() < SkipReport::kKept)
        m_skipped.first.push_back(fmt::format("{}:{}:{}: {}", m_path, line, column, message));
}

// Cuts [begin, usable) of the window into line-aligned chunks (at most kTasksPerThread a thread, none under kMinChunk).
size_t ParallelCsvReader::cutChunks(UnzeroedArray<char>& window, std::vector<std::unique_ptr<CsvChunk>>& chunks,
                                    size_t begin, size_t usable)
{
    if (usable <= begin)
        return 0;
    const size_t bytes = usable - begin;
    const size_t n = std::max<size_t>(1, std::min<size_t>(m_threads * kTasksPerThread, bytes / kMinChunk));
    while (chunks.size() < n)
        chunks.push_back(std::make_unique<CsvChunk>());
    const char* base = window.data();
    size_t from = begin;
    for (size_t i = 0; i < n; ++i) {
        size_t to = i + 1 == n ? usable : std::max(from, begin + bytes * (i + 1) / n);
        if (to < usable) {
            const void* nl = std::memchr(base + to, '\n', usable - to);
            to = nl ? static_cast<size_t>(static_cast<const char*>(nl) - base) + 1 : usable;
        }
        chunks[i]->clear();
        chunks[i]->text = std::string_view(base + from, to - from);
        from = to;
    }
    return n;
}

// Parses the chunks of the window in `buffer` and, in the same call, reads the next window's bytes into the other
// buffer (its last window's rows are merged: only the rows, not the bytes, are still in use). The reads fill the
// threads that the parse's last chunks leave idle, and the next window starts parsing at once.
void ParallelCsvReader::parseAndReadAhead(int buffer, size_t chunks)
{
    const int next = 1 - buffer;
    const bool readAhead = m_fileOffset < m_totalBytes;
    FillPlan plan;
    if (readAhead)
        plan = planFill(next);
    auto& set = m_chunkSets[buffer];
    m_pool->forEach(chunks + plan.pieces, [&](size_t i) {
        if (i < chunks)
            parseChunk(*set[i], m_layout, m_options);
        else
            readPiece(plan, i - chunks);
    });
    if (!readAhead)
        return;
    auto& ahead = m_ahead[next];
    ahead.ready = true;
    try {
        ahead.bytes = finishFill(plan);
    } catch (...) {
        ahead.error = std::current_exception(); // thrown when that window is prepared, after this one's rows
    }
}

void ParallelCsvReader::acceptRow(const CsvChunk& c, size_t r, int64_t line)
{
    const bool bars = m_layout.format == DataFormat::Bars;
    MarketRecord rec = c.rec[r];
    int64_t late = rec.timeUs;
    if (!c.late.empty()) {
        const auto it = std::lower_bound(c.late.begin(), c.late.end(), std::pair<uint32_t, int64_t>(uint32_t(r), INT64_MIN));
        if (it != c.late.end() && it->first == r)
            late = it->second;
    }
    const int64_t us = TimestampReader::resolve(rec.timeUs, late, m_previousUs, !bars);
    const size_t nExtra = m_layout.extraIndex.size();
    // Errors need the row's fields again; parsing the line once more gives the same split and columns.
    auto reparse = [&](CsvRowParser& parser) {
        const size_t start = c.lineStart[r];
        const char* p = c.text.data() + start;
        const void* nl = std::memchr(p, '\n', c.text.size() - start);
        std::string_view text(p, nl ? static_cast<size_t>(static_cast<const char*>(nl) - p) : c.text.size() - start);
        if (!text.empty() && text.back() == '\r')
            text.remove_suffix(1);
        ParsedRow row;
        RowError err;
        parser.parse(text, row, err);
    };
    if (m_previousUs != INT64_MIN && (us < m_previousUs || (bars && us == m_previousUs))) {
        CsvRowParser parser(m_layout, m_options);
        reparse(parser);
        reject(line, parser.timeColumn(), timeOrderMessage(us == m_previousUs));
        return;
    }
    const uint8_t* ok = nExtra ? &c.extraOk[r * nExtra] : nullptr;
    if (!m_extrasDecided)
        decideExtras(ok);
    for (int k : m_extraKeep)
        if (!ok[k]) {
            CsvRowParser parser(m_layout, m_options);
            reparse(parser);
            const int idx = m_layout.extraIndex[static_cast<size_t>(k)];
            reject(line, parser.column(idx),
                   badExtraMessage(parser.field(idx), m_layout.headerNames[static_cast<size_t>(idx)]));
            return;
        }
    Rows& out = *m_into;
    size_t at = out.count * m_extraKeep.size();
    for (int k : m_extraKeep)
        out.extras.construct(at++, c.extraValue[r * nExtra + static_cast<size_t>(k)]);
    rec.timeUs = us;
    out.rec.construct(out.count, rec);
    out.lines.construct(out.count, line);
    ++out.count;
    m_previousUs = us;
    ++m_accepted;
}

// Further columns are kept when they hold numbers on the first data row (a symbol column is not).
void ParallelCsvReader::decideExtras(const uint8_t* ok)
{
    for (size_t k = 0; k < m_layout.extraIndex.size(); ++k)
        if (ok[k]) {
            m_extraKeep.push_back(static_cast<int>(k));
            m_extraNames.push_back(m_layout.headerNames[static_cast<size_t>(m_layout.extraIndex[k])]);
        }
    m_extrasDecided = true;
}

// A clean chunk whose first row passes the checks against the row before it: acceptRow would take every row, so
// the chunk is taken whole, with the same figures after it; its rows are copied once the window is decided.
bool ParallelCsvReader::takeWhole(const CsvChunk& c, std::vector<WholeChunk>& whole)
{
    if (c.rec.empty() || !c.clean())
        return false;
    const int64_t first = c.rec.front().timeUs;
    const bool bars = m_layout.format == DataFormat::Bars;
    if (m_previousUs != INT64_MIN && (first < m_previousUs || (bars && first == m_previousUs)))
        return false;
    if (!m_extrasDecided)
        decideExtras(c.extraOk.data()); // on the first row, accepted: what acceptRow would decide
    for (int k : m_extraKeep)
        if (!c.extraAll[static_cast<size_t>(k)])
            return false;
    whole.push_back({&c, m_into->count, m_lineNo + 1});
    m_into->count += c.rec.size();
    m_previousUs = c.rec.back().timeUs;
    m_accepted += static_cast<int64_t>(c.rec.size());
    m_lineNo += c.lines;
    m_consumed += c.text.size();
    return true;
}

void ParallelCsvReader::mergeChunk(CsvChunk& c)
{
    size_t e = 0;
    for (size_t r = 0; r <= c.rec.size(); ++r) {
        for (; e < c.errors.size() && c.errors[e].beforeRow == r; ++e)
            reject(m_lineNo + 1 + c.errors[e].line, c.errors[e].column, c.errors[e].message);
        if (r < c.rec.size())
            acceptRow(c, r, m_lineNo + 1 + c.line[r]);
    }
    m_lineNo += c.lines;
    m_consumed += c.text.size();
}

// Reads the next window into m_windows[buffer] (after the partial line the last one left), cuts it at its last
// line end and parses the chunks. Touches only the read side's state (offset, carry, over-long line), so it runs
// while the window before is merged.
ParallelCsvReader::Prepared ParallelCsvReader::prepareWindow(int buffer)
{
    auto& window = m_windows[buffer];
    Prepared p;
    p.buffer = buffer;
    const size_t n = windowBytes(buffer);
    const bool atEnd = m_fileOffset >= m_totalBytes;
    const char* base = window.data();
    size_t begin = 0;
    m_carry = 0;
    if (m_longDropped >= 0) {
        // The rest of a line longer than maxLineBytes that began in an earlier window.
        const void* nl = std::memchr(base, '\n', n);
        begin = nl ? static_cast<size_t>(static_cast<const char*>(nl) - base) + 1 : n;
        m_longDropped += static_cast<int64_t>(begin);
        p.consumedBefore = begin;
        if (!nl && !atEnd)
            return p;
        p.longLineEnded = m_longDropped;
        m_longDropped = -1;
    }
    size_t usable = n;
    if (!atEnd) {
        const char* last = nullptr;
        for (const char* q = base + n; q > base + begin; --q)
            if (q[-1] == '\n') {
                last = q;
                break;
            }
        usable = last ? static_cast<size_t>(last - base) : begin;
        const size_t tail = n - usable;
        if (tail > m_options.maxLineBytes) {
            m_longDropped = static_cast<int64_t>(tail); // a line too long to be a row: skip to its end
            p.consumedAfter = tail;
        } else {
            m_carry = tail;
            m_carryAt = usable;
        }
    }
    p.chunks = cutChunks(window, m_chunkSets[buffer], begin, usable);
    parseAndReadAhead(buffer, p.chunks);
    return p;
}

// In file order: the over-long line that ended in this window, then its chunks' rows and errors.
void ParallelCsvReader::mergeWindow(const Prepared& p)
{
    m_consumed += p.consumedBefore;
    if (p.longLineEnded >= 0) {
        ++m_lineNo;
        reject(m_lineNo, static_cast<int64_t>(m_options.maxLineBytes) + 1,
               longLineMessage(m_options.maxLineBytes, static_cast<size_t>(p.longLineEnded)));
    }
    auto& chunks = m_chunkSets[p.buffer];
    size_t rows = 0;
    for (size_t i = 0; i < p.chunks; ++i)
        rows += chunks[i]->rec.size();
    const size_t nExtra = m_layout.extraIndex.size();
    Rows& out = *m_into;
    out.rec.ensure(rows); // room for every row: a chunk's rows are written at their place
    out.lines.ensure(rows);
    out.extras.ensure(rows * nExtra);
    std::vector<WholeChunk> whole;
    for (size_t i = 0; i < p.chunks; ++i)
        if (!takeWhole(*chunks[i], whole))
            mergeChunk(*chunks[i]);
    m_pool->forEach(whole.size(), [&](size_t i) {
        copyChunkRows(*whole[i].chunk, whole[i].at, whole[i].lineBase, m_extraKeep, nExtra, out.rec.data(),
                      out.lines.data(), out.extras.data());
    });
    m_consumed += p.consumedAfter;
}

// One window read, parsed and merged into m_rows[buffer], with the figures after it. Windows are merged one after
// the other (the next is started only once this one is done), so the merge state needs no lock.
int ParallelCsvReader::readAndMerge(int buffer)
{
    const Prepared p = prepareWindow(buffer);
    Rows& rows = m_rows[buffer];
    rows.count = 0;
    rows.consumedBefore = m_consumed;
    m_into = &rows;
    mergeWindow(p);
    rows.after = {m_lineNo, m_consumed, m_accepted, m_skipped};
    return buffer;
}

// Hands out the window read and merged on another thread, and starts the next one: the caller's work on these
// rows overlaps the reading, parsing and merging of the next. An error of the next window (a bad row, a changed
// file) is thrown when the caller asks for it, after every row before it.
bool ParallelCsvReader::nextWindow()
{
    const auto more = [this] {
        return m_fileOffset < m_totalBytes || m_carry != 0 || m_longDropped >= 0 || m_ahead[0].ready || m_ahead[1].ready;
    };
    const bool ahead = m_next.valid();
    if (!ahead && !more())
        return false;
    try {
        // The first window, and every one with one thread, is read here; later ones were started on a thread.
        m_current = ahead ? m_next.get() : readAndMerge(m_current < 0 ? 1 - m_filled : 1 - m_current);
    } catch (const FileChanged& e) {
        throw InputError(m_path, m_lineNo + 1, 1, e.message);
    }
    m_readyPos = 0;
    m_shown = m_rows[m_current].after;
    if (m_threads > 1 && more()) // on a thread of the runner's own (its pieces on the runner's CPU lane)
        m_next = m_pool->start([this, b = 1 - m_current] { return readAndMerge(b); });
    return true;
}

uint64_t ParallelCsvReader::bytesParsed() const
{
    if (m_current < 0 || m_rows[m_current].count == 0)
        return m_shown.consumed;
    const Rows& r = m_rows[m_current];
    const double handedOut = static_cast<double>(m_readyPos) / static_cast<double>(r.count);
    return r.consumedBefore + static_cast<uint64_t>(handedOut * static_cast<double>(r.after.consumed - r.consumedBefore));
}

// Whether a window with rows not yet handed out is in hand (the next one taken when this one is done).
bool ParallelCsvReader::rowsInHand()
{
    while (m_current < 0 || m_readyPos >= m_rows[m_current].count) {
        if (!nextWindow()) {
            try {
                checkUnchanged("at its end");
            } catch (const FileChanged& e) {
                throw InputError(m_path, m_lineNo + 1, 1, e.message);
            }
            return false;
        }
    }
    return true;
}

bool ParallelCsvReader::borrow(size_t maxRows, BorrowedRows& out, std::vector<MarketRecord>&, std::vector<int64_t>&)
{
    out = {};
    if (!rowsInHand())
        return false;
    const Rows& r = m_rows[m_current];
    const size_t n = std::min(maxRows, r.count - m_readyPos);
    out = {r.rec.data() + m_readyPos, r.lines.data() + m_readyPos, n};
    m_readyPos += n;
    return n > 0;
}

bool ParallelCsvReader::read(std::vector<MarketRecord>& out, size_t maxRows, std::vector<double>* extras,
                             std::vector<int64_t>* lines)
{
    if (!rowsInHand())
        return false;
    const Rows& r = m_rows[m_current];
    const size_t n = std::min(maxRows, r.count - m_readyPos);
    const auto from = static_cast<long>(m_readyPos), to = static_cast<long>(m_readyPos + n);
    out.insert(out.end(), r.rec.data() + from, r.rec.data() + to);
    if (extras) {
        const auto k = static_cast<long>(m_extraNames.size());
        extras->insert(extras->end(), r.extras.data() + from * k, r.extras.data() + to * k);
    }
    if (lines)
        lines->insert(lines->end(), r.lines.data() + from, r.lines.data() + to);
    m_readyPos += n;
    return n > 0;
}

} // namespace stackscope::vpoc
