// Gradient buckets: hooks copy each gradient into its slice of the flat buffer and start a bucket's all-reduce
// when its last gradient has arrived, always in bucket order (every rank must issue the collectives in the same
// order, or NCCL and Gloo pair up the wrong buffers).
#include "core/torch/trainer_buckets.h"

namespace stackscope::trainer {

GradientBuckets::GradientBuckets(Replica& r, DistGroup& group, double weight, int64_t capBytes)
    : m_replica(r)
    , m_group(group)
    , m_weight(weight)
{
    auto params = r.model->parameters();
    std::vector<int64_t> offsets;
    int64_t offset = 0;
    for (const auto& p : params) {
        offsets.push_back(offset);
        offset += p.numel();
    }
    // From the last parameter backwards: a bucket closes once it holds capBytes.
    m_bucketOf.resize(params.size());
    for (size_t i = params.size(); i-- > 0;) {
        if (m_buckets.empty() || (m_buckets.back().end - m_buckets.back().begin) * 4 >= capBytes)
            m_buckets.push_back({offsets[i] + params[i].numel(), offsets[i] + params[i].numel(), 0, 0, nullptr});
        auto& b = m_buckets.back();
        b.begin = offsets[i];
        ++b.parameters;
        m_bucketOf[i] = m_buckets.size() - 1;
    }
    for (size_t i = 0; i < params.size(); ++i) {
        m_slices.push_back(r.flatGrads.narrow(0, offsets[i], params[i].numel()).view(params[i].sizes()));
        params[i].register_hook([this, i](const torch::Tensor& grad) {
            if (!grad.defined()) // a Linear's parameter: linearGrads has it already
                return;
            try {
                torch::NoGradGuard noGrad;
                torch::Tensor out = m_slices[i]; // the same storage
                if (m_weight != 1.0)
                    torch::mul_out(out, grad, m_weight);
                else
                    out.copy_(grad);
                arrive(m_bucketOf[i]);
            } catch (...) {
                keepFailure();
            }
        });
    }
    r.gradSink = this;
}

GradientBuckets::~GradientBuckets()
{
    if (m_replica.gradSink == this)
        m_replica.gradSink = nullptr;
}

// The autograd engine would rethrow an exception from a hook or a Function without its type: finishStep does.
void GradientBuckets::keepFailure()
{
    if (!m_failure)
        m_failure = std::current_exception();
}

void GradientBuckets::linearGrads(size_t weightIndex, size_t biasIndex, const torch::Tensor& dY, const torch::Tensor& X)
{
    try {
        torch::NoGradGuard noGrad;
        torch::Tensor weightGrad = m_slices.at(weightIndex), biasGrad = m_slices.at(biasIndex);
        // beta 0: the buffer's old contents are ignored (not even NaN propagates); alpha: this rank's weight.
        at::addmm_out(weightGrad, weightGrad, dY.t(), X, /*beta=*/0, /*alpha=*/m_weight);
        at::sum_out(biasGrad, dY, {0});
        if (m_weight != 1.0)
            biasGrad.mul_(m_weight);
        arrive(m_bucketOf[biasIndex]);
        arrive(m_bucketOf[weightIndex]);
    } catch (...) {
        keepFailure();
    }
}

void GradientBuckets::beginStep(const std::string& label)
{
    m_label = label;
    m_nextToStart = 0;
    for (auto& b : m_buckets) {
        b.arrived = 0;
        b.pending.reset();
    }
    // Parameters without a .grad: autograd stores the new gradient there instead of adding to the flat buffer,
    // which the hooks fill and the all-reduces use in the meantime.
    for (auto& p : m_replica.model->parameters())
        p.mutable_grad() = torch::Tensor();
}

void GradientBuckets::arrive(size_t bucket)
{
    auto& b = m_buckets[bucket];
    ++b.arrived;
    if (b.arrived == b.parameters)
        startReady();
}

void GradientBuckets::startReady()
{
    while (m_nextToStart < m_buckets.size() && !m_buckets[m_nextToStart].pending &&
           m_buckets[m_nextToStart].arrived == m_buckets[m_nextToStart].parameters) {
        auto& b = m_buckets[m_nextToStart];
        auto slice = m_replica.flatGrads.narrow(0, b.begin, b.end - b.begin);
        b.pending = m_group.startAllReduceSum(slice, "all_reduce(gradients, bucket " + std::to_string(m_nextToStart + 1) +
                                                         " of " + std::to_string(m_buckets.size()) + ") " + m_label);
        ++m_nextToStart;
    }
}

void GradientBuckets::finishStep()
{
    if (m_failure)
        std::rethrow_exception(std::exchange(m_failure, nullptr));
    for (size_t i = 0; i < m_buckets.size(); ++i)
        if (m_buckets[i].arrived != m_buckets[i].parameters)
            throw std::logic_error("gradient bucket " + std::to_string(i + 1) + " got " +
                                   std::to_string(m_buckets[i].arrived) + " of its " +
                                   std::to_string(m_buckets[i].parameters) +
                                   " gradients in this step (a parameter unused by the model?)");
    startReady();
    for (auto& b : m_buckets)
        b.pending->wait();
}

} // namespace stackscope::trainer
