// Output path resolution (links followed, kinds told apart) and direct writes into FIFOs, terminals and stdout.
#include "core/util/output_target.h"

#include "core/util/atomic_file.h"
#include "core/util/sigpipe_block.h"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace stackscope::output {

namespace {

constexpr int kMaxLinkHops = 40; // Linux's own limit (ELOOP after 40 links)

std::string describe(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISBLK(mode))
        return "a block device (a disk)";
    if (S_ISCHR(mode))
        return "a device";
    return "not a regular file";
}

std::string readLink(const std::string& path)
{
    std::string buf(4096, '\0');
    const ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size());
    if (n < 0 || static_cast<size_t>(n) >= buf.size())
        throw FileWriteError(fmt::format("{}: cannot read the symbolic link ({}); name the file it points to instead",
                                         path, n < 0 ? std::strerror(errno) : "target too long"));
    buf.resize(static_cast<size_t>(n));
    return buf;
}

Target classify(const std::string& path, const struct stat& st)
{
    Target t;
    t.path = path;
    t.mode = st.st_mode;
    if (S_ISREG(st.st_mode))
        t.kind = TargetKind::Regular;
    else if (S_ISFIFO(st.st_mode) || (S_ISCHR(st.st_mode) && isSafeCharacterDevice(st.st_rdev)))
        t.kind = TargetKind::Stream;
    else {
        t.kind = TargetKind::Refused;
        t.what = describe(st.st_mode);
    }
    return t;
}

void writeAll(int fd, const std::string& content, const std::string& shownPath)
{
    size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw FileWriteError(fmt::format("{}: write failed ({}){}", shownPath, std::strerror(errno),
                                             errno == EPIPE ? "; the reader went away: keep it reading until the end"
                                                            : "; check free space and that the reader keeps up"));
        done += static_cast<size_t>(n);
    }
}

} // namespace

bool isSafeCharacterDevice(dev_t rdev)
{
    const unsigned maj = major(rdev);
    const unsigned min = minor(rdev);
    if (maj == 1) // memory devices: 3 null, 5 zero, 7 full (1 mem, 2 kmem, 4 port are not outputs)
        return min == 3 || min == 5 || min == 7;
    if (maj == 4) // virtual consoles and serial ports
        return true;
    if (maj == 5) // 0 /dev/tty, 1 /dev/console (2 is /dev/ptmx)
        return min == 0 || min == 1;
    return maj >= 136 && maj <= 143; // Unix98 PTY slaves (/dev/pts/N)
}

Target resolve(const std::string& path)
{
    if (path == "-")
        return Target {"-", TargetKind::Stdout, 0, {}};
    std::string p = path;
    for (int hop = 0; hop <= kMaxLinkHops; ++hop) {
        struct stat st {};
        if (::lstat(p.c_str(), &st) != 0) {
            if (errno == ENOENT)
                return Target {p, TargetKind::Missing, 0, {}};
            throw FileWriteError(fmt::format("{}: cannot look at {} ({}); choose a path you can write to", path, p,
                                             std::strerror(errno)));
        }
        if (!S_ISLNK(st.st_mode))
            return classify(p, st);
        const std::string link = readLink(p);
        const auto slash = p.rfind('/');
        p = (link.front() == '/' || slash == std::string::npos) ? link : p.substr(0, slash + 1) + link;
    }
    throw FileWriteError(fmt::format("{}: more than {} symbolic links in a row (a loop?); name the real file",
                                     path, kMaxLinkHops));
}

namespace {

// Opens a FIFO or safe device without waiting for a reader, then makes the writes blocking; -1 never returned.
int openStreamTarget(const Target& target, const std::string& shownPath)
{
    const int fd = ::open(target.path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        if (err == ENXIO && S_ISFIFO(target.mode))
            throw FileWriteError(fmt::format("{}: no program is reading from this FIFO; start the reader first "
                                             "(StackScope does not wait for one)", shownPath));
        throw FileWriteError(fmt::format("{}: cannot open it for writing ({}); choose another output",
                                         shownPath, std::strerror(err)));
    }
    // Opened without waiting; the writes themselves may wait for the reader.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

// Calls write(fd, piece) for each piece `next` gives until it gives an empty one.
template <typename Next>
void writePieces(const Target& target, const std::string& shownPath, Next next)
{
    SigpipeBlock noSigpipe;
    if (target.kind == TargetKind::Stdout) {
        std::fflush(stdout);
        for (std::string piece = next(); !piece.empty(); piece = next())
            writeAll(STDOUT_FILENO, piece, "standard output");
        return;
    }
    const int fd = openStreamTarget(target, shownPath);
    try {
        for (std::string piece = next(); !piece.empty(); piece = next())
            writeAll(fd, piece, shownPath);
    } catch (const FileWriteError&) {
        ::close(fd);
        throw;
    }
    ::close(fd);
}

} // namespace

void writeStream(const Target& target, const std::string& shownPath, const std::string& content)
{
    bool given = false;
    writePieces(target, shownPath, [&] {
        if (given)
            return std::string();
        given = true;
        return content;
    });
}

void writeStreamFrom(const Target& target, const std::string& shownPath, int fromFd)
{
    if (::lseek(fromFd, 0, SEEK_SET) != 0)
        throw FileWriteError(fmt::format("{}: the spooled output cannot be read back ({})", shownPath, std::strerror(errno)));
    writePieces(target, shownPath, [&] {
        std::string piece(1u << 20, '\0');
        ssize_t n = 0;
        do
            n = ::read(fromFd, piece.data(), piece.size());
        while (n < 0 && errno == EINTR);
        if (n < 0)
            throw FileWriteError(fmt::format("{}: the spooled output cannot be read back ({})", shownPath,
                                             std::strerror(errno)));
        piece.resize(static_cast<size_t>(n));
        return piece;
    });
}

} // namespace stackscope::output
