// Writes a report folder (report.html, report.md, report.json, screenshots/, logs/) atomically, and its .zip.
#pragma once

#include "core/report/report.h"

#include <chrono>
#include <string>
#include <vector>

namespace stackscope::report {

struct WrittenReport {
    std::string folder; // <parent>/stackscope-report-YYYYMMDD-HHMMSS
    std::string zip;    // <folder>.zip; empty when this StackScope was built without libarchive
};

// "stackscope-report-20261121-190312" for `now` in UTC.
std::string reportFolderName(std::chrono::system_clock::time_point now);

// Builds the folder under a temporary name in `parentDir`, then renames it; the zip (made with
// libarchive, entries under the folder's name) is written to a temporary file and renamed too.
// An existing folder of the same name gets "-2", "-3"... Image names are reduced to [A-Za-z0-9_.-]
// and must end in .png. Throws ReportError (nothing is left behind) when anything fails.
WrittenReport writeReport(const std::string& parentDir, const nlohmann::json& report,
                          const std::vector<ReportImage>& images, std::chrono::system_clock::time_point now);

} // namespace stackscope::report
