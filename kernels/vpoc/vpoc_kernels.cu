// VPOC on the GPU, one source for CUDA and HIP: segmented shared-memory histograms with 64-bit volumes,
// then POC and value area per session, in buffers allocated once within a VRAM budget.
#include "kernels/vpoc/gpu_vendor.h"
#include "kernels/vpoc/vpoc_gpu_api.h"

#include "core/vpoc/profile_levels.h"

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

using stackscope::vpoc::LevelOffsets;
using stackscope::vpoc::shiftedLevel;

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
// A multiple of 4 so that 128-bit loads stay aligned inside a tile after the first few elements.
constexpr int64_t kTileElements = 32768;
// 48 KiB of shared memory per block is available on every CUDA and HIP device without opt-in.
constexpr int kSharedBytes = 48 * 1024;
// Shared counters are 32-bit (half the bank traffic of 64-bit ones). An element below kSmallVolume adds at
// most kSmallVolume - 1 to one level, so a tile's sum on one level cannot wrap; bigger ones go to global memory.
constexpr uint32_t kSmallVolume = 1u << 16;
static_assert(static_cast<uint64_t>(kTileElements) * (kSmallVolume - 1) < (1ull << 32), "shared counters would wrap");
static_assert(kTileElements % 4 == 0, "tiles must keep 128-bit alignment");

struct Tile {
    uint32_t session;
    uint32_t reserved;
    int64_t begin;
    int64_t end;
};

struct Context {
    uint64_t capElements = 0, capLevels = 0, capSessions = 0, capSegments = 0, capTiles = 0;
    int32_t* offset = nullptr;
    uint32_t* span = nullptr;
    uint32_t* volume = nullptr;
    Tile* tiles = nullptr;
    StackscopeVpocSession* sessions = nullptr;
    unsigned long long* profiles = nullptr;
    StackscopeVpocLevels* levels = nullptr;
    uint32_t sessionCount = 0;
    uint64_t levelCount = 0;
    // The last chunk, kept for stackscope_vpoc_gpu_time_resident.
    uint64_t lastCount = 0;
    uint32_t lastTiles = 0;
    bool lastSpans = false;
    int lastCopies = 0;  // shared copies of the profile per block (0: straight to global memory)
    int lastWidest = 0;  // widest session of the chunk, the stride of one copy
    std::vector<Tile> hostTiles;
    std::vector<int32_t> hostWidths; // of the batch's sessions, to size shared memory per chunk
    char name[256] = {0};
};

void setError(char* error, size_t len, const char* what, gpuError_t e)
{
    if (error && len)
        std::snprintf(error, len, "%s failed: %s", what, gpuGetErrorString(e));
}

#define GPU_CHECK(call, what)                                                                                          \
    do {                                                                                                               \
        const gpuError_t e_ = (call);                                                                                  \
        if (e_ != gpuSuccess) {                                                                                        \
            setError(error, errorLen, what, e_);                                                                       \
            return -1;                                                                                                 \
        }                                                                                                              \
    } while (0)

template <bool Spans, typename Counter>
__device__ inline void addElement(Counter* hist, int32_t off, uint32_t sp, uint32_t v)
{
    if (!Spans) {
        atomicAdd(&hist[off], static_cast<Counter>(v));
        return;
    }
    // Same rule as stackscope::vpoc::addUniform: q on each level, one more on the r lowest.
    const uint32_t n = sp + 1;
    const uint32_t q = v / n;
    const uint32_t r = v % n;
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t add = q + (k < r ? 1u : 0u);
        if (add)
            atomicAdd(&hist[off + static_cast<int32_t>(k)], static_cast<Counter>(add));
    }
}

// One element into the warp's shared copy, or into global memory when its volume could wrap a 32-bit counter.
template <bool Spans>
__device__ inline void addOne(unsigned int* mine, unsigned long long* global, int32_t off, uint32_t sp, uint32_t v)
{
    if (mine && v < kSmallVolume)
        addElement<Spans>(mine, off, sp, v);
    else
        addElement<Spans>(global, off, sp, v);
}

template <bool Spans>
__device__ inline void addFour(unsigned int* mine, unsigned long long* global, const int4& o, int32_t shift,
                               const uint4& sp, const uint4& v)
{
    addOne<Spans>(mine, global, shiftedLevel(o.x, shift), sp.x, v.x);
    addOne<Spans>(mine, global, shiftedLevel(o.y, shift), sp.y, v.y);
    addOne<Spans>(mine, global, shiftedLevel(o.z, shift), sp.z, v.z);
    addOne<Spans>(mine, global, shiftedLevel(o.w, shift), sp.w, v.w);
}

