// The C interface of the VPOC GPU module (CUDA or HIP build of one source), opened with dlopen by the core.
#pragma once

#include <stddef.h>
#include <stdint.h>

#define STACKSCOPE_VPOC_GPU_ABI 2

// One session of a batch: its dense profile lives at profileOffset .. profileOffset + width - 1, and an element's
// level in it is its offset + levelShift.
struct StackscopeVpocSession {
    int64_t profileOffset;
    int32_t width;
    int32_t levelShift;
};

// Elements [begin, end) of the current chunk belong to session `session` of the batch.
struct StackscopeVpocSegment {
    uint32_t session;
    uint32_t reserved;
    int64_t begin;
    int64_t end;
};

// Offsets into the session's profile, and its total volume.
struct StackscopeVpocLevels {
    int32_t poc;
    int32_t val;
    int32_t vah;
    int32_t reserved;
    uint64_t volume;
};

struct StackscopeVpocCapacity {
    uint64_t elements; // per chunk
    uint64_t levels;   // profile levels per batch
    uint64_t sessions; // per batch
    uint64_t segments; // per chunk
};

#ifdef __cplusplus
extern "C" {
#endif

// Every function returns 0 on success or -1 with a message for a person in `error`.
int stackscope_vpoc_gpu_abi(void);
const char* stackscope_vpoc_gpu_vendor(void); // "cuda" or "hip"
// Opens device 0 and allocates every buffer once, all within budgetBytes; nothing grows later.
void* stackscope_vpoc_gpu_open(uint64_t budgetBytes, char* error, size_t errorLen);
void stackscope_vpoc_gpu_close(void* ctx);
void stackscope_vpoc_gpu_capacity(void* ctx, struct StackscopeVpocCapacity* out);
int stackscope_vpoc_gpu_device_name(void* ctx, char* name, size_t nameLen);
// Starts a batch: uploads the session table and zeroes its profiles.
int stackscope_vpoc_gpu_begin(void* ctx, const struct StackscopeVpocSession* sessions, uint32_t count,
                              uint64_t levels, char* error, size_t errorLen);
// Adds one chunk of elements to the batch's profiles (span may be null: every element is a point).
int stackscope_vpoc_gpu_add(void* ctx, const int32_t* offset, const uint32_t* span, const uint32_t* volume,
                            uint64_t count, const struct StackscopeVpocSegment* segments, uint32_t segmentCount,
                            char* error, size_t errorLen);
// POC and value area of every session of the batch; profiles copied back when `profiles` is not null.
int stackscope_vpoc_gpu_finish(void* ctx, uint32_t basisPoints, int dual, struct StackscopeVpocLevels* levels,
                               uint64_t* profiles, char* error, size_t errorLen);
// Benchmark helpers: device-to-device copy bandwidth (bytes/s) over `bytes`, and the time in ms of
// re-running zero + histogram on the chunk already on the device, averaged over `repeats`.
int stackscope_vpoc_gpu_copy_bandwidth(void* ctx, uint64_t bytes, double* bytesPerSecond, char* error,
                                       size_t errorLen);
int stackscope_vpoc_gpu_time_resident(void* ctx, int repeats, double* milliseconds, char* error, size_t errorLen);

#ifdef __cplusplus
}
#endif
