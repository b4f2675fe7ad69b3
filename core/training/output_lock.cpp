// Training output folder lock: flock on a lock file that names its owner (pid, host) for messages.
#include "core/training/output_lock.h"

#include "core/training/training_config.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace stackscope::training {

namespace {

std::string hostName()
{
    char buf[256] = {0};
    return ::gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : std::string("this host");
}

std::string readOwner(int fd)
{
    char buf[256] = {0};
    const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
    std::string s = n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
        s.pop_back();
    return s.empty() ? std::string("an unknown process") : s;
}

// True when `fd` is still the file at `path` (another run may have removed and re-created it between
// our open and our flock).
bool samePath(int fd, const std::string& path)
{
    struct stat a {};
    struct stat b {};
    return ::fstat(fd, &a) == 0 && ::stat(path.c_str(), &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

} // namespace

OutputLock::OutputLock(const std::string& folder)
    : m_path(folder + "/" + kFileName)
{
    for (int attempt = 0; attempt < 3; ++attempt) {
        const int fd = ::open(m_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0)
            throw ConfigError(fmt::format("--output {}: cannot create the lock file {} ({}); choose a folder you can "
                                          "write to", folder, m_path, std::strerror(errno)));
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const std::string owner = readOwner(fd);
            ::close(fd);
            throw ConfigError(fmt::format("--output {}: another training run ({}) is writing there; wait for it to "
                                          "finish or choose another --output folder",
                                          folder, owner));
        }
        if (!samePath(fd, m_path)) { // the previous owner removed it as we opened it: try the new one
            ::close(fd);
            continue;
        }
        struct stat st {};
        if (::fstat(fd, &st) == 0 && st.st_size > 0)
            m_stale = readOwner(fd); // a lock file nobody holds: its run died
        const std::string me = fmt::format("pid {} on {}\n", ::getpid(), hostName());
        if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, me.data(), me.size(), 0) != static_cast<ssize_t>(me.size())) {
            const int err = errno;
            ::close(fd);
            throw ConfigError(fmt::format("--output {}: cannot write the lock file {} ({}); check free disk space",
                                          folder, m_path, std::strerror(err)));
        }
        m_fd = fd;
        return;
    }
    throw ConfigError(fmt::format("--output {}: the lock file {} keeps changing; is another run starting there? "
                                  "Try again, or choose another --output folder", folder, m_path));
}

OutputLock::~OutputLock()
{
    release();
}

void OutputLock::release()
{
    if (m_fd < 0)
        return;
    ::unlink(m_path.c_str()); // while still locked, so nobody takes a lock on a file about to vanish
    ::close(m_fd);
    m_fd = -1;
}

} // namespace stackscope::training
