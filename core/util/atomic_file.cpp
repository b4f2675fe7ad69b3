// Atomic whole-file writes (temp file in the target's folder, fsync, rename) that replace only regular files.
#include "core/util/atomic_file.h"

#include "core/util/output_target.h"
#include "core/util/temp_folder.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace stackscope {

namespace {

using output::Target;
using output::TargetKind;

// "the disk holding /data/runs has 0 MiB free": names the disk for a write that ran out of room.
std::string diskNote(const std::string& path)
{
    const auto slash = path.rfind('/');
    const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    struct statvfs fs {};
    if (::statvfs(folder.c_str(), &fs) != 0)
        return fmt::format("check free space on the disk holding {}", folder);
    const double freeMiB = static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize) / (1024.0 * 1024.0);
    return fmt::format("the disk holding {} has {:.0f} MiB free (or a file size limit, ulimit -f, applies): free "
                       "space there or write elsewhere",
                       folder, freeMiB);
}

std::string shown(const std::string& asked, const Target& t)
{
    return t.path == asked ? asked : fmt::format("{} (-> {})", asked, t.path);
}

// The target after links, refused when it must not be written at all.
Target checkedTarget(const std::string& path, OutputStreams streams)
{
    Target t = output::resolve(path);
    if (t.kind == TargetKind::Refused)
        throw FileWriteError(fmt::format("{} is {}; StackScope replaces only regular files: give a file name",
                                         shown(path, t), t.what));
    const bool stream = t.kind == TargetKind::Stream || t.kind == TargetKind::Stdout;
    if (stream && streams == OutputStreams::Refuse)
        throw FileWriteError(fmt::format("{} is {}; this output is a set of files written together: give a folder "
                                         "of regular files",
                                         shown(path, t), t.kind == TargetKind::Stdout ? "standard output" : "a stream"));
    return t;
}

// Writes `content` to a new temporary file beside `t.path`; returns its name. Nothing is left on failure.
std::string writeTemporary(const Target& t, const std::string& asked, const std::string& content)
{
    std::string tmpl = t.path + ".tmp-XXXXXX";
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0)
        throw FileWriteError(fmt::format("{}: cannot create a file there ({}); choose a folder you can write to",
                                         shown(asked, t), std::strerror(errno)));
    size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            ::unlink(tmpl.c_str());
            throw FileWriteError(fmt::format("{}: write failed ({}); {}", shown(asked, t), std::strerror(err),
                                             diskNote(t.path)));
        }
        done += static_cast<size_t>(n);
    }
    // A replaced file keeps its permission bits; a new one is 0644 like the rest of the outputs.
    ::fchmod(fd, t.kind == TargetKind::Regular ? (t.mode & 07777) : 0644);
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmpl.c_str());
        throw FileWriteError(fmt::format("{}: could not flush the file ({}); {}", shown(asked, t), std::strerror(err),
                                         diskNote(t.path)));
    }
    return tmpl;
}

void renameOver(const std::string& tmp, const Target& t, const std::string& asked)
{
    if (::rename(tmp.c_str(), t.path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw FileWriteError(fmt::format("{}: could not replace the file ({}); check permissions",
                                         shown(asked, t), std::strerror(err)));
    }
}

} // namespace

void writeFileAtomically(const std::string& path, const std::string& content, OutputStreams streams)
{
    const Target t = checkedTarget(path, streams);
    if (t.kind == TargetKind::Stream || t.kind == TargetKind::Stdout) {
        output::writeStream(t, shown(path, t), content);
        return;
    }
    renameOver(writeTemporary(t, path, content), t, path);
}

struct StagedOutputs::Entry {
    std::string asked;
    Target target;
    std::string temporary;     // regular targets
    std::string streamContent; // streams, written at commit
    int fd = -1;               // an open()ed output: its temporary file, or a stream's spool file
    std::string pending;       // appended, not yet written to fd
    bool spooled = false;      // a stream whose content is in the spool file
};

