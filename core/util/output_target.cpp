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

// N when `path` is this process's descriptor link /proc/self/fd/N, /proc/thread-self/fd/N, /proc/<pid>/fd/N or
// /dev/fd/N (/dev/stdout and /dev/stderr lead there); -1 otherwise.
int ownDescriptor(const std::string& path)
{
    static const std::string prefixes[] = {"/proc/self/fd/", "/proc/thread-self/fd/", "/dev/fd/",
                                           fmt::format("/proc/{}/fd/", ::getpid())};
    for (const auto& prefix : prefixes) {
        if (path.compare(0, prefix.size(), prefix) != 0 || path.size() == prefix.size() || path.size() > prefix.size() + 9)
            continue;
        const std::string digits = path.substr(prefix.size());
        if (digits.find_first_not_of("0123456789") == std::string::npos)
            return std::stoi(digits);
    }
    return -1;
}

// A link whose text is no path ("pipe:[4026]", "socket:[77]", "anon_inode:[eventfd]"): a descriptor link in /proc,
// which only the kernel can follow (the pipe a shell gave as standard output). Classified by what it opens: a pipe
// or socket of our own descriptors is written through the descriptor; a pipe of another process's is a FIFO.
Target classifyDescriptorLink(const std::string& path, const std::string& asked)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw FileWriteError(fmt::format("{}: cannot look at {} ({}); choose a path you can write to", asked, path,
                                         std::strerror(errno)));
    Target t;
    t.path = path;
    t.mode = st.st_mode;
    const int fd = ownDescriptor(path);
    if (fd >= 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode))) {
        t.kind = TargetKind::Stream;
        t.fd = fd;
    } else if (S_ISFIFO(st.st_mode)) {
        t.kind = TargetKind::Stream;
    } else {
        t.kind = TargetKind::Refused;
        t.what = describe(st.st_mode);
    }
    return t;
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
        if (!link.empty() && link.front() != '/' && link.back() == ']' && link.find(":[") != std::string::npos)
            return classifyDescriptorLink(p, path);
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
    if (target.fd >= 0) { // one of our descriptors (standard output as /dev/stdout): written, left open
        std::fflush(stdout);
        std::fflush(stderr);
        for (std::string piece = next(); !piece.empty(); piece = next())
            writeAll(target.fd, piece, shownPath);
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
