// A Linear layer whose backward hands its weight and bias gradients over before it computes its input gradient,
// so that a data-parallel all-reduce of those gradients overlaps the input-gradient GEMM (trainer_buckets.h).
// With autograd's own Linear the parameter gradients reach hooks only after the whole layer's backward, which
// leaves the all-reduce of the second layer's weights (16.8 MB for hidden 2048) with nothing to hide behind.
#pragma once

#include <torch/torch.h>

#include <cstddef>

namespace stackscope::trainer {

class LinearGradSink {
public:
    virtual ~LinearGradSink() = default;
    // `weightIndex`/`biasIndex`: the parameters' positions in model->parameters(). dY: the layer's output gradient
    // [rows, out]; X: its input [rows, in]. Called on autograd's thread, during backward (or its graph capture).
    virtual void linearGrads(size_t weightIndex, size_t biasIndex, const torch::Tensor& dY, const torch::Tensor& X) = 0;
};

// The model's forward (the same operations as model->forward, so the same bits), with every Linear layer's
// parameter gradients going to `sink` instead of to .grad.
torch::Tensor forwardWithGradSink(torch::nn::Sequential& model, const torch::Tensor& input, LinearGradSink& sink);

} // namespace stackscope::trainer
