// Report folder and zip: everything is written under temporary names first, so a failure leaves nothing behind.
#include "core/report/report_writer.h"

#ifdef STACKSCOPE_HAVE_LIBARCHIVE
#include <archive.h>
#include <archive_entry.h>
#endif
#include <fmt/format.h>

#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>

namespace stackscope::report {

namespace fs = std::filesystem;

namespace {

struct FileToWrite {
    std::string relPath; // inside the report folder
    std::string content;
};

void writeFile(const fs::path& path, const std::string& content)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out)
        throw ReportError(fmt::format("cannot write {}: is the disk full or the folder read-only? Choose another "
                                      "output folder",
                                      path.string()));
}

std::string safeImageName(const std::string& name, std::size_t index)
{
    // Only the last path component: an image name never chooses a folder.
    const auto slash = name.find_last_of("/\\");
    const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
    std::string out;
    for (char c : base) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
                        || c == '.';
        out += ok ? c : '_';
    }
    while (!out.empty() && out.front() == '.')
        out.erase(out.begin());
    if (out.size() < 5 || out.compare(out.size() - 4, 4, ".png") != 0)
        out += ".png";
    if (out == ".png")
        out = fmt::format("image-{}.png", index + 1);
    return out;
}

// Removes a temporary folder or file unless released (the report was published).
class TempPath {
public:
    explicit TempPath(fs::path p) : m_path(std::move(p)) {}
    ~TempPath()
    {
        if (m_path.empty())
            return;
        std::error_code ec;
        fs::remove_all(m_path, ec); // best effort on an error path; the original error is what the caller sees
    }
    TempPath(const TempPath&) = delete;
    TempPath& operator=(const TempPath&) = delete;
    const fs::path& path() const { return m_path; }
    void release() { m_path.clear(); }

private:
    fs::path m_path;
};

#ifdef STACKSCOPE_HAVE_LIBARCHIVE
void writeZip(const fs::path& zipPath, const std::string& topName, const std::vector<FileToWrite>& files)
{
    std::unique_ptr<archive, decltype(&archive_write_free)> a(archive_write_new(), &archive_write_free);
    if (!a)
        throw ReportError("libarchive could not start a zip writer (out of memory?)");
    auto check = [&](int rc, const char* what) {
        if (rc != ARCHIVE_OK)
            throw ReportError(fmt::format("writing {}: {} failed: {}; check the disk space and permissions of the "
                                          "output folder",
                                          zipPath.string(), what, archive_error_string(a.get()) ? archive_error_string(a.get()) : "unknown error"));
    };
    check(archive_write_set_format_zip(a.get()), "choosing the zip format");
    check(archive_write_open_filename(a.get(), zipPath.c_str()), "opening the file");
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(archive_entry_new(), &archive_entry_free);
    const std::time_t now = std::time(nullptr);
    auto addDir = [&](const std::string& name) {
        archive_entry_clear(entry.get());
        archive_entry_set_pathname(entry.get(), (name + "/").c_str());
        archive_entry_set_filetype(entry.get(), AE_IFDIR);
        archive_entry_set_perm(entry.get(), 0755);
        archive_entry_set_mtime(entry.get(), now, 0);
        check(archive_write_header(a.get(), entry.get()), "adding a folder");
    };
    addDir(topName);
    addDir(topName + "/screenshots");
    addDir(topName + "/logs");
    for (const auto& f : files) {
        archive_entry_clear(entry.get());
        const auto name = topName + "/" + f.relPath;
        archive_entry_set_pathname(entry.get(), name.c_str());
        archive_entry_set_filetype(entry.get(), AE_IFREG);
        archive_entry_set_perm(entry.get(), 0644);
        archive_entry_set_size(entry.get(), static_cast<la_int64_t>(f.content.size()));
        archive_entry_set_mtime(entry.get(), now, 0);
        check(archive_write_header(a.get(), entry.get()), "adding an entry");
        if (!f.content.empty()) {
            const auto n = archive_write_data(a.get(), f.content.data(), f.content.size());
            if (n < 0 || static_cast<std::size_t>(n) != f.content.size())
                check(ARCHIVE_FATAL, "writing an entry");
        }
    }
    check(archive_write_close(a.get()), "finishing the zip");
}
#endif

} // namespace

