// A report's "logs" read back into the logs it was made of: the app's own messages, then each pasted, dropped or
// --log file under its "==> origin[, kept TIME][ (its last N of M lines)] <==" header (as SessionLogModel and
// `stackscope-cli report --log` write them), so an opened report can list, diagnose and export them again.
#pragma once

#include <string>
#include <vector>

namespace stackscope::report {

struct ReportLog {
    std::string origin; // the header's origin ("pasted text", "train.log"); kAppMessagesOrigin for the lines before any header
    std::string keptAt; // the header's ISO time when it has one, else ""
    std::vector<std::string> lines;
};

// The origin given to the lines that came before the first header (the app's own messages in the writing session).
inline constexpr const char* kAppMessagesOrigin = "StackScope's messages when the report was written";

// The lines of a report's logs split at the headers (reportLogs in report_loader.h reads them from the document).
std::vector<ReportLog> splitReportLogLines(const std::vector<std::string>& lines);

} // namespace stackscope::report