// One block per tile; a tile holds elements of one session. Each warp counts into its own 32-bit shared copy
// of the session's profile (fewer same-address collisions at the POC, where most trades land); the copies are
// summed into the 64-bit global profile once per block. Sessions too wide for shared memory go straight to
// global memory. Integer adds commute, so the result does not depend on the order and equals the CPU's.
// The input is read once with 128-bit loads, two per thread in flight, to keep enough bytes moving.
template <bool Spans>
__global__ void __launch_bounds__(kThreads) histogramKernel(
    const int32_t* __restrict__ offset, const uint32_t* __restrict__ span, const uint32_t* __restrict__ volume,
    const Tile* __restrict__ tiles, const StackscopeVpocSession* __restrict__ sessions, unsigned long long* profiles,
    int copies)
{
    extern __shared__ unsigned int hist[];
    const Tile t = tiles[blockIdx.x];
    const StackscopeVpocSession s = sessions[t.session];
    unsigned long long* global = profiles + s.profileOffset;
    const int width = s.width;
    const int32_t shift = s.levelShift; // offset + shift is the level
    unsigned int* mine = nullptr;
    if (copies > 0) {
        for (int i = threadIdx.x; i < width * copies; i += blockDim.x)
            hist[i] = 0;
        __syncthreads();
        mine = hist + (static_cast<int>(threadIdx.x) / 32 % copies) * width;
    }
    const int64_t b = t.begin;
    const int64_t e = t.end;
    int64_t vb = (b + 3) & ~int64_t(3);
    vb = vb < e ? vb : e;
    int64_t ve = e & ~int64_t(3);
    ve = ve > vb ? ve : vb;
    // Up to 3 unaligned elements at each end.
    for (int64_t i = b + threadIdx.x; i < vb; i += blockDim.x)
        addOne<Spans>(mine, global, shiftedLevel(offset[i], shift), Spans ? span[i] : 0u, volume[i]);
    for (int64_t i = ve + threadIdx.x; i < e; i += blockDim.x)
        addOne<Spans>(mine, global, shiftedLevel(offset[i], shift), Spans ? span[i] : 0u, volume[i]);
    const int4* o4 = reinterpret_cast<const int4*>(offset);
    const uint4* s4 = reinterpret_cast<const uint4*>(span);
    const uint4* v4 = reinterpret_cast<const uint4*>(volume);
    const int64_t gEnd = ve / 4;
    const uint4 noSpan = make_uint4(0, 0, 0, 0);
    for (int64_t g = vb / 4 + threadIdx.x; g < gEnd; g += 2 * blockDim.x) {
        const int64_t h = g + blockDim.x;
        const bool two = h < gEnd;
        // Both loads are issued before any atomic so that two 32-byte requests per thread are in flight.
        const int4 oa = __ldg(o4 + g);
        const uint4 va = __ldg(v4 + g);
        const uint4 sa = Spans ? __ldg(s4 + g) : noSpan;
        int4 ob = make_int4(0, 0, 0, 0);
        uint4 vbv = noSpan, sb = noSpan;
        if (two) {
            ob = __ldg(o4 + h);
            vbv = __ldg(v4 + h);
            if (Spans)
                sb = __ldg(s4 + h);
        }
        addFour<Spans>(mine, global, oa, shift, sa, va);
        if (two)
            addFour<Spans>(mine, global, ob, shift, sb, vbv);
    }
    if (copies > 0) {
        __syncthreads();
        for (int i = threadIdx.x; i < width; i += blockDim.x) {
            unsigned long long sum = 0;
            for (int c = 0; c < copies; ++c)
                sum += hist[c * width + i];
            if (sum)
                atomicAdd(&global[i], sum);
        }
    }
}

// One thread per session: the value area walk is sequential by definition and the profiles are short.
__global__ void levelsKernel(const StackscopeVpocSession* __restrict__ sessions, uint32_t count,
                             const unsigned long long* __restrict__ profiles, uint32_t basisPoints, int dual,
                             StackscopeVpocLevels* levels)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const StackscopeVpocSession s = sessions[i];
    const uint64_t* p = reinterpret_cast<const uint64_t*>(profiles + s.profileOffset);
    const LevelOffsets l = stackscope::vpoc::valueArea(p, s.width, basisPoints, dual != 0);
    uint64_t total = 0;
    for (int32_t k = 0; k < s.width; ++k)
        total += p[k];
    levels[i] = StackscopeVpocLevels {l.poc, l.val, l.vah, 0, total};
}

