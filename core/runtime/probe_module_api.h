// The C entry points of the op probes inside StackScope's libtorch module (libstackscope_torch.so).
#pragma once

#include "core/runtime/torch_module_api.h"

extern "C" {
// Runs one probe (or lists devices) in this process and returns a JSON object the caller frees
// with stackscope_torch_free. Request: {"probe": "matmul_fp16", "device": "cpu" | "0",
// "inject": "" | "wrong" | "oom"} or {"op": "devices"}.
// Result: {"outcome": "ok|error|wrong|unsupported", "message", "max_error", "tolerance", "error_ratio", "details"};
// devices: {"backend", "devices": [{"id": "cpu", "name"}, {"id": "0", "name"}...]}.
// Never throws: a libtorch exception becomes {"outcome": "error", "message": what()}.
STACKSCOPE_TORCH_EXPORT char* stackscope_torch_run_probe(const char* request_json);
}
