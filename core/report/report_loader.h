// Reads a report back (report.json, a report folder or its .zip) or a plain snapshot, safely.
#pragma once

#include "core/report/report.h"
#include "core/snapshot/snapshot.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace stackscope::report {

// Hostile input is refused before it can cost much: these caps are checked while parsing.
struct LoadLimits {
    std::uint64_t maxFileBytes = 64ull * 1024 * 1024; // report.json, or the zip entry uncompressed
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
};

// Throws ReportError naming the file (and the key path for wrong types) and what to do.
// A zip is read in memory with libarchive: only <folder>/report.json (or report.json) is read; entries
// with absolute or ../ paths, links, or more than the caps make the zip refused; nothing is written.
LoadedReport loadReport(const std::string& path, const LoadLimits& limits = {});
// The same checks on text already in memory (the fuzzer's entry point); `origin` names it in errors.
LoadedReport loadReportText(const std::string& text, const std::string& origin, const LoadLimits& limits = {});
// A zip already in memory.
LoadedReport loadReportZip(const std::string& bytes, const std::string& origin, const LoadLimits& limits = {});

} // namespace stackscope::report