int launchHistogram(Context* c, char* error, size_t errorLen)
{
    if (c->lastTiles == 0)
        return 0;
    const size_t shared = static_cast<size_t>(c->lastCopies) * static_cast<size_t>(c->lastWidest) * 4;
    if (c->lastSpans)
        histogramKernel<true><<<c->lastTiles, kThreads, shared>>>(c->offset, c->span, c->volume, c->tiles,
                                                                    c->sessions, c->profiles, c->lastCopies);
    else
        histogramKernel<false><<<c->lastTiles, kThreads, shared>>>(c->offset, c->span, c->volume, c->tiles,
                                                                     c->sessions, c->profiles, c->lastCopies);
    GPU_CHECK(gpuGetLastError(), "launching the VPOC histogram kernel");
    return 0;
}

} // namespace

extern "C" {

int stackscope_vpoc_gpu_abi(void) { return STACKSCOPE_VPOC_GPU_ABI; }

const char* stackscope_vpoc_gpu_vendor(void) { return STACKSCOPE_GPU_VENDOR; }

void* stackscope_vpoc_gpu_open(uint64_t budgetBytes, char* error, size_t errorLen)
{
    int count = 0;
    gpuError_t e = gpuGetDeviceCount(&count);
    if (e != gpuSuccess || count == 0) {
        if (error && errorLen)
            std::snprintf(error, errorLen, "no %s device (%s); use --backend cpu or check the driver",
                          STACKSCOPE_GPU_VENDOR, e != gpuSuccess ? gpuGetErrorString(e) : "device count 0");
        return nullptr;
    }
    if (budgetBytes < (16ull << 20)) {
        if (error && errorLen)
            std::snprintf(error, errorLen, "--vram-budget below 16 MiB; give at least 16");
        return nullptr;
    }
    auto* c = new Context;
    gpuDeviceProp_t prop;
    if (gpuGetDeviceProperties(&prop, 0) == gpuSuccess)
        std::snprintf(c->name, sizeof c->name, "%s", prop.name);
    // Budget split: 1/8 for profiles, a fixed session table, the rest for element chunks (12 bytes each).
    c->capSessions = 1 << 16;
    c->capSegments = 1 << 16;
    c->capLevels = budgetBytes / 8 / 8;
    const uint64_t fixed = c->capLevels * 8 + c->capSessions * (sizeof(StackscopeVpocSession) + sizeof(StackscopeVpocLevels));
    const uint64_t rest = budgetBytes - fixed;
    // Each element costs 12 bytes plus its share of a tile record.
    c->capElements = rest / (12 + sizeof(Tile) * 2 / kTileElements + 1);
    c->capTiles = c->capElements / kTileElements + c->capSegments + 1;
    while (c->capElements * 12 + c->capTiles * sizeof(Tile) > rest) {
        c->capElements -= kTileElements;
        c->capTiles = c->capElements / kTileElements + c->capSegments + 1;
    }
    auto alloc = [&](void** p, uint64_t bytes, const char* what) {
        const gpuError_t ae = gpuMalloc(p, bytes);
        if (ae != gpuSuccess && error && errorLen)
            std::snprintf(error, errorLen, "allocating %llu bytes for %s failed: %s; lower --vram-budget",
                          static_cast<unsigned long long>(bytes), what, gpuGetErrorString(ae));
        return ae == gpuSuccess;
    };
    const bool ok = alloc(reinterpret_cast<void**>(&c->offset), c->capElements * 4, "offsets")
        && alloc(reinterpret_cast<void**>(&c->span), c->capElements * 4, "spans")
        && alloc(reinterpret_cast<void**>(&c->volume), c->capElements * 4, "volumes")
        && alloc(reinterpret_cast<void**>(&c->tiles), c->capTiles * sizeof(Tile), "tiles")
        && alloc(reinterpret_cast<void**>(&c->sessions), c->capSessions * sizeof(StackscopeVpocSession), "sessions")
        && alloc(reinterpret_cast<void**>(&c->profiles), c->capLevels * 8, "profiles")
        && alloc(reinterpret_cast<void**>(&c->levels), c->capSessions * sizeof(StackscopeVpocLevels), "levels");
    if (!ok) {
        stackscope_vpoc_gpu_close(c);
        return nullptr;
    }
    c->hostTiles.reserve(c->capTiles);
    return c;
}

void stackscope_vpoc_gpu_close(void* ctx)
{
    auto* c = static_cast<Context*>(ctx);
    if (!c)
        return;
    for (void* p : {static_cast<void*>(c->offset), static_cast<void*>(c->span), static_cast<void*>(c->volume),
                    static_cast<void*>(c->tiles), static_cast<void*>(c->sessions), static_cast<void*>(c->profiles),
                    static_cast<void*>(c->levels)})
        if (p)
            static_cast<void>(gpuFree(p));
    delete c;
}

void stackscope_vpoc_gpu_capacity(void* ctx, StackscopeVpocCapacity* out)
{
    const auto* c = static_cast<const Context*>(ctx);
    *out = StackscopeVpocCapacity {c->capElements, c->capLevels, c->capSessions, c->capSegments};
}

int stackscope_vpoc_gpu_device_name(void* ctx, char* name, size_t nameLen)
{
    std::snprintf(name, nameLen, "%s", static_cast<Context*>(ctx)->name);
    return 0;
}

int stackscope_vpoc_gpu_begin(void* ctx, const StackscopeVpocSession* sessions, uint32_t count, uint64_t levels,
                              char* error, size_t errorLen)
{
    auto* c = static_cast<Context*>(ctx);
    if (count > c->capSessions || levels > c->capLevels) {
        std::snprintf(error, errorLen, "batch of %u sessions / %llu levels exceeds the buffers (%llu / %llu)", count,
                      static_cast<unsigned long long>(levels), static_cast<unsigned long long>(c->capSessions),
                      static_cast<unsigned long long>(c->capLevels));
        return -1;
    }
    GPU_CHECK(gpuMemcpy(c->sessions, sessions, count * sizeof(StackscopeVpocSession), gpuMemcpyHostToDevice),
              "copying the session table");
    GPU_CHECK(gpuMemset(c->profiles, 0, levels * 8), "zeroing the profiles");
    c->sessionCount = count;
    c->levelCount = levels;
    c->hostWidths.resize(count);
    for (uint32_t i = 0; i < count; ++i)
        c->hostWidths[i] = sessions[i].width;
    return 0;
}

int stackscope_vpoc_gpu_add(void* ctx, const int32_t* offset, const uint32_t* span, const uint32_t* volume,
                            uint64_t count, const StackscopeVpocSegment* segments, uint32_t segmentCount, char* error,
                            size_t errorLen)
{
    auto* c = static_cast<Context*>(ctx);
    if (count > c->capElements || segmentCount > c->capSegments) {
        std::snprintf(error, errorLen, "chunk of %llu elements exceeds the buffer of %llu",
                      static_cast<unsigned long long>(count), static_cast<unsigned long long>(c->capElements));
        return -1;
    }
    c->hostTiles.clear();
    int32_t widest = 1;
    for (uint32_t s = 0; s < segmentCount; ++s) {
        if (segments[s].session >= c->sessionCount) {
            std::snprintf(error, errorLen, "segment %u names session %u of a batch of %u", s, segments[s].session,
                          c->sessionCount);
            return -1;
        }
        const int32_t w = c->hostWidths[segments[s].session];
        widest = w > widest ? w : widest;
    }
    // As many warp copies as fit (up to one per warp): narrow ES sessions get 8, wide ones fewer, and a session
    // wider than 12288 levels none (global atomics, still exact).
    const int fit = kSharedBytes / 4 / widest;
    c->lastCopies = fit < kWarps ? fit : kWarps;
    c->lastWidest = widest;
    for (uint32_t s = 0; s < segmentCount; ++s)
        for (int64_t b = segments[s].begin; b < segments[s].end; b += kTileElements)
            c->hostTiles.push_back(Tile {segments[s].session, 0, b,
                                         b + kTileElements < segments[s].end ? b + kTileElements : segments[s].end});
    GPU_CHECK(gpuMemcpy(c->offset, offset, count * 4, gpuMemcpyHostToDevice), "copying offsets");
    if (span)
        GPU_CHECK(gpuMemcpy(c->span, span, count * 4, gpuMemcpyHostToDevice), "copying spans");
    GPU_CHECK(gpuMemcpy(c->volume, volume, count * 4, gpuMemcpyHostToDevice), "copying volumes");
    GPU_CHECK(gpuMemcpy(c->tiles, c->hostTiles.data(), c->hostTiles.size() * sizeof(Tile), gpuMemcpyHostToDevice),
              "copying tiles");
    c->lastCount = count;
    c->lastTiles = static_cast<uint32_t>(c->hostTiles.size());
    c->lastSpans = span != nullptr;
    return launchHistogram(c, error, errorLen);
}

int stackscope_vpoc_gpu_finish(void* ctx, uint32_t basisPoints, int dual, StackscopeVpocLevels* levels,
                               uint64_t* profiles, char* error, size_t errorLen)
{
    auto* c = static_cast<Context*>(ctx);
    if (c->sessionCount > 0) {
        levelsKernel<<<(c->sessionCount + 127) / 128, 128>>>(c->sessions, c->sessionCount, c->profiles, basisPoints,
                                                             dual, c->levels);
        GPU_CHECK(gpuGetLastError(), "launching the VPOC levels kernel");
    }
    GPU_CHECK(gpuMemcpy(levels, c->levels, c->sessionCount * sizeof(StackscopeVpocLevels), gpuMemcpyDeviceToHost),
              "copying the levels back");
    if (profiles)
        GPU_CHECK(gpuMemcpy(profiles, c->profiles, c->levelCount * 8, gpuMemcpyDeviceToHost),
                  "copying the profiles back");
    return 0;
}

int stackscope_vpoc_gpu_copy_bandwidth(void* ctx, uint64_t bytes, double* bytesPerSecond, char* error,
                                       size_t errorLen)
{
    auto* c = static_cast<Context*>(ctx);
    // Copies within the element buffers already allocated (offsets -> volumes), so no extra VRAM is needed.
    const uint64_t n = bytes / 4 < c->capElements ? bytes / 4 : c->capElements;
    gpuEvent_t start, stop;
    GPU_CHECK(gpuEventCreate(&start), "creating an event");
    GPU_CHECK(gpuEventCreate(&stop), "creating an event");
    GPU_CHECK(gpuMemcpy(c->volume, c->offset, n * 4, gpuMemcpyDeviceToDevice), "warming up the copy");
    const int repeats = 10;
    GPU_CHECK(gpuEventRecord(start, 0), "recording an event");
    for (int i = 0; i < repeats; ++i)
        GPU_CHECK(gpuMemcpy(c->volume, c->offset, n * 4, gpuMemcpyDeviceToDevice), "copying device to device");
    GPU_CHECK(gpuEventRecord(stop, 0), "recording an event");
    GPU_CHECK(gpuEventSynchronize(stop), "waiting for the copy");
    float ms = 0;
    GPU_CHECK(gpuEventElapsedTime(&ms, start, stop), "reading the timer");
    static_cast<void>(gpuEventDestroy(start));
    static_cast<void>(gpuEventDestroy(stop));
    // A copy reads and writes every byte: count both, as bandwidth tools do.
    *bytesPerSecond = 2.0 * static_cast<double>(n * 4) * repeats / (ms / 1000.0);
    return 0;
}

int stackscope_vpoc_gpu_time_resident(void* ctx, int repeats, double* milliseconds, char* error, size_t errorLen)
{
    auto* c = static_cast<Context*>(ctx);
    gpuEvent_t start, stop;
    GPU_CHECK(gpuEventCreate(&start), "creating an event");
    GPU_CHECK(gpuEventCreate(&stop), "creating an event");
    GPU_CHECK(gpuEventRecord(start, 0), "recording an event");
    for (int i = 0; i < repeats; ++i) {
        GPU_CHECK(gpuMemset(c->profiles, 0, c->levelCount * 8), "zeroing the profiles");
        if (launchHistogram(c, error, errorLen) != 0)
            return -1;
    }
    GPU_CHECK(gpuEventRecord(stop, 0), "recording an event");
    GPU_CHECK(gpuEventSynchronize(stop), "waiting for the kernels");
    float ms = 0;
    GPU_CHECK(gpuEventElapsedTime(&ms, start, stop), "reading the timer");
    static_cast<void>(gpuEventDestroy(start));
    static_cast<void>(gpuEventDestroy(stop));
    *milliseconds = ms / repeats;
    return 0;
}

} // extern "C"