namespace {

constexpr std::size_t kAppendBuffer = 1u << 20;

std::string spoolFolder()
{
    return temporaryFolder();
}

void writePending(StagedOutputs::Entry& e)
{
    size_t done = 0;
    while (done < e.pending.size()) {
        const ssize_t n = ::write(e.fd, e.pending.data() + done, e.pending.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int err = errno;
            throw FileWriteError(fmt::format("{}: write failed ({}); {}", shown(e.asked, e.target), std::strerror(err),
                                             diskNote(e.spooled ? spoolFolder() + "/spool" : e.target.path)));
        }
        done += static_cast<size_t>(n);
    }
    e.pending.clear();
}

// Flushes an open()ed regular output and closes its temporary file, ready to be renamed.
void finishTemporary(StagedOutputs::Entry& e)
{
    writePending(e);
    ::fchmod(e.fd, e.target.kind == TargetKind::Regular ? (e.target.mode & 07777) : 0644);
    const int fd = e.fd;
    e.fd = -1;
    if (::fsync(fd) != 0 || ::close(fd) != 0)
        throw FileWriteError(fmt::format("{}: could not flush the file ({}); {}", shown(e.asked, e.target),
                                         std::strerror(errno), diskNote(e.target.path)));
}

} // namespace

StagedOutputs::StagedOutputs(OutputStreams streams)
    : m_streams(streams)
{
}

StagedOutputs::~StagedOutputs()
{
    for (const auto& e : m_entries) {
        if (e->fd >= 0)
            ::close(e->fd);
        if (!e->temporary.empty())
            ::unlink(e->temporary.c_str()); // an uncommitted set leaves nothing behind
    }
}

std::size_t StagedOutputs::open(const std::string& path)
{
    stage(path, std::string()); // checks the target, refuses a second use of it, creates the temporary file
    auto& e = *m_entries.back();
    if (!e.temporary.empty()) {
        e.fd = ::open(e.temporary.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    } else {
        std::string spool = spoolFolder() + "/stackscope-spool-XXXXXX";
        e.fd = ::mkstemp(spool.data());
        if (e.fd >= 0)
            ::unlink(spool.c_str()); // gone with the descriptor, whatever happens
        e.spooled = true;
        if (e.fd < 0) {
            // A bad TMPDIR (missing, a file, read-only) is the usual cause: say so, not "choose a folder".
            const int err = errno;
            const auto problem = temporaryFolderProblem();
            throw FileWriteError(fmt::format("{}: {}", shown(path, e.target),
                                             temporaryFolderMessage("the spool file of this stream",
                                                                    problem.empty() ? std::strerror(err) : problem)));
        }
    }
    if (e.fd < 0)
        throw FileWriteError(fmt::format("{}: cannot open a file to write it ({}); choose a folder you can write to "
                                         "(streams are spooled in $TMPDIR)",
                                         shown(path, e.target), std::strerror(errno)));
    return m_entries.size() - 1;
}

void StagedOutputs::append(std::size_t output, std::string_view piece)
{
    auto& e = *m_entries.at(output);
    if (e.fd < 0)
        throw std::logic_error("StagedOutputs::append on an output that was not open()ed");
    e.pending.append(piece);
    if (e.pending.size() >= kAppendBuffer)
        writePending(e);
}

void StagedOutputs::stage(const std::string& path, const std::string& content)
{
    auto e = std::make_unique<Entry>();
    e->asked = path;
    e->target = checkedTarget(path, m_streams);
    for (const auto& other : m_entries)
        if (other->target.path == e->target.path && e->target.kind != TargetKind::Stdout)
            throw FileWriteError(fmt::format("{} is named twice as an output; give each output its own file", path));
    if (e->target.kind == TargetKind::Stream || e->target.kind == TargetKind::Stdout)
        e->streamContent = content;
    else
        e->temporary = writeTemporary(e->target, path, content);
    m_entries.push_back(std::move(e));
}

void StagedOutputs::commit()
{
    for (auto& e : m_entries) {
        if (e->fd >= 0 && !e->spooled)
            finishTemporary(*e);
        else if (e->fd >= 0)
            writePending(*e);
    }
    for (auto& e : m_entries) {
        if (!e->temporary.empty())
            continue;
        if (e->spooled) {
            output::writeStreamFrom(e->target, shown(e->asked, e->target), e->fd);
            ::close(e->fd);
            e->fd = -1;
        } else
            output::writeStream(e->target, shown(e->asked, e->target), e->streamContent);
    }
    for (auto& e : m_entries) {
        if (e->temporary.empty())
            continue;
        const std::string tmp = std::move(e->temporary);
        e->temporary.clear();
        renameOver(tmp, e->target, e->asked);
    }
    m_entries.clear();
}

} // namespace stackscope
