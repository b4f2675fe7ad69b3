// CUDA fat binaries (.nv_fatbin): each entry's SM architecture and whether it is SASS or PTX.
#pragma once

#include "core/snapshot/arch_coverage.h"
#include "core/archscan/byte_view.h"

#include <string>
#include <vector>

namespace stackscope::archscan {

struct FatbinScan {
    std::vector<ScannedTarget> targets; // unique, in order of first appearance
    std::uint64_t blobs = 0;
    std::vector<std::string> errors;  // the first kMaxErrorsKept
    std::uint64_t errorsNotKept = 0;
    std::uint64_t targetsNotKept = 0; // distinct targets beyond kMaxTargetsKept
};

// Walks every fatbin blob in a .nv_fatbin section (or a raw .fatbin file).
// Layout (reverse-engineered, checked against nvcc 13 output for known -gencode lists):
// blob header u32 magic 0xBA55ED50, u16 version 1, u16 header size, u64 size of the entries;
// entry: u16 kind (1 PTX, 2 ELF/SASS), u16 version, u32 header size, u64 payload size, ...,
// u32 SM at 28 (90 = sm_90), u64 flags at 40 (0x100000 arch-specific 'a', 0x200000 family 'f').
// `embedded`: the bytes are some other data section (.ldata, .rodata) where a library such as cuFFT keeps
// fatbins it loads itself; only blobs that parse count, and nothing there is an error.
FatbinScan scanNvFatbin(ByteView section, bool embedded = false);

} // namespace stackscope::archscan
