// The checked temporary folder (temp_folder.h).
#include "core/util/temp_folder.h"

#include "core/util/atomic_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace stackscope {

std::string temporaryFolder()
{
    const char* dir = std::getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

std::string temporaryFolderProblem()
{
    const std::string dir = temporaryFolder();
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0)
        return errno == ENOENT ? "no such folder" : std::strerror(errno);
    if (!S_ISDIR(st.st_mode))
        return "not a folder";
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        return errno == EACCES || errno == EROFS ? "not writable" : std::strerror(errno);
    // access() says yes to root everywhere but on read-only mounts: a file made and removed is the real test
    // (/sys, /proc refuse it).
    std::string probe = dir + "/.stackscope-check-XXXXXX";
    const int fd = ::mkstemp(probe.data());
    if (fd < 0)
        return fmt::format("no file can be created in it ({})", std::strerror(errno));
    ::close(fd);
    ::unlink(probe.c_str());
    return {};
}

std::string temporaryFolderMessage(std::string_view purpose, std::string_view problem)
{
    const char* set = std::getenv("TMPDIR");
    if (set && *set)
        return fmt::format("TMPDIR={}: {}, and StackScope writes {} there; create that folder, set TMPDIR to a folder "
                           "you can write to (TMPDIR=$HOME/tmp), or unset TMPDIR to use /tmp",
                           set, problem, purpose);
    return fmt::format("/tmp (TMPDIR is not set): {}, and StackScope writes {} there; set TMPDIR to a folder you can "
                       "write to (TMPDIR=$HOME/tmp)",
                       problem, purpose);
}

std::string checkedTemporaryFolder(std::string_view purpose)
{
    if (const auto problem = temporaryFolderProblem(); !problem.empty())
        throw FileWriteError(temporaryFolderMessage(purpose, problem));
    return temporaryFolder();
}

} // namespace stackscope
