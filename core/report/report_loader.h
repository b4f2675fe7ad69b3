// Reads a report back (report.json, a report folder or its .zip) or a plain snapshot, safely.
#pragma once

#include "core/perf/suite_run.h"
#include "core/report/report.h"
#include "core/report/report_logs.h"
#include "core/snapshot/snapshot.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stackscope::report {

// Hostile input is refused before it can cost much: these caps are checked while parsing.
//
// What a real report.json can hold (buildReport's caps): the log tail, 2,000 lines of at most 4,102 bytes (8 MiB; 16 MiB
// with the escapes of coloured logs); the training metadata, at most 100,000 epochs (training_config's cap) of six
// values, about 250 bytes each written (24 MiB); the snapshot, probe records, findings, telemetry summary and the last
// 20 VPOC sessions without profiles, a few MiB together (8 MiB allowed). So 48 MiB of text.
// Parsed, that largest report is about 110 MiB by the estimate below (the epochs' 700,000 small values dominate: about
// 1 KB an epoch); a file of the same size made of the smallest values ("[{},{},...]", 3 bytes each) would be 1.7 GB,
// so the parse also keeps a running estimate of the memory the document takes and stops at maxParsedBytes (2.3 times
// the largest real report).
struct LoadLimits {
    std::uint64_t maxFileBytes = 48ull * 1024 * 1024; // report.json, or the zip entry uncompressed
    // Estimated memory of the parsed document (nlohmann::json on a 64-bit libstdc++: 32 bytes a value with its share
    // of the parent array, 96 an object member's node, 48 more for a string and its length when over 15 bytes, 64 an
    // object's map, 40 an array's vector).
    std::uint64_t maxParsedBytes = 256ull * 1024 * 1024;
    std::uint64_t maxZipBytes = 512ull * 1024 * 1024; // the .zip file itself (screenshots are big)
    std::size_t maxDepth = 64;
    std::size_t maxStringBytes = 4u * 1024 * 1024;
    std::size_t maxZipEntries = 10000;
};

struct LoadedReport {
    nlohmann::json report;  // the whole report; for a snapshot-only file, a report with only "snapshot"
    Snapshot snapshot;
    std::string source;     // the path given, plus "!report.json" for a zip
    bool isSnapshotOnly = false;
    std::optional<perf::SuiteRun> bandwidth; // the report's bandwidth run ("bandwidth"), when it has one
    std::vector<ReportLog> logs; // its "logs" split back into the app's messages and each pasted or given log
};

// A report document's "logs" array, split at its headers; a missing or null "logs" is no logs. Throws ReportError when
// "logs" is not an array of strings (naming the index), so a damaged report is said to be damaged, not shown as log-free.
std::vector<ReportLog> reportLogs(const nlohmann::json& report);

// Throws ReportError naming the file (and the key path for wrong types) and what to do.
// A zip is read in memory with libarchive: only <folder>/report.json (or report.json) is read; entries
// with absolute or ../ paths, links, or more than the caps make the zip refused; nothing is written.
LoadedReport loadReport(const std::string& path, const LoadLimits& limits = {});
// The same checks on text already in memory (the fuzzer's entry point); `origin` names it in errors.
LoadedReport loadReportText(const std::string& text, const std::string& origin, const LoadLimits& limits = {});
// A zip already in memory.
LoadedReport loadReportZip(const std::string& bytes, const std::string& origin, const LoadLimits& limits = {});

} // namespace stackscope::report
