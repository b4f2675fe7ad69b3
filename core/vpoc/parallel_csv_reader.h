// Parallel reader of bars or trades from a CSV file: windows read in large blocks, cut at line ends, parsed by all threads.
#pragma once

#include "core/vpoc/csv_row.h"
#include "core/vpoc/market_data.h"
#include "core/vpoc/market_source.h"
#include "core/vpoc/unzeroed_array.h"
#include "core/util/task_runner.h"

#include "core/vpoc/unique_fd.h"

#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace stackscope::vpoc {

struct CsvChunk;

// Same rows, errors (file:line:column, line numbers counted across chunks) and --skip-bad behaviour as
// MarketDataReader, bit for bit: each chunk is parsed on its own, and the checks that need the previous
// row (time order, the repeated DST hour, which extra columns hold numbers) are made in file order when
// the chunks are joined: per row, unless the chunk is clean (CsvChunk::clean) and its first row passes
// them, when it is taken whole. Memory is one window (ReadOptions::windowBytes) and its parsed rows, whatever the
// file size. The file's size and modification time are checked after every window: a file that changes
// while it is read is an InputError, never a silent short read.
class ParallelCsvReader : public MarketSource {
public:
    // `headerless`: the layout of a file without a header (NinjaTrader); rows start at its first byte.
    ParallelCsvReader(const std::string& path, const ReadOptions& options, const CsvLayout* headerless = nullptr);
    ~ParallelCsvReader() override;
    ParallelCsvReader(const ParallelCsvReader&) = delete;
    ParallelCsvReader& operator=(const ParallelCsvReader&) = delete;

    DataFormat format() const override { return m_layout.format; }
    std::string kind() const override { return m_kind; }
    const std::vector<std::string>& extraColumns() const override { return m_extraNames; }
    // As MarketDataReader::read; `lines` (when given) gets each row's line number.
    bool read(std::vector<MarketRecord>& out, size_t maxRows, std::vector<double>* extras = nullptr,
              std::vector<int64_t>* lines = nullptr) override;
    // The rows and lines of the window in hand, lent in place (the window is kept until the next call).
    bool borrow(size_t maxRows, BorrowedRows& out, std::vector<MarketRecord>& scratch,
                std::vector<int64_t>& scratchPositions) override;
    [[noreturn]] void failAt(int64_t line, const std::string& message) const override;
    int64_t endPosition() const override { return m_shown.lineNo; }
    const std::string& path() const { return m_path; }

