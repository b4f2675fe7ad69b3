// Gradient all-reduce overlapped with backward (DDP's buckets): each rank's gradients go to the flat buffer
// bucket by bucket as autograd produces them, and a bucket's all-reduce starts as soon as it is complete, while
// backward goes on with the layers below. Linear layers hand their gradients over before computing their input
// gradient (trainer_linear.h), so a layer's all-reduce also overlaps that GEMM.
#pragma once

#include "core/torch/trainer_dist.h"
#include "core/torch/trainer_model.h"

#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace stackscope::trainer {

class GradientBuckets : public LinearGradSink {
public:
    // Buckets of about `capBytes`, filled from the last parameter backwards (the order backward produces them);
    // each gradient is weighted by `weight` (this rank's share of the batch) on its way into the flat buffer.
    // Registers hooks on `r`'s parameters: `r` and `group` must outlive this object.
    GradientBuckets(Replica& r, DistGroup& group, double weight, int64_t capBytes);
    ~GradientBuckets() override;
    GradientBuckets(const GradientBuckets&) = delete;
    GradientBuckets& operator=(const GradientBuckets&) = delete;

    // Before backward: labels this step's collectives and lets autograd hand the gradients to the hooks.
    void beginStep(const std::string& label);
    // After backward: starts what is left in bucket order, waits for every bucket (within the timeout),
    // rethrows a failure of a hook.
    void finishStep();

    size_t bucketCount() const { return m_buckets.size(); }

    // LinearGradSink: the weighted gradients go straight into the flat buffer (the GEMM writes them there).
    void linearGrads(size_t weightIndex, size_t biasIndex, const torch::Tensor& dY, const torch::Tensor& X) override;

private:
    struct Bucket {
        int64_t begin = 0, end = 0; // range of the flat buffer
        int parameters = 0;         // how many parameters it holds
        int arrived = 0;            // gradients copied in this step
        std::unique_ptr<PendingCollective> pending;
    };
    void arrive(size_t bucket);
    void keepFailure();
    void startReady();

    Replica& m_replica;
    DistGroup& m_group;
    double m_weight;
    std::vector<Bucket> m_buckets; // in the order they start: from the end of the flat buffer
    std::vector<torch::Tensor> m_slices; // each parameter's gradient: a view of the flat buffer
    std::vector<size_t> m_bucketOf;      // each parameter's bucket
    size_t m_nextToStart = 0;
    std::string m_label;
    std::exception_ptr m_failure;
};

} // namespace stackscope::trainer
