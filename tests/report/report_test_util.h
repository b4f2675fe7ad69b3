// Shared by the report suites: the planted secrets, reading files and zip entries back, making hostile zips.
#pragma once

#include <archive.h>
#include <archive_entry.h>

#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

namespace stackscope::test {

inline const QString kReportFixtures = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/report");

// Every private value planted in tests/fixtures/report/planted_snapshot.json and planted.log.
inline QStringList plantedSecrets()
{
    return {"zorbuser",          "zorb-workstation-7", "10.23.45.67",      "fd12:3456:789a:1::42",
            "3c:ec:ef:12:34:56", "5d3a8f1e-1c2b",      "0123456789ab",     "692311001234",
            "00-e0-4c-ff-fe-68", "a1b2c3d4e5f60718"};
}

// The same values in the other notations a log may use (tests/fixtures/report/planted.log, last three lines):
// letter case, inside longer words, Cisco and bare MACs, board/product serials, a DSN with colons. Matched
// case-insensitively: a redacted report holds none of them in any case.
inline QStringList plantedOtherForms()
{
    return {"zorbuser", "zorb-workstation-7", "3cec.ef12.3456", "3cecef123456", "pm1234567890", "1324120012345",
            "0325218012345", "00:e0:4c:ff:fe:68"};
}

struct NamedBytes {
    QString name;
    QByteArray bytes;
};

inline std::vector<NamedBytes> filesUnder(const QString& folder)
{
    std::vector<NamedBytes> out;
    QDirIterator it(folder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const auto path = it.next();
        QFile f(path);
        if (f.open(QIODevice::ReadOnly))
            out.push_back({path, f.readAll()});
        else
            out.push_back({path + " (unreadable)", {}});
    }
    return out;
}

// Every entry of a zip, decompressed, read back with libarchive.
inline std::vector<NamedBytes> zipEntries(const QString& zipPath)
{
    std::vector<NamedBytes> out;
    std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_new(), &archive_read_free);
    archive_read_support_format_zip(a.get());
    if (archive_read_open_filename(a.get(), QFile::encodeName(zipPath).constData(), 65536) != ARCHIVE_OK)
        return out;
    archive_entry* e = nullptr;
    while (archive_read_next_header(a.get(), &e) == ARCHIVE_OK) {
        NamedBytes nb {QString::fromUtf8(archive_entry_pathname(e)), {}};
        char buf[65536];
        la_ssize_t n = 0;
        while ((n = archive_read_data(a.get(), buf, sizeof buf)) > 0)
            nb.bytes.append(buf, static_cast<int>(n));
        out.push_back(nb);
    }
    return out;
}

struct ZipItem {
    std::string name;
    std::string content;
    unsigned type = AE_IFREG; // AE_IFLNK with `content` as the target
    std::size_t zeros = 0;    // when > 0, this many zero bytes instead of content (a bomb-ish entry)
};

inline bool writeZip(const QString& path, const std::vector<ZipItem>& items)
{
    std::unique_ptr<archive, decltype(&archive_write_free)> a(archive_write_new(), &archive_write_free);
    archive_write_set_format_zip(a.get());
    if (archive_write_open_filename(a.get(), QFile::encodeName(path).constData()) != ARCHIVE_OK)
        return false;
    for (const auto& it : items) {
        std::unique_ptr<archive_entry, decltype(&archive_entry_free)> e(archive_entry_new(), &archive_entry_free);
        archive_entry_set_pathname(e.get(), it.name.c_str());
        archive_entry_set_filetype(e.get(), it.type);
        archive_entry_set_perm(e.get(), 0644);
        if (it.type == AE_IFLNK) {
            archive_entry_set_symlink(e.get(), it.content.c_str());
            archive_entry_set_size(e.get(), 0);
            if (archive_write_header(a.get(), e.get()) != ARCHIVE_OK)
                return false;
            continue;
        }
        const std::size_t size = it.zeros ? it.zeros : it.content.size();
        archive_entry_set_size(e.get(), static_cast<la_int64_t>(size));
        if (archive_write_header(a.get(), e.get()) != ARCHIVE_OK)
            return false;
        if (it.zeros) {
            const std::string chunk(1 << 20, '\0');
            for (std::size_t done = 0; done < it.zeros; done += chunk.size())
                archive_write_data(a.get(), chunk.data(), std::min(chunk.size(), it.zeros - done));
        } else {
            archive_write_data(a.get(), it.content.data(), it.content.size());
        }
    }
    return archive_write_close(a.get()) == ARCHIVE_OK;
}

inline QStringList listing(const QString& folder)
{
    QStringList out;
    QDirIterator it(folder, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    out.sort();
    return out;
}

// The first file (or zip entry) whose bytes, lower-cased, hold one of `forms` (lower-case): "NAME holds FORM", or "".
inline QString leakInAnyCase(const std::vector<NamedBytes>& files, const QStringList& forms)
{
    for (const auto& f : files) {
        const QByteArray lowered = f.bytes.toLower();
        for (const auto& form : forms)
            if (lowered.contains(form.toUtf8()))
                return f.name + " holds " + form;
    }
    return {};
}

} // namespace stackscope::test
