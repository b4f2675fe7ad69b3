// A read-only memory map of a whole file, so that gigabyte libraries are never copied into memory; reads of
// it survive the file shrinking underneath (SIGBUS caught), and a change while reading is detected.
#pragma once

#include "core/util/error.h"

#include "core/archscan/byte_view.h"

#include <functional>
#include <stdexcept>
#include <string>

namespace stackscope::archscan {

// The path names something that is not a regular file (a FIFO, a device, a socket): it is never opened,
// so a FIFO with no writer cannot block the scan.
class NotRegularFileError : public Error {
public:
    explicit NotRegularFileError(const std::string& what)
        : Error(what, ErrorKind::Input)
    {
    }
};

class MappedFile {
public:
    // Throws NotRegularFileError, or std::runtime_error with the path and the system's message.
    explicit MappedFile(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    ByteView view() const { return {static_cast<const std::uint8_t*>(m_data), m_size}; }

    // Runs `read` (which reads view()); returns false when the file shrank under the mapping and a read
    // past its new end raised SIGBUS. `read` is then abandoned where it was: it must keep its results in
    // objects declared outside it and take no locks; what it allocated inside is not freed (a one-off
    // leak on a file that changed while being read). Safe to use from several threads at once.
    bool readGuarded(const std::function<void()>& read) const;

    // Whether the file's size or modification time differ from when it was mapped.
    bool changedSinceOpen() const;
    // Its size now (-1 when it cannot be asked).
    long long currentSize() const;

private:
    void* m_data = nullptr;
    std::size_t m_size = 0;
    int m_fd = -1;
    long long m_mtimeNs = 0;
};

// "a FIFO", "a folder", "a character device" ...: what a non-regular st_mode is, for messages.
std::string fileTypeName(unsigned mode);

} // namespace stackscope::archscan
