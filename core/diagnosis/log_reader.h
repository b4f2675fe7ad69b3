// Reads a log as a stream with bounded memory: keeps the head, the tail and a window around lines that
// mention something the rules or the fact extractor look for, and says what it skipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace stackscope {

// The bounds (worst-case memory kept: maxKeptLines * maxLineBytes = 20 MiB; a real report is far below it:
// the largest in tests/fixtures/reports is 3.4 KiB).
struct LogReadLimits {
    std::size_t maxLineBytes = 4096;  // bytes of one line kept and examined; the rest of the line is skipped
    std::size_t headLines = 200;      // always kept: collect_env, rocminfo and banners come first
    std::size_t tailLines = 400;      // kept: the last lines after the last kept line (the error usually ends the log)
    std::size_t contextLines = 2;     // kept before and after an interesting line
    std::size_t maxKeptLines = 5000;  // interesting lines and their windows, beyond head and tail
};

struct LogReadResult {
    std::string text;                       // the kept lines, '\n'-separated, in their original order
    std::vector<std::uint64_t> lineNumbers; // original 1-based number of each kept line
    std::uint64_t bytesRead = 0;
    std::uint64_t linesRead = 0;
    std::uint64_t linesSkipped = 0;   // whole lines left out (not near anything the rules know)
    std::uint64_t bytesSkipped = 0;   // their bytes plus the cut ends of long lines
    std::uint64_t longLinesCut = 0;   // lines longer than maxLineBytes
    // The text's encoding when it was not UTF-8: "UTF-16LE" or "UTF-16BE" (what PowerShell's `>` and Windows tools
    // write), decoded to UTF-8 before the lines were examined; "" for UTF-8 or plain bytes.
    std::string decodedFrom;
    std::string encodingReason; // how it was recognised: "byte-order mark FF FE", "NUL bytes at odd offsets"
    // The error that stopped the reading (strerror text, "is a folder"); "" when the input was read to its end.
    std::string readError;
    // "" when nothing was left out, else one sentence for the user.
    std::string summary() const;
    // "" for UTF-8, else one sentence: "decoded from UTF-16LE (byte-order mark FF FE)".
    std::string encodingNote() const;
};

using LinePredicate = std::function<bool(std::string_view)>;

// One pass, O(n) in the input plus the predicate's cost on the first maxLineBytes of each line.
// UTF-16 text is recognised by its byte-order mark (FF FE, FE FF), or without one by NUL bytes in most odd (LE)
// or even (BE) positions of the first 64 KiB, and decoded to UTF-8 as it streams; a UTF-8 byte-order mark is dropped.
LogReadResult readLogStream(std::istream& in, const LogReadLimits& limits, const LinePredicate& interesting);
// The same over a file descriptor read with read(2) (a file, or stdin); a read error (EISDIR when stdin is a
// folder, EIO ...) stops the reading and is named in `readError`. The descriptor is not closed.
LogReadResult readLogFd(int fd, const LogReadLimits& limits, const LinePredicate& interesting);

// The words the built-in rules and the fact extractor look for (anchors, the start of exact texts,
// GPU/stack keywords), lower-cased, less those that hold a GPU/stack keyword (they would add no line);
// `interestingLine` tests a line against them case-insensitively.
const std::vector<std::string>& diagnosisKeywords();
bool interestingLine(std::string_view line);

} // namespace stackscope
