// readRegularFile: open non-blocking, fstat, read at most the cap.
#include "core/util/file_read.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace stackscope {

namespace {

struct Fd {
    int fd = -1;
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

std::optional<std::string> refuse(std::string* why, std::string reason)
{
    if (why)
        *why = std::move(reason);
    return std::nullopt;
}

// Opens `path` for reading without blocking (a FIFO or a device is refused, never waited on); the fd is in `f`.
bool openRegular(const std::filesystem::path& path, Fd& f, struct stat& st, std::string* why)
{
    f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (f.fd < 0 || ::fstat(f.fd, &st) != 0) {
        refuse(why, std::strerror(errno));
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        refuse(why, "not a regular file");
        return false;
    }
    return true;
}

// Reads from `fd` until the end or until more than `limit` bytes are in `text` (then it holds limit + 1 bytes).
std::optional<std::string> readUpTo(int fd, std::size_t sizeHint, std::size_t limit, std::string* why)
{
    std::string text(std::min(sizeHint, limit + 1), '\0');
    std::size_t have = 0;
    while (have <= limit) {
        if (have == text.size())
            text.resize(std::min(limit + 1, std::max<std::size_t>(text.size() * 2, 4096)));
        const ssize_t n = ::read(fd, text.data() + have, text.size() - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return refuse(why, std::strerror(errno));
        if (n == 0)
            break;
        have += static_cast<std::size_t>(n);
    }
    text.resize(have);
    return text;
}

} // namespace

std::optional<std::string> readRegularFile(const std::filesystem::path& path, std::size_t capBytes, std::string* why)
{
    Fd f;
    struct stat st {};
    if (!openRegular(path, f, st, why))
        return std::nullopt;
    const std::string tooLarge = "larger than " + std::to_string(capBytes) + " bytes";
    if (static_cast<unsigned long long>(st.st_size) > capBytes)
        return refuse(why, tooLarge);
    auto text = readUpTo(f.fd, static_cast<std::size_t>(st.st_size), capBytes, why);
    if (text && text->size() > capBytes) // it grew while read, or a /proc file said size 0
        return refuse(why, tooLarge);
    return text;
}

std::optional<std::string> readFileHead(const std::filesystem::path& path, std::size_t maxBytes, std::string* why)
{
    Fd f;
    struct stat st {};
    if (!openRegular(path, f, st, why))
        return std::nullopt;
    auto text = readUpTo(f.fd, static_cast<std::size_t>(st.st_size), maxBytes, why);
    if (text && text->size() > maxBytes)
        text->resize(maxBytes);
    return text;
}

} // namespace stackscope
