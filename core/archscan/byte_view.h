// Bounds-checked little-endian reads over a byte range that the scanner does not own.
#pragma once

#include "core/util/error.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace stackscope::archscan {

// A malformed binary: the message says where and what, the scan of other files goes on.
class FormatError : public Error {
public:
    explicit FormatError(const std::string& what)
        : Error(what, ErrorKind::Input)
    {
    }
};

struct ByteView {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;

    // True when [offset, offset + length) lies inside the view (overflow-safe).
    bool contains(std::uint64_t offset, std::uint64_t length) const
    {
        return offset <= size && length <= size - offset;
    }
    ByteView sub(std::uint64_t offset, std::uint64_t length, const char* what) const
    {
        if (!contains(offset, length))
            throw FormatError(std::string(what) + " at offset " + std::to_string(offset) + " (" + std::to_string(length) +
                              " bytes) runs past the end (" + std::to_string(size) + " bytes)");
        return {data + offset, static_cast<std::size_t>(length)};
    }
    template <typename T>
    T read(std::uint64_t offset, const char* what) const
    {
        if (!contains(offset, sizeof(T)))
            throw FormatError(std::string(what) + " at offset " + std::to_string(offset) + " lies past the end (" +
                              std::to_string(size) + " bytes)");
        T v;
        std::memcpy(&v, data + offset, sizeof(T)); // x86-64 and aarch64 Linux: little-endian like the formats
        return v;
    }
    bool startsWith(const char* magic, std::size_t n) const { return size >= n && std::memcmp(data, magic, n) == 0; }
};

} // namespace stackscope::archscan
