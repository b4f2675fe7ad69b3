// The C entry points of the libtorch VPOC baseline inside libstackscope_torch.so (for `bench vpoc`).
#pragma once

#include "core/runtime/torch_module_api.h"

#include <stddef.h>
#include <stdint.h>

#define STACKSCOPE_TORCH_VPOC_ABI 1

// One session: elements [elemBegin, elemEnd) of the input add to levels profileOffset .. + width - 1.
struct StackscopeTorchVpocSession {
    int64_t elemBegin;
    int64_t elemEnd;
    int64_t profileOffset;
    int32_t width;
    int32_t reserved;
};

enum StackscopeTorchVpocMethod {
    STACKSCOPE_TORCH_VPOC_INDEX_ADD = 0, // profile.index_add_(0, offsets, volumes) per session
    STACKSCOPE_TORCH_VPOC_BINCOUNT = 1,  // torch::bincount(offsets, volumes, width) per session
};

extern "C" {
STACKSCOPE_TORCH_EXPORT int stackscope_torch_vpoc_abi(void);
// Builds every session's dense int64 profile with libtorch on `device` ("cuda" or "cpu"). The input
// (int32 level offsets, uint32 volumes below 2^31) is uploaded once before timing; the best of `repeats`
// timed builds (zeroing the profiles, the per-session ops, a device synchronise) is stored in
// `bestMilliseconds`, and the profiles of the last build in `profiles` (`levels` values) when not null.
// Returns 0, or -1 with a message for a person in `error`.
STACKSCOPE_TORCH_EXPORT int stackscope_torch_vpoc_profiles(const char* device, int method, const int32_t* offset,
                                                           const uint32_t* volume, uint64_t count,
                                                           const struct StackscopeTorchVpocSession* sessions,
                                                           uint32_t sessionCount, uint64_t levels, int repeats,
                                                           double* bestMilliseconds, uint64_t* profiles,
                                                           char* error, size_t errorLen);
}
