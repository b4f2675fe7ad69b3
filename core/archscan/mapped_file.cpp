// Read-only mmap of a file, with SIGBUS turned into a failed read and change detection through fstat.
#include "core/archscan/mapped_file.h"

#include <cerrno>
#include <csetjmp>
#include <csignal>
#include <cstring>
#include <mutex>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace stackscope::archscan {

namespace {

// The innermost guarded read of this thread, if any. SIGBUS from a mapped read is synchronous: it is
// delivered to the thread that touched the page, so a thread-local jump target is the right one.
thread_local sigjmp_buf* t_guard = nullptr;
struct sigaction g_previous {};
std::mutex g_installing;

void onSigbus(int sig, siginfo_t* info, void* context)
{
    if (sigjmp_buf* env = t_guard) {
        t_guard = nullptr;
        siglongjmp(*env, 1);
    }
    // Not a guarded read: whatever handled SIGBUS before still does; with none, the fault ends the
    // process as it would have without StackScope's handler.
    if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction) {
        g_previous.sa_sigaction(sig, info, context);
        return;
    }
    if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(sig);
        return;
    }
    ::signal(SIGBUS, SIG_DFL); // the faulting read runs again on return and ends the process
}

// Installs the handler unless it is the current one: a library or test framework that set its own SIGBUS
// handler after ours (Qt Test's crash handler, a GUI's) is chained to, not lost, and the guard works again.
void ensureHandler()
{
    const std::lock_guard<std::mutex> lock(g_installing);
    struct sigaction current {};
    ::sigaction(SIGBUS, nullptr, &current);
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == &onSigbus)
        return;
    struct sigaction sa {};
    sa.sa_sigaction = &onSigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER; // NODEFER: a later guarded read can fault again after siglongjmp
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGBUS, &sa, &g_previous);
}

long long mtimeNs(const struct stat& st)
{
    return static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

} // namespace

std::string fileTypeName(unsigned mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

MappedFile::MappedFile(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno) +
                                 " (check that the file exists and that you may read it)");
    if (!S_ISREG(st.st_mode))
        throw NotRegularFileError(path + " is " + fileTypeName(st.st_mode) +
                                  ", not a regular file; give a library, a binary or a folder");
    // O_NONBLOCK: should the path have become a FIFO since the stat, open() does not wait for a writer.
    m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (m_fd < 0)
        throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno) +
                                 " (check that the file exists and that you may read it)");
    if (::fstat(m_fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(m_fd);
        throw NotRegularFileError(path + " changed into " + fileTypeName(st.st_mode) +
                                  " while being opened; give a library, a binary or a folder");
    }
    m_size = static_cast<std::size_t>(st.st_size);
    m_mtimeNs = mtimeNs(st);
    if (m_size > 0) {
        m_data = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, m_fd, 0);
        if (m_data == MAP_FAILED) {
            const int err = errno;
            m_data = nullptr;
            ::close(m_fd);
            throw std::runtime_error("cannot map " + path + ": " + std::strerror(err));
        }
    }
}

MappedFile::~MappedFile()
{
    if (m_data)
        ::munmap(m_data, m_size);
    ::close(m_fd);
}

bool MappedFile::readGuarded(const std::function<void()>& read) const
{
    ensureHandler();
    sigjmp_buf env;
    sigjmp_buf* const outer = t_guard;
    if (sigsetjmp(env, 1) != 0) {
        t_guard = outer;
        return false;
    }
    t_guard = &env;
    try {
        read();
    } catch (...) {
        t_guard = outer; // not swallowed: the caller sees the exception
        throw;
    }
    t_guard = outer;
    return true;
}

bool MappedFile::changedSinceOpen() const
{
    struct stat st {};
    if (::fstat(m_fd, &st) != 0)
        return true;
    return static_cast<std::size_t>(st.st_size) != m_size || mtimeNs(st) != m_mtimeNs;
}

long long MappedFile::currentSize() const
{
    struct stat st {};
    return ::fstat(m_fd, &st) == 0 ? static_cast<long long>(st.st_size) : -1;
}

} // namespace stackscope::archscan
