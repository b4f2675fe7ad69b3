// Choosing, checking and running the fused training step (core/torch/fused_mlp.h) for one GPU replica.
#include "core/torch/trainer_fused.h"

#include "core/torch/trainer_device.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace stackscope::trainer {

namespace {

// Why the fused step does not serve this run, or empty when it does.
// `checkKernel` false: whether the model and settings suit the fused step, whatever this build carries.
std::string unsuitable(const TrainSettings& s, const fused::Shape* shape, bool checkKernel = true)
{
    if (!s.fusedStep)
        return "fused step off (--no-fused-step)";
    if (checkKernel && !fused::haveGpuKernel())
        return "no fused step kernel in this build (it is compiled by nvcc against a CUDA libtorch, with -DSTACKSCOPE_CUDA=ON)";
    if (s.bf16)
        return "the fused step is fp32 only (--precision bf16 trains through libtorch)";
    if (s.dropout > 0)
        return "the fused step has no dropout (--dropout trains through libtorch)";
    if (!shape)
        return "the fused step takes 1 to " + std::to_string(fused::kMaxLayers) + " hidden layers";
    if (fused::macsPerRow(*shape) > fused::kMaxMacsPerRow)
        return "the model is large enough for cuBLAS (" + std::to_string(fused::macsPerRow(*shape)) +
               " multiply-adds per row > " + std::to_string(fused::kMaxMacsPerRow) + ")";
    return {};
}

// The kernel's shape for this model, or the reason it does not serve it (empty `why`: it does).
fused::Shape shapeFor(const TrainSettings& s, int64_t inputs, std::string& why, bool checkKernel = true)
{
    std::vector<int> widths(s.hidden.begin(), s.hidden.end());
    fused::Shape shape;
    const bool fits = fused::makeShape(shape, static_cast<int>(inputs), widths.data(), static_cast<int>(widths.size()),
                                       static_cast<int>(s.batchSize));
    why = unsuitable(s, fits ? &shape : nullptr, checkKernel);
    return shape;
}

} // namespace

bool fusedStepSuitsModel(const TrainSettings& s, int64_t inputs)
{
    std::string why;
    shapeFor(s, inputs, why, false);
    return why.empty();
}

FusedStep::FusedStep(Replica& r, const fused::Shape& shape, const TrainSettings& s, int gpu)
    : m_replica(r)
    , m_shape(shape)
    , m_gpu(gpu)
{
    m_hyper.lr = static_cast<float>(s.learningRate);
    m_hyper.clip = static_cast<float>(s.clipNorm);
    m_scratch = torch::zeros({static_cast<int64_t>(shape.slotCount) * shape.batch},
                             torch::TensorOptions().dtype(torch::kFloat).device(r.device));
}

std::unique_ptr<FusedStep> FusedStep::create(Replica& r, const TrainSettings& s, int gpu, std::string& why)
{
    const fused::Shape shape = shapeFor(s, r.x.size(1), why);
    if (!why.empty())
        return nullptr;
    std::unique_ptr<FusedStep> step(new FusedStep(r, shape, s, gpu));
    // One batch (the first rows) through autograd and through the kernel, gradients only: nothing is trained.
    torch::NoGradGuard noGrad;
    auto rows = torch::arange(s.batchSize, torch::TensorOptions().dtype(torch::kLong).device(r.device));
    const auto saved = r.batchIdx;
    r.bindBatch(rows);
    {
        torch::AutoGradMode grad(true);
        r.forwardBackward(false);
    }
    r.bindBatch(saved);
    r.lossSum.zero_();
    const auto reference = r.flatGrads.to(torch::kCPU).clone();
    const auto error = fused::launchSteps(shape, step->buffers(rows), step->m_hyper, 0, 1, true, currentStream(gpu));
    if (!error.empty()) {
        why = error + "; training through libtorch";
        return nullptr;
    }
    const auto mine = r.flatGrads.to(torch::kCPU);
    r.flatGrads.zero_();
    step->m_mismatch = fused::relativeMismatch(mine.data_ptr<float>(), reference.data_ptr<float>(), reference.numel());
    if (!(step->m_mismatch <= fused::kGradientTolerance)) {
        char text[160];
        std::snprintf(text, sizeof text, "the fused step's gradients differ from autograd's by %.3g (allowed %.0e): "
                      "training through libtorch; please report this with the run's output", step->m_mismatch,
                      fused::kGradientTolerance);
        why = text;
        return nullptr;
    }
    return step;
}

fused::Buffers FusedStep::buffers(const torch::Tensor& perm) const
{
    fused::Buffers b {};
    b.params = m_replica.flatParams.data_ptr<float>();
    b.grads = m_replica.flatGrads.data_ptr<float>();
    b.expAvg = m_replica.expAvg.data_ptr<float>();
    b.expAvgSq = m_replica.expAvgSq.data_ptr<float>();
    b.step = m_replica.step.data_ptr<float>();
    b.lossSum = m_replica.lossSum.data_ptr<float>();
    b.x = m_replica.x.data_ptr<float>();
    b.y = m_replica.y.data_ptr<float>();
    b.perm = perm.data_ptr<int64_t>();
    b.scratch = m_scratch.data_ptr<float>();
    return b;
}

void FusedStep::run(const torch::Tensor& perm, int64_t first, int steps)
{
    const auto error = fused::launchSteps(m_shape, buffers(perm), m_hyper, first, steps, false, currentStream(m_gpu));
    if (!error.empty())
        throw std::runtime_error(error + "; rerun with --no-fused-step to train through libtorch");
}

double fusedStepsPerSecond(const Replica& like, const TrainSettings& s, int gpu, int64_t trainRows, std::string& why)
{
    shapeFor(s, like.x.size(1), why);
    if (!why.empty())
        return 0;
    Replica scratch(like.model, like.device, like.x, like.y); // shares the data on the device
    auto step = FusedStep::create(scratch, s, gpu, why);
    const int64_t steps = std::min<int64_t>(s.stepInterval, trainRows / s.batchSize);
    if (!step || steps < 1)
        return 0;
    auto perm = torch::randperm(trainRows, torch::TensorOptions().dtype(torch::kLong).device(like.device));
    step->run(perm, 0, static_cast<int>(steps)); // the first launch loads the kernel
    scratch.lossSum.item<float>();
    constexpr int kLaunches = 4;
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < kLaunches; ++k)
        step->run(perm, 0, static_cast<int>(steps));
    scratch.lossSum.item<float>(); // waits for the launches
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return dt > 0 ? static_cast<double>(kLaunches * steps) / dt : 0;
}

} // namespace stackscope::trainer
