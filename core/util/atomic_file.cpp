// Atomic whole-file writes: temp file in the same folder, fsync, rename.
#include "core/util/atomic_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace stackscope {

void writeFileAtomically(const std::string& path, const std::string& content)
{
    std::string tmpl = path + ".tmp-XXXXXX";
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0)
        throw FileWriteError(fmt::format("{}: cannot create a file there ({}); choose a folder you can write to",
                                         path, std::strerror(errno)));
    size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int err = errno;
            ::close(fd);
            ::unlink(tmpl.c_str());
            throw FileWriteError(fmt::format("{}: write failed ({}); check free disk space", path, std::strerror(err)));
        }
        done += static_cast<size_t>(n);
    }
    ::fchmod(fd, 0644);
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmpl.c_str());
        throw FileWriteError(fmt::format("{}: could not flush the file ({}); check free disk space", path, std::strerror(err)));
    }
    if (::rename(tmpl.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmpl.c_str());
        throw FileWriteError(fmt::format("{}: could not replace the file ({}); check permissions", path, std::strerror(err)));
    }
}

} // namespace stackscope
