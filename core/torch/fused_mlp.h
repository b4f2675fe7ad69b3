// The fused training step for small MLPs (fused_mlp_math.h): the CPU reference, the GPU launcher and the check
// that compares its gradients with libtorch's autograd before the trainer uses it.
#pragma once

#include "core/torch/fused_mlp_math.h"

#include <string>

namespace stackscope::trainer::fused {

// Rows' forward+backward cost above this many multiply-adds per row goes to cuBLAS (the libtorch path): one
// thread per row is fast while a row is small, and a large model is compute bound where cuBLAS wins.
constexpr int64_t kMaxMacsPerRow = 1 << 16;

// Largest |fused - libtorch| over the largest |libtorch| for the gradients of one batch, allowed. Model: each
// gradient is a sum of n products in float32 done in another order by both; with n <= batch x width chain
// (256 x 48 = 12,288 for the default model) the probabilistic bound sqrt(n) u is 7e-6 of the sum of |terms|,
// and LayerNorm's backward subtracts terms of similar size (cancellation); 1e-4 leaves 14x for it.
// Measured ratios are in tests/bench/RESULTS.md ("Fused training step").
constexpr double kGradientTolerance = 1e-4;

// Multiply-adds of one row's forward and backward (what one GPU thread does per step).
int64_t macsPerRow(const Shape& s);

// One step on the CPU (the reference for tests): forward/backward of every row, gradients; unless
// `gradientsOnly`, the loss added to lossSum, clipping and Adam.
void stepOnCpu(const Shape& s, const Buffers& b, const Hyper& hp, int64_t first, bool gradientsOnly);

// True when this build has the GPU kernel (a CUDA build of libtorch).
bool haveGpuKernel();
// Launches `steps` consecutive steps (step k takes perm[first + k * batch ...]) as one kernel on `stream` (a
// cudaStream_t); returns an empty string or what failed.
std::string launchSteps(const Shape& s, const Buffers& b, const Hyper& hp, int64_t first, int steps,
                        bool gradientsOnly, void* stream);

// max |a - b| / max |b| over n values (0 when both are zero).
double relativeMismatch(const float* a, const float* b, int64_t n);

} // namespace stackscope::trainer::fused
