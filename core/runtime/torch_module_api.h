// The C interface of StackScope's libtorch module (libstackscope_torch.so), opened at run time.
#pragma once

#define STACKSCOPE_TORCH_MODULE_ABI 1
#define STACKSCOPE_TORCH_EXPORT __attribute__((visibility("default")))

extern "C" {
// Returns STACKSCOPE_TORCH_MODULE_ABI of the module's build.
STACKSCOPE_TORCH_EXPORT int stackscope_torch_abi(void);
// Facts about the libtorch this module was built against and has loaded, as a JSON object
// (keys of the snapshot's "torch" section). The caller frees it with stackscope_torch_free.
STACKSCOPE_TORCH_EXPORT char* stackscope_torch_info_json(void);
STACKSCOPE_TORCH_EXPORT void stackscope_torch_free(char* p);
}
