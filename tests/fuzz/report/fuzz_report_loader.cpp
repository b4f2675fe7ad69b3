// libFuzzer entry for the report loader: the bytes as report.json text and as a zip; what loads is diffed, rendered
// and redacted, and the raw bytes go through the redactor as a log line would.
#include "core/report/redactor.h"
#include "core/report/report.h"
#include "core/report/report_loader.h"
#include "core/report/snapshot_diff.h"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace stackscope::report;
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    LoadLimits limits;
    limits.maxFileBytes = 1 << 20; // small caps keep each run fast; the logic is the same
    limits.maxStringBytes = 64 * 1024;
    PrivateFacts facts;
    facts.userNames = {"zorbuser"};
    facts.hostNames = {"zorb-host"};
    facts.homeDirs = {"/home/zorbuser"};
    Redactor redactor(facts);
    // Arbitrary text, as a log line: the hand-written pattern scanner must stay in bounds, and the planted
    // names never survive, in any letter case (the MAC, serial and in-word matchers added for issue 21).
    const std::string once = redactor.redact(std::string_view(bytes));
    std::string lowered = once;
    for (auto& c : lowered)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lowered.find("zorbuser") != std::string::npos || lowered.find("zorb-host") != std::string::npos)
        __builtin_trap();
    // Redacting a redacted text changes nothing.
    if (redactor.redact(once) != once)
        __builtin_trap();
    auto exercise = [&redactor](const LoadedReport& r) {
        // What the GUI does with a loaded report: diff it, render it, redact it.
        (void)diffSnapshots(r.snapshot, r.snapshot);
        (void)reportMarkdown(r.report);
        (void)reportHtml(r.report, {});
        (void)redactor.redact(r.report);
    };
    try {
        exercise(loadReportText(bytes, "fuzz", limits));
    } catch (const ReportError&) {
        // A clear refusal is the expected outcome for most inputs.
    }
    try {
        exercise(loadReportZip(bytes, "fuzz.zip", limits));
    } catch (const ReportError&) {
        // Same: a refused zip.
    }
    return 0;
}
