// A report's logs split back at their "==> origin <==" headers.
#include "core/report/report_logs.h"

#include "core/report/report.h"
#include "core/report/report_loader.h"

#include <fmt/format.h>

#include <optional>
#include <string_view>

namespace stackscope::report {

namespace {

constexpr std::string_view kOpen = "==> ";
constexpr std::string_view kClose = " <==";

struct Header {
    std::string origin;
    std::string keptAt;
};

// "==> train.log, kept 2026-11-27T10:00:00Z (its last 1000 of 1500 lines) <==" -> {train.log, 2026-11-27T10:00:00Z}.
std::optional<Header> parseHeader(std::string_view line)
{
    if (line.size() < kOpen.size() + kClose.size() || line.substr(0, kOpen.size()) != kOpen
        || line.substr(line.size() - kClose.size()) != kClose)
        return std::nullopt;
    std::string_view inner = line.substr(kOpen.size(), line.size() - kOpen.size() - kClose.size());
    if (const auto last = inner.rfind(" (its last "); last != std::string_view::npos && inner.back() == ')')
        inner = inner.substr(0, last);
    Header h;
    if (const auto kept = inner.rfind(", kept "); kept != std::string_view::npos) {
        h.keptAt = std::string(inner.substr(kept + 7));
        inner = inner.substr(0, kept);
    }
    h.origin = std::string(inner);
    return h;
}

} // namespace

std::vector<ReportLog> splitReportLogLines(const std::vector<std::string>& lines)
{
    std::vector<ReportLog> out;
    for (const auto& line : lines) {
        if (auto header = parseHeader(line)) {
            out.push_back({std::move(header->origin), std::move(header->keptAt), {}});
            continue;
        }
        if (out.empty())
            out.push_back({kAppMessagesOrigin, "", {}});
        out.back().lines.push_back(line);
    }
    return out;
}

std::vector<ReportLog> reportLogs(const nlohmann::json& report)
{
    const auto it = report.find("logs");
    if (it == report.end() || it->is_null())
        return {};
    if (!it->is_array())
        throw ReportError(fmt::format("logs: is a {}, not a list of lines; the report is damaged, export it again",
                                      it->type_name()));
    std::vector<std::string> lines;
    lines.reserve(it->size());
    for (std::size_t i = 0; i < it->size(); ++i) {
        const auto& l = (*it)[i];
        if (!l.is_string())
            throw ReportError(fmt::format("logs[{}]: is a {}, not a line of text; the report is damaged, export it again",
                                          i, l.type_name()));
        lines.push_back(l.get<std::string>());
    }
    return splitReportLogLines(lines);
}

} // namespace stackscope::report
