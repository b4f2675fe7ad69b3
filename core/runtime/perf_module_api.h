// The C entry point of the bandwidth and compute suite inside StackScope's libtorch module.
#pragma once

#include "core/runtime/torch_module_api.h"

#define STACKSCOPE_TORCH_PERF_ABI 1

extern "C" {
STACKSCOPE_TORCH_EXPORT int stackscope_torch_perf_abi(void);
// Runs the suite in this process. Request: {"gpus": [0, 1], "tests": ["h2d_pinned", ...] (empty: all),
// "min_bytes": 4096, "max_bytes": 1073741824, "trials": 5, "gemm_dtypes": ["fp32", "tf32", "bf16", "fp16", "fp64"],
// "skip": {"0": "why GPU 0 is left out"}}.
// Result: {"backend", "torch_version", "figures": [core/perf/perf_json.h's figures, unjudged]}; the caller frees it
// with stackscope_torch_free. Never throws: a failure is a figure's "error" or {"error": ...}.
STACKSCOPE_TORCH_EXPORT char* stackscope_torch_run_perf(const char* request_json);
}
