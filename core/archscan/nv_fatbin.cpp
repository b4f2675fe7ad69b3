// .nv_fatbin walker.
#include "core/archscan/nv_fatbin.h"

#include "core/archscan/bounded_scan.h"
#include "core/archscan/target_id.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace stackscope::archscan {

namespace {

constexpr std::uint32_t kFatbinMagic = 0xBA55ED50;
constexpr std::uint16_t kKindPtx = 1;
constexpr std::uint16_t kKindElf = 2;
constexpr std::uint64_t kFlagArchSpecific = 0x100000;
constexpr std::uint64_t kFlagFamilySpecific = 0x200000;

// `found` is kept distinct and capped: one blob can hold millions of tiny entries.
void readBlob(ByteView blob, std::vector<ScannedTarget>& found, std::uint64_t& notKept)
{
    TargetSet seen;
    const auto headerSize = blob.read<std::uint16_t>(6, "fatbin header size");
    const auto entriesSize = blob.read<std::uint64_t>(8, "fatbin size");
    if (headerSize < 16)
        throw FormatError(fmt::format("fatbin header size {} is smaller than 16: damaged", headerSize));
    const ByteView entries = blob.sub(headerSize, entriesSize, "fatbin entries");
    std::uint64_t pos = 0;
    std::uint64_t index = 0;
    while (pos < entries.size) {
        const auto kind = entries.read<std::uint16_t>(pos, "fatbin entry kind");
        const auto entryHeader = entries.read<std::uint32_t>(pos + 4, "fatbin entry header size");
        const auto payload = entries.read<std::uint64_t>(pos + 8, "fatbin entry payload size");
        if (entryHeader < 48)
            throw FormatError(fmt::format("fatbin entry {} header size {} is smaller than 48: damaged", index, entryHeader));
        if (!entries.contains(pos, entryHeader) || !entries.contains(pos + entryHeader, payload))
            throw FormatError(fmt::format("fatbin entry {} ({} + {} bytes at {}) runs past the blob's {} bytes: truncated",
                                          index, entryHeader, payload, pos, entries.size));
        const auto sm = entries.read<std::uint32_t>(pos + 28, "fatbin entry SM");
        const auto flags = entries.read<std::uint64_t>(pos + 40, "fatbin entry flags");
        if (kind == kKindPtx || kind == kKindElf) {
            if (sm < 10 || sm > 9999)
                throw FormatError(fmt::format("fatbin entry {} names SM {}: damaged", index, sm));
            CudaArch a;
            a.major = static_cast<int>(sm / 10);
            a.minor = static_cast<int>(sm % 10);
            if (flags & kFlagArchSpecific)
                a.suffix = 'a';
            else if (flags & kFlagFamilySpecific)
                a.suffix = 'f';
            ScannedTarget t;
            t.format = kind == kKindPtx ? CodeFormat::Ptx : CodeFormat::Sass;
            t.arch = cudaArchName(a, "sm_");
            t.id = cudaArchName(a, kind == kKindPtx ? "compute_" : "sm_");
            seen.add(std::move(t), found, notKept);
        }
        // Other kinds (LTO IR ...) carry no runnable code for a device; they are skipped.
        pos += entryHeader + payload;
        ++index;
    }
}

} // namespace

FatbinScan scanNvFatbin(ByteView section, bool embedded)
{
    FatbinScan out;
    TargetSet seen;
    std::uint64_t pos = 0;
    const std::uint32_t magic = kFatbinMagic;
    // Blobs from several translation units follow each other, 8-byte aligned, sometimes zero-padded;
    // a damaged blob is reported and the search goes on after its magic.
    while (pos + 16 <= section.size) {
        const void* hit = ::memmem(section.data + pos, section.size - pos, &magic, sizeof magic);
        if (!hit)
            break;
        pos = static_cast<std::uint64_t>(static_cast<const std::uint8_t*>(hit) - section.data);
        if (pos + 16 > section.size)
            break;
        std::uint64_t next = pos + 8;
        try {
            const ByteView blob = section.sub(pos, section.size - pos, "fatbin");
            if (embedded && blob.read<std::uint16_t>(4, "fatbin version") != 1)
                throw FormatError("not a fatbin");
            std::vector<ScannedTarget> found; // only a blob that parses whole counts
            std::uint64_t notKept = 0;
            readBlob(blob, found, notKept);
            out.targetsNotKept += notKept;
            for (auto& t : found)
                seen.add(std::move(t), out.targets, out.targetsNotKept);
            ++out.blobs;
            const std::uint64_t size = blob.read<std::uint16_t>(6, "fatbin header size") + blob.read<std::uint64_t>(8, "fatbin size");
            next = pos + std::max<std::uint64_t>(size, 8);
        } catch (const FormatError& e) {
            if (!embedded)
                addBoundedError(out.errors, out.errorsNotKept,
                                [&] { return fmt::format("fatbin at offset {} of the section: {}", pos, e.what()); });
        }
        pos = next; // padding between blobs is skipped by the search
    }
    if (!embedded && out.blobs == 0 && out.errors.empty() && section.size > 0)
        out.errors.push_back("no fatbin header (magic 0xBA55ED50) found in the section: damaged or an unknown layout");
    return out;
}

} // namespace stackscope::archscan
