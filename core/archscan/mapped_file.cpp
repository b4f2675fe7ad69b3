// Read-only mmap of a file.
#include "core/archscan/mapped_file.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace stackscope::archscan {

MappedFile::MappedFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno) +
                                 " (check that the file exists and that you may read it)");
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        throw std::runtime_error("cannot stat " + path + ": " + std::strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw std::runtime_error(path + " is not a regular file; give a library, a binary or a folder");
    }
    m_size = static_cast<std::size_t>(st.st_size);
    if (m_size > 0) {
        m_data = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m_data == MAP_FAILED) {
            const int err = errno;
            m_data = nullptr;
            ::close(fd);
            throw std::runtime_error("cannot map " + path + ": " + std::strerror(err));
        }
    }
    ::close(fd); // the mapping keeps the file alive
}

MappedFile::~MappedFile()
{
    if (m_data)
        ::munmap(m_data, m_size);
}

} // namespace stackscope::archscan
