// ELF64 header and section table reader with every offset checked against the file size.
#include "core/archscan/elf_reader.h"

#include <algorithm>

namespace stackscope::archscan {

namespace {
constexpr std::uint32_t kShtNobits = 8;
constexpr std::uint16_t kShnXindex = 0xffff;
constexpr std::uint16_t kShnLoreserve = 0xff00;
} // namespace

const ElfSection* ElfFile::find(const std::string& name) const
{
    for (const auto& s : sections)
        if (s.name == name)
            return &s;
    return nullptr;
}

bool looksLikeElf(ByteView file)
{
    return file.startsWith("\x7f" "ELF", 4);
}

ElfFile readElf(ByteView file)
{
    if (!looksLikeElf(file))
        throw FormatError("not an ELF file (no \\x7fELF magic)");
    if (file.size < 64)
        throw FormatError("truncated ELF header (" + std::to_string(file.size) + " bytes, need 64)");
    if (file.data[4] != 2)
        throw FormatError("32-bit ELF: GPU host libraries are 64-bit; this file cannot carry HIP or CUDA code StackScope reads");
    if (file.data[5] != 1)
        throw FormatError("big-endian ELF is not supported");
    ElfFile elf;
    elf.machine = file.read<std::uint16_t>(18, "e_machine");
    elf.flags = file.read<std::uint32_t>(48, "e_flags");
    const auto shoff = file.read<std::uint64_t>(40, "e_shoff");
    const auto shentsize = file.read<std::uint16_t>(58, "e_shentsize");
    std::uint64_t shnum = file.read<std::uint16_t>(60, "e_shnum");
    std::uint64_t shstrndx = file.read<std::uint16_t>(62, "e_shstrndx");
    if (shoff == 0)
        return elf; // no section table (stripped to program headers only)
    if (shentsize < 64)
        throw FormatError("ELF section header size " + std::to_string(shentsize) + " is smaller than 64: damaged file");
    // Extended numbering: the real counts live in section 0.
    if (shnum == 0)
        shnum = file.read<std::uint64_t>(shoff + 32, "section 0 sh_size (extended section count)");
    if (shstrndx == kShnXindex)
        shstrndx = file.read<std::uint32_t>(shoff + 40, "section 0 sh_link (extended string table index)");
    if (shnum > file.size / shentsize || !file.contains(shoff, shnum * shentsize))
        throw FormatError("ELF section table (" + std::to_string(shnum) + " entries at offset " + std::to_string(shoff) +
                          ") runs past the end of the file (" + std::to_string(file.size) +
                          " bytes): the file is truncated or damaged; reinstall it");
    struct Raw {
        std::uint32_t name;
        std::uint32_t type;
        std::uint64_t offset;
        std::uint64_t size;
    };
    std::vector<Raw> raw;
    raw.reserve(static_cast<std::size_t>(shnum));
    for (std::uint64_t i = 0; i < shnum; ++i) {
        const std::uint64_t h = shoff + i * shentsize;
        raw.push_back({file.read<std::uint32_t>(h, "sh_name"), file.read<std::uint32_t>(h + 4, "sh_type"),
                       file.read<std::uint64_t>(h + 24, "sh_offset"), file.read<std::uint64_t>(h + 32, "sh_size")});
    }
    ByteView strtab;
    if (shstrndx != 0 && shstrndx < kShnLoreserve) {
        if (shstrndx >= shnum)
            throw FormatError("ELF section name table index " + std::to_string(shstrndx) + " is past the " +
                              std::to_string(shnum) + " sections: damaged file");
        const auto& s = raw[static_cast<std::size_t>(shstrndx)];
        strtab = file.sub(s.offset, s.size, "ELF section name table");
    }
    for (const auto& r : raw) {
        ElfSection s;
        s.type = r.type;
        s.offset = r.offset;
        s.size = r.size;
        if (r.name < strtab.size) {
            const char* begin = reinterpret_cast<const char*>(strtab.data) + r.name;
            const auto* end = static_cast<const char*>(std::memchr(begin, 0, strtab.size - r.name));
            s.name.assign(begin, end ? end : reinterpret_cast<const char*>(strtab.data) + strtab.size);
        }
        // A section whose bytes are not all in the file (truncated download, damaged file) is kept
        // so the scanner can name it in its error, but is never read.
        s.inFile = r.type != kShtNobits && file.contains(r.offset, r.size);
        elf.sections.push_back(std::move(s));
    }
    return elf;
}

} // namespace stackscope::archscan
