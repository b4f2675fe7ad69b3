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

} // namespace

std::optional<std::string> readRegularFile(const std::filesystem::path& path, std::size_t capBytes, std::string* why)
{
    Fd f;
    f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (f.fd < 0)
        return refuse(why, std::strerror(errno));
    struct stat st {};
    if (::fstat(f.fd, &st) != 0)
        return refuse(why, std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        return refuse(why, "not a regular file");
    const std::string tooLarge = "larger than " + std::to_string(capBytes) + " bytes";
    if (static_cast<unsigned long long>(st.st_size) > capBytes)
        return refuse(why, tooLarge);
    std::string text;
    text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t have = 0;
    for (;;) {
        if (have == text.size())
            text.resize(std::min(capBytes + 1, std::max<std::size_t>(text.size() * 2, 4096)));
        const ssize_t n = ::read(f.fd, text.data() + have, text.size() - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return refuse(why, std::strerror(errno));
        if (n == 0)
            break;
        have += static_cast<std::size_t>(n);
        if (have > capBytes)
            return refuse(why, tooLarge);
    }
    text.resize(have);
    return text;
}

} // namespace stackscope
