// Section table of a 64-bit little-endian ELF file (the only layout GPU host libraries use on Linux).
#pragma once

#include "core/archscan/byte_view.h"

#include <optional>
#include <string>
#include <vector>

namespace stackscope::archscan {

struct ElfSection {
    std::string name;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::uint32_t type = 0;
    bool inFile = true; // false: SHT_NOBITS or the range runs past the end of the file
};

struct ElfFile {
    std::uint16_t machine = 0; // EM_X86_64 62, EM_AARCH64 183, EM_AMDGPU 224
    std::uint32_t flags = 0;
    std::vector<ElfSection> sections;
    const ElfSection* find(const std::string& name) const;
};

bool looksLikeElf(ByteView file);
// Throws FormatError when the header or the section table is damaged. Section contents are checked
// to lie inside the file (SHT_NOBITS sections are kept with their size but never read).
ElfFile readElf(ByteView file);

} // namespace stackscope::archscan
