// The early-gradient Linear: an autograd Function whose backward gives the parameter gradients to a sink first.
#include "core/torch/trainer_linear.h"

#include <cstdint>

namespace stackscope::trainer {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

struct EarlyGradLinear : torch::autograd::Function<EarlyGradLinear> {
    static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& weight,
                                 const torch::Tensor& bias, LinearGradSink* sink, int64_t weightIndex)
    {
        ctx->save_for_backward({x, weight});
        ctx->saved_data["sink"] = reinterpret_cast<int64_t>(sink);
        ctx->saved_data["weight"] = weightIndex;
        return torch::addmm(bias, x, weight.t()); // what torch::nn::functional::linear computes for 2-D input
    }

    static variable_list backward(AutogradContext* ctx, variable_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor& dY = grads[0];
        auto* sink = reinterpret_cast<LinearGradSink*>(ctx->saved_data["sink"].toInt());
        const auto weightIndex = static_cast<size_t>(ctx->saved_data["weight"].toInt());
        sink->linearGrads(weightIndex, weightIndex + 1, dY, saved[0]);
        torch::Tensor dX;
        if (ctx->needs_input_grad(0))
            dX = dY.mm(saved[1]);
        return {dX, torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

} // namespace

torch::Tensor forwardWithGradSink(torch::nn::Sequential& model, const torch::Tensor& input, LinearGradSink& sink)
{
    torch::Tensor h = input;
    size_t parameterIndex = 0;
    for (auto& layer : *model) {
        const auto module = layer.ptr();
        if (auto* linear = module->as<torch::nn::LinearImpl>(); linear && linear->bias.defined())
            h = EarlyGradLinear::apply(h, linear->weight, linear->bias, &sink, static_cast<int64_t>(parameterIndex));
        else
            h = layer.forward(h);
        parameterIndex += module->parameters().size(); // a Linear registers weight, then bias
    }
    return h;
}

} // namespace stackscope::trainer
