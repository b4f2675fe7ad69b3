// The trainer's fused step on one GPU: chosen for small fp32 models without dropout, checked against libtorch's
// autograd on one batch before it is used, then run for many steps per kernel launch.
#pragma once

#include "core/torch/fused_mlp.h"
#include "core/torch/trainer_model.h"

#include <memory>
#include <string>

namespace stackscope::trainer {

class FusedStep {
public:
    // The fused step for replica `r` on GPU `gpu`, or null with the reason in `why` (a model or build it does not
    // serve, or gradients that differ from autograd's by more than fused::kGradientTolerance).
    static std::unique_ptr<FusedStep> create(Replica& r, const TrainSettings& s, int gpu, std::string& why);
    // Runs `steps` steps whose batches are perm[first + k * batch ...]; throws std::runtime_error on a failed launch.
    void run(const torch::Tensor& perm, int64_t first, int steps);
    // What the check against autograd measured: max |fused - autograd| / max |autograd| of one batch's gradients.
    double mismatch() const { return m_mismatch; }

private:
    FusedStep(Replica& r, const fused::Shape& shape, const TrainSettings& s, int gpu);
    fused::Buffers buffers(const torch::Tensor& perm) const;

    Replica& m_replica;
    fused::Shape m_shape;
    fused::Hyper m_hyper;
    int m_gpu;
    torch::Tensor m_scratch;
    double m_mismatch = 0;
};

// What one GPU would do with this model: steps/s of the fused step on a scratch copy of `like` (same device, same
// data), timed over a few launches; 0 with the reason in `why` where the fused step does not serve this model.
// Nothing of `like` changes.
double fusedStepsPerSecond(const Replica& like, const TrainSettings& s, int gpu, int64_t trainRows, std::string& why);

// Whether the model and settings are ones the fused step takes (hidden layers, size, fp32, no dropout, not switched
// off), whatever this build carries: where they are not, one GPU's fused step is no comparison for several GPUs.
bool fusedStepSuitsModel(const TrainSettings& s, int64_t inputs);

} // namespace stackscope::trainer
