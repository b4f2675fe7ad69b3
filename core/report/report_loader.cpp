// Loading reports: size, depth and string caps enforced while parsing; zips read in memory, never extracted.
#include "core/report/report_loader.h"

#include "core/report/report_bandwidth.h"
#include "core/util/file_read.h"
#include "core/util/json_errors.h"

#include "core/snapshot/snapshot_json.h"

#ifdef STACKSCOPE_HAVE_LIBARCHIVE
#include <archive.h>
#include <archive_entry.h>
#endif
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <vector>

namespace stackscope::report {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string readCapped(const fs::path& path, std::uint64_t cap, const char* what)
{
    std::string why;
    auto text = readRegularFile(path, static_cast<std::size_t>(cap), &why);
    if (!text && why.rfind("larger than", 0) == 0)
        throw ReportError(fmt::format("{}: larger than the {} MiB a {} may have; this is not a StackScope report (or it "
                                      "was damaged): create the report again with `stackscope-cli report`",
                                      path.string(), cap / (1024 * 1024), what));
    if (!text)
        throw ReportError(fmt::format("{}: cannot be read ({}); check the path and its permissions", path.string(), why));
    return std::move(*text);
}

// Type checks with the key path, so a hand-edited report says where it went wrong.
void expectType(const json& parent, const char* key, bool (json::*is)() const noexcept, const char* typeName,
                const std::string& origin, bool nullable = true)
{
    auto it = parent.find(key);
    if (it == parent.end() || (nullable && it->is_null()))
        return;
    if (!((*it).*is)())
        throw ReportError(fmt::format("{}: '{}' must be {}, found {}; fix that value or create the report again "
                                      "with `stackscope-cli report`",
                                      origin, key, typeName, it->type_name()));
}

void validateReport(const json& r, const std::string& origin)
{
    expectType(r, "version", &json::is_string, "a string", origin);
    expectType(r, "created_at", &json::is_string, "a string", origin);
    expectType(r, "redaction", &json::is_object, "an object", origin);
    expectType(r, "probes", &json::is_object, "an object (stackscope-cli probe --json)", origin);
    expectType(r, "probes_note", &json::is_string, "a string", origin);
    expectType(r, "findings", &json::is_array, "an array", origin);
    expectType(r, "arch_coverage", &json::is_object, "an object", origin);
    expectType(r, "vpoc", &json::is_object, "an object", origin);
    expectType(r, "training", &json::is_object, "an object", origin);
    expectType(r, "telemetry", &json::is_object, "an object", origin);
    expectType(r, "logs", &json::is_array, "an array of strings", origin);
    expectType(r, "bandwidth", &json::is_object, "an object (stackscope-cli bench bandwidth --json)", origin);
    expectType(r, "bandwidth_note", &json::is_string, "a string", origin);
    if (r.contains("logs") && r["logs"].is_array()) {
        for (std::size_t i = 0; i < r["logs"].size(); ++i) {
            if (!r["logs"][i].is_string())
                throw ReportError(fmt::format("{}: 'logs[{}]' must be a string, found {}", origin, i, r["logs"][i].type_name()));
        }
    }
    if (r.contains("probes") && r["probes"].is_object()) {
        const auto& p = r["probes"];
        if (p.contains("results")) {
            if (!p["results"].is_array())
                throw ReportError(fmt::format("{}: 'probes.results' must be an array, found {}", origin, p["results"].type_name()));
            for (std::size_t i = 0; i < p["results"].size(); ++i) {
                const auto& x = p["results"][i];
                if (!x.is_object())
                    throw ReportError(fmt::format("{}: 'probes.results[{}]' must be an object, found {}", origin, i, x.type_name()));
                for (const char* k : {"probe", "device", "variant", "outcome", "message"}) {
                    if (x.contains(k) && !x[k].is_string())
                        throw ReportError(fmt::format("{}: 'probes.results[{}].{}' must be a string, found {}", origin,
                                                      i, k, x[k].type_name()));
                }
            }
        }
        if (p.contains("variants") && !p["variants"].is_array())
            throw ReportError(fmt::format("{}: 'probes.variants' must be an array, found {}", origin, p["variants"].type_name()));
    }
    if (r.contains("findings") && r["findings"].is_array()) {
        for (std::size_t i = 0; i < r["findings"].size(); ++i) {
            if (!r["findings"][i].is_object())
                throw ReportError(fmt::format("{}: 'findings[{}]' must be an object, found {}", origin, i,
                                              r["findings"][i].type_name()));
        }
    }
}

// Builds the document from the parser's events like nlohmann's own DOM parser, refusing as it goes what no report
// holds: nesting deeper than maxDepth, a string over maxStringBytes, a document whose memory (estimated per value,
// LoadLimits::maxParsedBytes) passes the budget. So a hostile file costs at most that budget besides its text.
// (Not json::parse with a callback: nlohmann 3.11's callback parser scans the parent array after every object or
// array that closes, quadratic time on "[{},{},...]".)
class GuardedDomBuilder {
public:
    GuardedDomBuilder(json& root, const LoadLimits& limits, const std::string& origin, std::size_t textBytes)
        : m_root(root), m_limits(limits), m_origin(origin), m_textBytes(textBytes)
    {
    }

