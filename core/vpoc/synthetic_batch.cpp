// Synthetic profile batches built straight in the shared CPU/GPU layout (no CSV round trip).
#include "core/vpoc/synthetic_batch.h"

#include <algorithm>
#include <cmath>

namespace stackscope::vpoc {

ProfileBatch syntheticBatch(uint64_t elements, uint32_t sessions, bool ranges, uint64_t seed)
{
    ProfileBatch b;
    b.offset.resize(elements);
    b.volume.resize(elements);
    if (ranges)
        b.span.resize(elements);
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    auto next = [&] {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    };
    const int32_t width = 400;
    for (uint32_t s = 0; s < sessions; ++s) {
        SessionSlice sl;
        sl.day = 19800 + static_cast<int32_t>(s);
        sl.elemBegin = static_cast<int64_t>(elements * s / sessions);
        sl.elemEnd = static_cast<int64_t>(elements * (s + 1) / sessions);
        sl.bars = sl.elemEnd - sl.elemBegin;
        sl.lowTick = 20000 + static_cast<int32_t>(s) * 3;
        sl.width = width;
        for (int64_t i = sl.elemBegin; i < sl.elemEnd; ++i) {
            const uint64_t r = next();
            // Sum of four uniforms: a cheap bell around the middle of the session's range.
            const int32_t bell = static_cast<int32_t>(((r & 0xFF) + ((r >> 8) & 0xFF) + ((r >> 16) & 0xFF)
                                                       + ((r >> 24) & 0xFF)) * (width - 8) / 1020);
            const uint32_t span = ranges ? static_cast<uint32_t>((r >> 32) & 7) : 0u;
            b.offset[static_cast<size_t>(i)] = std::min<int32_t>(bell, width - 1 - static_cast<int32_t>(span));
            if (ranges)
                b.span[static_cast<size_t>(i)] = span;
            b.volume[static_cast<size_t>(i)] = 1 + static_cast<uint32_t>((r >> 40) % 20);
        }
        b.sessions.push_back(sl);
    }
    return b;
}

} // namespace stackscope::vpoc
