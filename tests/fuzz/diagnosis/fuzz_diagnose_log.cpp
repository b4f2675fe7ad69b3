// libFuzzer entry for what `diagnose --log` does with a log: the bounded stream reader, the fact extractor and
// the rules engine, with the reader's invariants checked (nothing kept beyond its caps, every byte accounted for).
#include "core/diagnosis/diagnosis.h"
#include "core/snapshot/snapshot_json.h"
#include "core/diagnosis/log_facts.h"
#include "core/diagnosis/log_reader.h"
#include "core/diagnosis/text_normalizer.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace stackscope;
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    LogReadLimits limits; // small caps: the same logic, and the caps are reached by small inputs
    limits.maxLineBytes = 256;
    limits.headLines = 4;
    limits.tailLines = 8;
    limits.contextLines = 1;
    limits.maxKeptLines = 16;
    const LogReadResult read = readLogStream(in, limits, interestingLine);
    if (read.bytesRead != size)
        __builtin_trap();
    if (read.lineNumbers.size() > limits.headLines + limits.tailLines + limits.maxKeptLines * (2 * limits.contextLines + 1))
        __builtin_trap();
    // Each kept line ends with '\n' and is at most maxLineBytes long.
    std::size_t kept = 0;
    for (std::size_t start = 0; start < read.text.size(); ++kept) {
        const auto end = read.text.find('\n', start);
        if (end == std::string::npos || end - start > limits.maxLineBytes)
            __builtin_trap();
        start = end + 1;
    }
    if (kept != read.lineNumbers.size())
        __builtin_trap();
    const LogFacts facts = extractLogFacts(NormalizedText(read.text));
    DiagnosisInput input;
    input.snapshot = &facts.snapshot;
    input.logs.push_back({"fuzz.log", read.text});
    const auto findings = diagnose(input);
    (void)findingsToJson(findings).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    return 0;
}