    // The figures of the windows handed out so far (the next window may be merging on another thread).
    const SkipReport& skipped() const override { return m_shown.skipped; }
    int64_t rowsAccepted() const override { return m_shown.accepted; }
    int64_t linesRead() const { return m_shown.lineNo; }
    uint64_t bytesConsumed() const override { return m_shown.consumed; }
    // The window's bytes in proportion to its rows handed out (a window, 8 MiB a thread up to 16 MiB, is parsed
    // at once).
    uint64_t bytesParsed() const override;
    uint64_t totalBytes() const override { return m_totalBytes; }
    unsigned threads() const { return m_threads; }

private:
    // A window read and parsed, waiting to be merged: the next one is prepared on the threads while the rows of
    // the one before are handed out. The merge runs on one thread, but a clean chunk costs it O(1): its rows are
    // copied on the threads.
    struct Prepared {
        int buffer = 0;
        size_t chunks = 0;           // parsed chunks of m_chunkSets[buffer]
        uint64_t consumedBefore = 0; // bytes of an over-long line's end, skipped before the chunks
        int64_t longLineEnded = -1;  // >= 0: an over-long line ended here, its length (one rejected line)
        uint64_t consumedAfter = 0;  // bytes of the start of an over-long line, skipped after the chunks
    };
    // A window's merged rows and the reader's figures after it: one being handed out, the next being merged.
    struct Figures {
        int64_t lineNo = 0;
        uint64_t consumed = 0;
        int64_t accepted = 0;
        SkipReport skipped;
    };
    // A window's rows, written in place (a chunk taken whole by its own thread); the storage only grows.
    struct Rows {
        size_t count = 0;
        UnzeroedArray<MarketRecord> rec;
        UnzeroedArray<double> extras; // count x the kept extra columns
        UnzeroedArray<int64_t> lines;
        uint64_t consumedBefore = 0; // bytes merged before this window
        Figures after;
    };
    bool nextWindow();
    int readAndMerge(int buffer);
    Prepared prepareWindow(int buffer);
    // Reading a window's bytes from the file: pread tasks on the pool, then the checks.
    struct FillPlan {
        char* to = nullptr; // where the file's bytes go (after the carry)
        size_t carry = 0;
        uint64_t from = 0; // file offset
        size_t want = 0;
        size_t pieces = 0;
        std::vector<int> errs;
        std::vector<char> shortRead;
    };
    FillPlan planFill(int buffer);
    void readPiece(FillPlan& plan, size_t i) const;
    size_t finishFill(const FillPlan& plan);
    size_t windowBytes(int buffer);
    void parseAndReadAhead(int buffer, size_t chunks);
    void checkUnchanged(const char* when);
    size_t cutChunks(UnzeroedArray<char>& window, std::vector<std::unique_ptr<CsvChunk>>& chunks, size_t begin,
                     size_t usable);
    void mergeWindow(const Prepared& p);
    void mergeChunk(CsvChunk& chunk);
    // A chunk taken whole: its rows go to `at` in the window's rows; `lineBase` is the file line of its first line.
    struct WholeChunk {
        const CsvChunk* chunk;
        size_t at;
        int64_t lineBase;
    };
    bool takeWhole(const CsvChunk& chunk, std::vector<WholeChunk>& whole);
    void decideExtras(const uint8_t* ok);
    bool rowsInHand();
    void reject(int64_t line, int64_t column, const std::string& message);
    void acceptRow(const CsvChunk& chunk, size_t row, int64_t line);

    std::string m_path;
    ReadOptions m_options;
    CsvLayout m_layout;
    std::string m_kind = "CSV";
    UniqueFd m_file;
    unsigned m_threads = 1;
    std::shared_ptr<TaskRunner> m_pool;
    uint64_t m_totalBytes = 0;
    int64_t m_mtimeNs = 0;
    uint64_t m_fileOffset = 0; // next byte to read
    uint64_t m_consumed = 0;   // bytes whose rows were merged
    int64_t m_lineNo = 0;      // lines merged so far (header included)

    // Two windows and their chunks: one being merged and handed out, the next one being read and parsed.
    UnzeroedArray<char> m_windows[2]; // each window.capacity() bytes
    std::vector<std::unique_ptr<CsvChunk>> m_chunkSets[2];
    int m_filled = 1;          // the buffer the last prepared window went to
    size_t m_carry = 0;        // bytes of a partial last line, at m_carryAt in m_windows[m_filled]
    size_t m_carryAt = 0;
    int64_t m_longDropped = -1; // >= 0 while skipping the rest of a line longer than maxLineBytes
    // A window's bytes read ahead into a buffer while the window before was parsed (or the error that stopped it).
    struct ReadAhead {
        bool ready = false;
        size_t bytes = 0;
        std::exception_ptr error;
    };
    ReadAhead m_ahead[2];
    std::future<int> m_next; // the window being read, parsed and merged (its buffer)

    Rows m_rows[2];
    Rows* m_into = nullptr;  // where the merge puts its rows
    int m_current = -1;      // the buffer whose rows are handed out
    size_t m_readyPos = 0;
    Figures m_shown;         // of the windows handed out (all that other threads may ask for)

    bool m_extrasDecided = false;
    std::vector<int> m_extraKeep; // positions in m_layout.extraIndex
    std::vector<std::string> m_extraNames;
    int64_t m_previousUs = INT64_MIN;
    int64_t m_accepted = 0;
    SkipReport m_skipped;
};

} // namespace stackscope::vpoc
