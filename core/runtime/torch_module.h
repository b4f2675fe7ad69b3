// The one way to open StackScope's torch module (libstackscope_torch.so): the documented search
// (torchModuleCandidates: $STACKSCOPE_TORCH_MODULE, else beside the program) through DynamicLibrary, and the ABI check
// of the entry points the caller needs. Used by the inspection, the trainer, the probe worker and `bench vpoc`.
#pragma once

#include "core/runtime/dynamic_library.h"

#include <string>
#include <vector>

namespace stackscope {

// Where the module is looked for: $STACKSCOPE_TORCH_MODULE alone when set, else libstackscope_torch.so in each of
// moduleDirectories().
std::vector<std::string> torchModuleCandidates();

// Opens the module from `candidates` (default: torchModuleCandidates()) and checks that its `abiSymbol` (an
// `int (*)()` entry point) returns `abi`. `what` names the entry points for messages ("trainer", "probes", ...).
// On failure `error` says what is wrong and what to do (the library may still be loaded, for its path); it is empty
// when the module is usable. The handle is never closed: libtorch is not safe to unload.
DynamicLibrary openTorchModule(const char* abiSymbol, int abi, const char* what, std::string& error,
                               const std::vector<std::string>& candidates = {});

} // namespace stackscope
