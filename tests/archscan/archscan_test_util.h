// Helpers shared by the archscan test suites: file bytes, the test binaries' paths, section extraction.
#pragma once

#include "core/archscan/byte_view.h"
#include "core/archscan/elf_reader.h"

#include <QString>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace archscan_test {

inline std::vector<std::uint8_t> readBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read " + path + ": build the archscan_test_binaries target");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeBytes(const std::string& path, const std::vector<std::uint8_t>& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out)
        throw std::runtime_error("cannot write " + path);
}

inline stackscope::archscan::ByteView view(const std::vector<std::uint8_t>& b) { return {b.data(), b.size()}; }

inline std::string binary(const char* name) { return std::string(STACKSCOPE_TEST_BINARY_DIR) + "/" + name; }
inline std::string fixture(const char* name) { return std::string(STACKSCOPE_TEST_FIXTURES) + "/archscan/" + name; }

// The bytes of one ELF section of a file.
inline std::vector<std::uint8_t> sectionBytes(const std::vector<std::uint8_t>& file, const char* name)
{
    const auto elf = stackscope::archscan::readElf(view(file));
    const auto* s = elf.find(name);
    if (!s)
        throw std::runtime_error(std::string("no section ") + name);
    return {file.begin() + static_cast<std::ptrdiff_t>(s->offset), file.begin() + static_cast<std::ptrdiff_t>(s->offset + s->size)};
}

template <typename T>
void put(std::vector<std::uint8_t>& b, std::size_t at, T v)
{
    if (b.size() < at + sizeof(T))
        b.resize(at + sizeof(T));
    std::memcpy(b.data() + at, &v, sizeof(T));
}

} // namespace archscan_test
