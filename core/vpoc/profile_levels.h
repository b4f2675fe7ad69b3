// POC and value area over a dense profile: one header compiled for the CPU and the GPU, so both agree bit for bit.
#pragma once

#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define STACKSCOPE_HD __host__ __device__
#else
#define STACKSCOPE_HD
#endif

namespace stackscope::vpoc {

// Offsets into the dense profile [0, n) of one session (0 = the session's low tick).
struct LevelOffsets {
    int32_t poc = 0;
    int32_t val = 0;
    int32_t vah = 0;
};

// POC: most volume; ties go to the level closest to the middle (smallest |2i - (n-1)|), then the lower one.
STACKSCOPE_HD inline int32_t pointOfControl(const uint64_t* vol, int32_t n)
{
    int32_t best = 0;
    uint64_t bestVol = vol[0];
    int64_t bestDist = n - 1; // |2*0 - (n-1)|
    for (int32_t i = 1; i < n; ++i) {
        const int64_t d2 = 2 * static_cast<int64_t>(i) - (n - 1);
        const int64_t dist = d2 < 0 ? -d2 : d2;
        // Lower levels are visited first, so a strict comparison keeps the lower one on a full tie.
        if (vol[i] > bestVol || (vol[i] == bestVol && dist < bestDist)) {
            best = i;
            bestVol = vol[i];
            bestDist = dist;
        }
    }
    return best;
}

// Value area from the POC outwards until accumulated * 10000 >= total * basisPoints (70% = 7000 basis
// points, so this equals `accumulated * 100 >= total * 70`). `dual` compares the next two levels above
// with the next two below (fewer at an edge), `single` one level each; ties go above.
STACKSCOPE_HD inline LevelOffsets valueArea(const uint64_t* vol, int32_t n, uint32_t basisPoints, bool dual)
{
    LevelOffsets out;
    out.poc = pointOfControl(vol, n);
    uint64_t total = 0;
    for (int32_t i = 0; i < n; ++i)
        total += vol[i];
    const unsigned __int128 target = static_cast<unsigned __int128>(total) * basisPoints;
    int32_t lo = out.poc;
    int32_t hi = out.poc;
    uint64_t acc = vol[out.poc];
    const int32_t step = dual ? 2 : 1;
    while (static_cast<unsigned __int128>(acc) * 10000u < target && (lo > 0 || hi < n - 1)) {
        const int32_t upCount = (n - 1 - hi) < step ? (n - 1 - hi) : step;
        const int32_t downCount = lo < step ? lo : step;
        uint64_t up = 0;
        uint64_t down = 0;
        for (int32_t k = 1; k <= upCount; ++k)
            up += vol[hi + k];
        for (int32_t k = 1; k <= downCount; ++k)
            down += vol[lo - k];
        if (downCount == 0 || (upCount > 0 && up >= down)) {
            hi += upCount;
            acc += up;
        } else {
            lo -= downCount;
            acc += down;
        }
    }
    out.val = lo;
    out.vah = hi;
    return out;
}

// An element's level, offset + shift, added modulo 2^32: a session whose low is the lowest tick (INT32_MIN) has a
// shift of -INT32_MIN, which wraps to INT32_MIN, and the true level (0 .. width - 1) still comes out, where int32_t
// arithmetic would overflow.
STACKSCOPE_HD inline int32_t shiftedLevel(int32_t offset, int32_t shift)
{
    return static_cast<int32_t>(static_cast<uint32_t>(offset) + static_cast<uint32_t>(shift));
}
// The shift that makes a tick its level in a session whose low is `low` (minus `low`, modulo 2^32).
STACKSCOPE_HD inline int32_t shiftOfLow(int32_t low) { return static_cast<int32_t>(0u - static_cast<uint32_t>(low)); }

// Adds one bar (or trade) to a dense profile: `volume` spread over span+1 levels starting at `offset`,
// q = volume / (span+1) each and one more on the r = volume % (span+1) lowest levels.
STACKSCOPE_HD inline void addUniform(uint64_t* vol, int32_t offset, uint32_t span, uint32_t volume)
{
    const uint32_t n = span + 1;
    const uint32_t q = volume / n;
    const uint32_t r = volume % n;
    for (uint32_t k = 0; k < n; ++k)
        vol[offset + static_cast<int32_t>(k)] += q + (k < r ? 1u : 0u);
}

} // namespace stackscope::vpoc