    bool null() { return scalar(json(nullptr)); }
    bool boolean(bool v) { return scalar(json(v)); }
    bool number_integer(json::number_integer_t v) { return scalar(json(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return scalar(json(v)); }
    bool number_float(json::number_float_t v, const json::string_t& /*text*/) { return scalar(json(v)); }
    bool string(json::string_t& v)
    {
        checkString(v.size());
        charge(kString + heapString(v.size()));
        return scalar(json(std::move(v)));
    }
    bool binary(json::binary_t& v) { return scalar(json(std::move(v))); } // JSON text has none; the interface needs it

    bool start_object(std::size_t /*elements*/)
    {
        charge(kObject);
        m_stack.push_back(place(json(json::value_t::object)));
        return true;
    }
    bool key(json::string_t& k)
    {
        checkString(k.size());
        charge(kMember + heapString(k.size()));
        m_member = &(*m_stack.back())[k];
        return true;
    }
    bool end_object()
    {
        m_stack.pop_back();
        return true;
    }
    bool start_array(std::size_t /*elements*/)
    {
        charge(kArray);
        m_stack.push_back(place(json(json::value_t::array)));
        return true;
    }
    bool end_array()
    {
        m_stack.pop_back();
        return true;
    }

    // The parser's own exception (parse_error, out_of_range for 1E400), thrown as its type like json::parse does.
    template <class Exception>
    bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const Exception& e)
    {
        throw e;
    }

private:
    // Sizes on a 64-bit libstdc++ (LoadLimits::maxParsedBytes): a json value is 16 bytes, doubled in an array for its
    // spare capacity; malloc adds a 16-byte header to each allocation.
    static constexpr std::uint64_t kHeap = 16;
    static constexpr std::uint64_t kSlot = 32;
    static constexpr std::uint64_t kObject = kSlot + 48 + kHeap; // the std::map
    static constexpr std::uint64_t kArray = kSlot + 24 + kHeap;  // the std::vector
    static constexpr std::uint64_t kMember = 96;                 // a map node: links, key std::string, value, header
    static constexpr std::uint64_t kString = 32 + kHeap;         // the std::string a string value points to

    static std::uint64_t heapString(std::size_t n) { return n > 15 ? n + 1 + kHeap : 0; }

    void charge(std::uint64_t bytes)
    {
        m_bytes += bytes;
        if (m_bytes > m_limits.maxParsedBytes)
            throw ReportError(fmt::format("{}: the document would take more than {} MiB of memory once read ({} bytes "
                                          "of text in very many small values); a StackScope report is far smaller, so "
                                          "this file is damaged or not a report: create the report again with "
                                          "`stackscope-cli report`",
                                          m_origin, m_limits.maxParsedBytes / (1024 * 1024), m_textBytes));
    }

    void checkString(std::size_t n) const
    {
        if (n > m_limits.maxStringBytes)
            throw ReportError(fmt::format("{}: a string of {} bytes is longer than the {} MiB allowed; this file is "
                                          "damaged or not a report",
                                          m_origin, n, m_limits.maxStringBytes / (1024 * 1024)));
    }

    bool scalar(json v)
    {
        charge(kSlot);
        place(std::move(v));
        return true;
    }

    // Puts a value where the parser is: the root, the next element of the open array, or the open object's member.
    json* place(json v)
    {
        if (m_stack.size() > m_limits.maxDepth)
            throw ReportError(fmt::format("{}: nested deeper than {} levels; a StackScope report is never that deep, so "
                                          "this file is damaged or not a report",
                                          m_origin, m_limits.maxDepth));
        if (m_stack.empty()) {
            m_root = std::move(v);
            return &m_root;
        }
        json& parent = *m_stack.back();
        if (parent.is_array()) {
            parent.get_ref<json::array_t&>().push_back(std::move(v));
            return &parent.get_ref<json::array_t&>().back();
        }
        *m_member = std::move(v);
        return m_member;
    }

    json& m_root;
    const LoadLimits& m_limits;
    const std::string& m_origin;
    std::size_t m_textBytes;
    std::vector<json*> m_stack; // the open objects and arrays, innermost last
    json* m_member = nullptr;   // the open object's member the next value fills
    std::uint64_t m_bytes = 0;
};

bool looksLikeZip(const fs::path& path)
{
    const auto magic = readFileHead(path, 4);
    return magic && *magic == std::string("PK\x03\x04", 4);
}

} // namespace

LoadedReport loadReportText(const std::string& text, const std::string& origin, const LoadLimits& limits)
{
    if (text.size() > limits.maxFileBytes)
        throw ReportError(fmt::format("{}: {} bytes is larger than the {} MiB a report may have; this is not a "
                                      "StackScope report (or it was damaged): create the report again with "
                                      "`stackscope-cli report`",
                                      origin, text.size(), limits.maxFileBytes / (1024 * 1024)));
    json doc;
    try {
        GuardedDomBuilder builder(doc, limits, origin, text.size());
        json::sax_parse(text, &builder);
    } catch (const json::parse_error& e) {
        throw ReportError(fmt::format("{}: {}: not valid JSON ({}); the file is truncated or damaged: create "
                                      "the report again or give report.json from an intact copy",
                                      origin, jsonErrorPlace(text, e), e.what()));
    } catch (const json::exception& e) {
        // A number too large for a double (1E400) is out_of_range, not a parse_error (found by the fuzzer).
        const std::string place = jsonErrorPlace(text, e);
        throw ReportError(fmt::format("{}:{} not a usable JSON document ({}); the file is damaged: create the report "
                                      "again or give report.json from an intact copy",
                                      origin, place.empty() ? std::string() : " " + place + ":", jsonErrorWhat(e)));
    }
    if (!doc.is_object())
        throw ReportError(fmt::format("{}: the top level is {}, not an object; give a report.json or a snapshot JSON "
                                      "(stackscope-cli inspect --json)",
                                      origin, doc.type_name()));
    LoadedReport out;
    out.source = origin;
    const auto schemaIt = doc.find("schema");
    const std::string schema = schemaIt != doc.end() && schemaIt->is_string() ? schemaIt->get<std::string>() : "";
    try {
        if (schema == kSnapshotSchema) {
            out.snapshot = snapshotFromJson(doc);
            out.isSnapshotOnly = true;
            out.report = {{"schema", kReportSchema}, {"snapshot", std::move(doc)}};
            return out;
        }
        if (schema != kReportSchema)
            throw ReportError(fmt::format("{}: schema is {}; expected \"{}\" (report.json) or \"{}\" (a snapshot); give "
                                          "a StackScope report or snapshot",
                                          origin, schema.empty() ? std::string("missing") : "\"" + schema + "\"",
                                          kReportSchema, kSnapshotSchema));
        validateReport(doc, origin);
        auto snap = doc.find("snapshot");
        if (snap == doc.end() || !snap->is_object())
            throw ReportError(fmt::format("{}: 'snapshot' is missing or not an object; the report is incomplete, "
                                          "create it again",
                                          origin));
        out.snapshot = snapshotFromJson(*snap);
        out.bandwidth = reportBandwidth(doc, origin);
        out.logs = reportLogs(doc);
    } catch (const SnapshotError& e) {
        throw ReportError(fmt::format("{}: in the snapshot: {}", origin, e.what()));
    } catch (const json::exception& e) {
        throw ReportError(fmt::format("{}: a value has the wrong type ({}); create the report again", origin, e.what()));
    }
    out.report = std::move(doc);
    return out;
}

#ifdef STACKSCOPE_HAVE_LIBARCHIVE
namespace {

using ZipReader = std::unique_ptr<archive, decltype(&archive_read_free)>;

const char* archiveError(archive* a)
{
    return archive_error_string(a) ? archive_error_string(a) : "unknown";
}

ReportError zipError(const std::string& origin, const std::string& what)
{
    return ReportError(fmt::format("{}: {}; this zip was not written by StackScope (or was altered): give the "
                                   "report folder or report.json instead",
                                   origin, what));
}

ZipReader openZip(const std::string& bytes, const std::string& origin)
{
    ZipReader a(archive_read_new(), &archive_read_free);
    if (!a)
        throw ReportError("libarchive could not start a zip reader (out of memory?)");
    archive_read_support_format_zip(a.get());
    if (archive_read_open_memory(a.get(), bytes.data(), bytes.size()) != ARCHIVE_OK)
        throw ReportError(fmt::format("{}: not a readable zip ({}); give the report folder or report.json instead",
                                      origin, archiveError(a.get())));
    return a;
}

// The entry's path. Throws for an entry a StackScope zip never has: no name, an absolute path, "..", a
// backslash, a link, or something other than a plain file or folder.
std::string checkedEntryName(archive_entry* entry, std::size_t index, const std::string& origin)
{
    const char* rawName = archive_entry_pathname(entry);
    const std::string name = rawName ? rawName : "";
    if (name.empty())
        throw zipError(origin, fmt::format("entry {} has no name", index));
    if (name.front() == '/' || name.front() == '\\' || name.find(':') != std::string::npos)
        throw zipError(origin, fmt::format("entry '{}' has an absolute path", name));
    for (const auto& part : fs::path(name)) {
        if (part == "..")
            throw zipError(origin, fmt::format("entry '{}' points outside its folder (..)", name));
    }
    if (name.find('\\') != std::string::npos)
        throw zipError(origin, fmt::format("entry '{}' has a backslash in its path", name));
    if (archive_entry_hardlink(entry) || archive_entry_symlink(entry))
        throw zipError(origin, fmt::format("entry '{}' is a link", name));
    const auto type = archive_entry_filetype(entry);
    if (type != AE_IFREG && type != AE_IFDIR)
        throw zipError(origin, fmt::format("entry '{}' is not a plain file or folder", name));
    return name;
}

// Read with a cap whatever the header claims: a small entry may inflate to gigabytes.
std::string readEntryCapped(archive* a, const std::string& name, const LoadLimits& limits, const std::string& origin)
{
    std::string data;
    char buf[64 * 1024];
    while (true) {
        const auto n = archive_read_data(a, buf, sizeof buf);
        if (n < 0)
            throw zipError(origin, fmt::format("'{}' cannot be decompressed ({})", name, archiveError(a)));
        if (n == 0)
            break;
        if (data.size() + static_cast<std::size_t>(n) > limits.maxFileBytes)
            throw zipError(origin, fmt::format("'{}' inflates to more than {} MiB", name, limits.maxFileBytes / (1024 * 1024)));
        data.append(buf, static_cast<std::size_t>(n));
    }
    return data;
}

} // namespace
#endif

LoadedReport loadReportZip(const std::string& bytes, const std::string& origin, const LoadLimits& limits)
{
    if (bytes.size() > limits.maxZipBytes)
        throw ReportError(fmt::format("{}: {} bytes is larger than the {} MiB a report zip may have", origin,
                                      bytes.size(), limits.maxZipBytes / (1024 * 1024)));
#ifndef STACKSCOPE_HAVE_LIBARCHIVE
    throw ReportError(fmt::format("{}: this StackScope was built without libarchive, so it cannot read a zip; unzip "
                                  "it and open the folder or its report.json (or rebuild with libarchive-dev)",
                                  origin));
#else
    const ZipReader a = openZip(bytes, origin);
    std::optional<std::string> reportText;
    std::string reportEntry;
    std::size_t entries = 0;
    archive_entry* entry = nullptr;
    while (true) {
        const int rc = archive_read_next_header(a.get(), &entry);
        if (rc == ARCHIVE_EOF)
            break;
        if (rc != ARCHIVE_OK)
            throw zipError(origin, fmt::format("entry {} cannot be read ({})", entries + 1, archiveError(a.get())));
        if (++entries > limits.maxZipEntries)
            throw zipError(origin, fmt::format("more than {} entries", limits.maxZipEntries));
        const std::string name = checkedEntryName(entry, entries, origin);
        const auto slash = name.find('/');
        const std::string top = slash == std::string::npos ? "" : name.substr(0, slash);
        const std::string rest = slash == std::string::npos ? name : name.substr(slash + 1);
        const bool isReport = archive_entry_filetype(entry) == AE_IFREG &&
                              (name == "report.json" || (rest == "report.json" && !top.empty()));
        if (!isReport) {
            archive_read_data_skip(a.get());
            continue;
        }
        if (reportText)
            throw zipError(origin, fmt::format("two report.json entries ('{}' and '{}')", reportEntry, name));
        reportText = readEntryCapped(a.get(), name, limits, origin);
        reportEntry = name;
    }
    if (!reportText)
        throw zipError(origin, "it holds no report.json");
    auto loaded = loadReportText(*reportText, origin + "!" + reportEntry, limits);
    loaded.source = origin;
    return loaded;
#endif
}

LoadedReport loadReport(const std::string& path, const LoadLimits& limits)
{
    std::error_code ec;
    const fs::path p(path);
    const auto status = fs::status(p, ec);
    if (ec || !fs::exists(status))
        throw ReportError(fmt::format("{}: no such file or folder; give report.json, a report folder or its .zip",
                                      path));
    if (fs::is_directory(status)) {
        for (const char* name : {"report.json", "snapshot.json"}) {
            const auto candidate = p / name;
            if (fs::is_regular_file(candidate, ec)) {
                auto loaded = loadReportText(readCapped(candidate, limits.maxFileBytes, "report"), candidate.string(), limits);
                loaded.source = path;
                return loaded;
            }
        }
        throw ReportError(fmt::format("{}: this folder has no report.json (nor snapshot.json); give the "
                                      "stackscope-report-... folder itself",
                                      path));
    }
    if (!fs::is_regular_file(status))
        throw ReportError(fmt::format("{}: not a regular file; give report.json, a report folder or its .zip", path));
    if (looksLikeZip(p))
        return loadReportZip(readCapped(p, limits.maxZipBytes, "report zip"), path, limits);
    return loadReportText(readCapped(p, limits.maxFileBytes, "report"), path, limits);
}

} // namespace stackscope::report