std::string reportFolderName(std::chrono::system_clock::time_point now)
{
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    std::tm tm {};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
    return std::string("stackscope-report-") + buf;
}

WrittenReport writeReport(const std::string& parentDir, const nlohmann::json& report,
                          const std::vector<ReportImage>& images, std::chrono::system_clock::time_point now)
{
    std::error_code ec;
    const fs::path parent(parentDir.empty() ? "." : parentDir);
    fs::create_directories(parent, ec);
    if (ec || !fs::is_directory(parent))
        throw ReportError(fmt::format("--out {}: cannot create that folder ({}); give a folder you can write to",
                                      parent.string(), ec ? ec.message() : "not a folder"));
    // A second report in the same second gets -2, -3 ... rather than replacing the first.
    const std::string base = reportFolderName(now);
    std::string name = base;
    for (int n = 2; fs::exists(parent / name, ec) || fs::exists(parent / (name + ".zip"), ec); ++n) {
        if (n > 99)
            throw ReportError(fmt::format("{}: 99 reports of the same second already exist; remove some", parent.string()));
        name = fmt::format("{}-{}", base, n);
    }

    std::vector<FileToWrite> files;
    // Strings that are not UTF-8 (a GPU name read from sysfs, a log) become U+FFFD instead of aborting the report.
    files.push_back({"report.json", report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"});
    files.push_back({"report.md", reportMarkdown(report)});
    files.push_back({"report.html", reportHtml(report, images)});
    std::string logs;
    if (report.contains("logs") && report["logs"].is_array()) {
        for (const auto& l : report["logs"])
            logs += (l.is_string() ? l.get<std::string>() : l.dump()) + "\n";
    }
    files.push_back({"logs/recent.log", logs});
    for (std::size_t i = 0; i < images.size(); ++i) {
        auto file = safeImageName(images[i].name, i);
        for (int n = 2; std::any_of(files.begin(), files.end(), [&](const FileToWrite& f) { return f.relPath == "screenshots/" + file; }); ++n)
            file = fmt::format("{}-{}.png", file.substr(0, file.size() - 4), n);
        files.push_back({"screenshots/" + file, images[i].png});
    }

    const std::string tmpSuffix = fmt::format(".tmp-{}", ::getpid());
    TempPath tmpFolder(parent / ("." + name + tmpSuffix));
    fs::remove_all(tmpFolder.path(), ec);
    fs::create_directories(tmpFolder.path() / "screenshots", ec);
    if (!ec)
        fs::create_directories(tmpFolder.path() / "logs", ec);
    if (ec)
        throw ReportError(fmt::format("cannot create {}: {}; give an output folder you can write to",
                                      tmpFolder.path().string(), ec.message()));
    for (const auto& f : files)
        writeFile(tmpFolder.path() / f.relPath, f.content);

    TempPath tmpZip(parent / ("." + name + ".zip" + tmpSuffix));
#ifdef STACKSCOPE_HAVE_LIBARCHIVE
    writeZip(tmpZip.path(), name, files);
    const bool zipped = true;
#else
    const bool zipped = false; // built without libarchive: the folder alone
#endif

    const fs::path folder = parent / name;
    const fs::path zip = parent / (name + ".zip");
    fs::rename(tmpFolder.path(), folder, ec);
    if (ec)
        throw ReportError(fmt::format("cannot rename {} to {}: {}", tmpFolder.path().string(), folder.string(), ec.message()));
    tmpFolder.release();
    if (!zipped)
        return {fs::absolute(folder).lexically_normal().string(), {}};
    fs::rename(tmpZip.path(), zip, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove_all(folder, ignored); // the pair is published together or not at all
        throw ReportError(fmt::format("cannot rename {} to {}: {}", tmpZip.path().string(), zip.string(), ec.message()));
    }
    tmpZip.release();
    return {fs::absolute(folder).lexically_normal().string(), fs::absolute(zip).lexically_normal().string()};
}

} // namespace stackscope::report
