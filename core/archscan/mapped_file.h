// A read-only memory map of a whole file, so that gigabyte libraries are never copied into memory.
#pragma once

#include "core/archscan/byte_view.h"

#include <string>

namespace stackscope::archscan {

class MappedFile {
public:
    // Throws std::runtime_error with the path and the system's message.
    explicit MappedFile(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    ByteView view() const { return {static_cast<const std::uint8_t*>(m_data), m_size}; }

private:
    void* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace stackscope::archscan
