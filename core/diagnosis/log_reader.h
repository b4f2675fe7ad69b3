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
    // "" when nothing was left out, else one sentence for the user.
    std::string summary() const;
};

using LinePredicate = std::function<bool(std::string_view)>;

// One pass, O(n) in the input plus the predicate's cost on the first maxLineBytes of each line.
LogReadResult readLogStream(std::istream& in, const LogReadLimits& limits, const LinePredicate& interesting);

// The words the built-in rules and the fact extractor look for (anchors, the start of exact texts,
// GPU/stack keywords), lower-cased; `interestingLine` tests a line against them case-insensitively.
const std::vector<std::string>& diagnosisKeywords();
bool interestingLine(std::string_view line);

} // namespace stackscope
