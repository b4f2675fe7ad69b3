// The MLP, flat-buffer replicas, Adam with clipping, autocast for bf16, checkpoints and state dicts.
#include "core/torch/trainer_model.h"

#include "core/torch/torch_save_format.h"
#include "core/util/atomic_file.h"
#include "core/util/sha256.h"

#include <ATen/autocast_mode.h>
#include <nlohmann/json.hpp>
#include <torch/script.h>
#include <torch/version.h>

#include <fstream>
#include <iterator>
#include <stdexcept>

namespace stackscope::trainer {

namespace {

constexpr double kBeta1 = 0.9;
constexpr double kBeta2 = 0.999;
constexpr double kEps = 1e-8;

// bf16 autocast for the forward pass; the API moved to per-device-type calls in libtorch 2.4.
class AutocastScope {
public:
    AutocastScope(bool on, const torch::Device& device)
        : m_on(on)
        , m_cuda(device.is_cuda())
    {
        if (m_on)
            set(true);
    }
    ~AutocastScope()
    {
        if (m_on) {
            set(false);
            at::autocast::clear_cache();
        }
    }

private:
    void set(bool enabled) const
    {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
        const auto type = m_cuda ? at::kCUDA : at::kCPU;
        at::autocast::set_autocast_enabled(type, enabled);
        at::autocast::set_autocast_dtype(type, at::kBFloat16);
#else
        if (m_cuda) {
            at::autocast::set_enabled(enabled);
            at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
        } else {
            at::autocast::set_cpu_enabled(enabled);
            at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
        }
#endif
    }
    bool m_on;
    bool m_cuda;
};

std::vector<char> readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read " + path + "; check that the training output folder holds it");
    return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace

TrainSettings parseSettings(const char* text)
{
    const auto j = nlohmann::json::parse(text);
    TrainSettings s;
    s.hidden = j.at("hidden").get<std::vector<int64_t>>();
    s.dropout = j.value("dropout", 0.0);
    s.learningRate = j.at("learning_rate").get<double>();
    s.epochs = j.at("epochs").get<int>();
    s.batchSize = j.at("batch_size").get<int64_t>();
    s.seed = j.value("seed", uint64_t {42});
    s.clipNorm = j.value("clip_norm", 1.0);
    s.patience = j.value("patience", 0);
    s.gpus = j.value("gpus", std::vector<int> {});
    s.fallbackToCpu = j.value("fallback_to_cpu", false);
    s.bf16 = j.value("precision", std::string("fp32")) == "bf16";
    s.cudaGraphs = j.value("cuda_graphs", true);
    s.fusedStep = j.value("fused_step", true);
    s.stepInterval = std::max<int64_t>(1, j.value("step_interval", int64_t {50}));
    return s;
}

torch::nn::Sequential buildModel(int64_t inputs, const std::vector<int64_t>& hidden, double dropout)
{
    torch::nn::Sequential seq;
    int64_t previous = inputs;
    for (int64_t h : hidden) {
        seq->push_back(torch::nn::Linear(previous, h));
        seq->push_back(torch::nn::LayerNorm(torch::nn::LayerNormOptions({h})));
        seq->push_back(torch::nn::SiLU());
        if (dropout > 0)
            seq->push_back(torch::nn::Dropout(dropout));
        previous = h;
    }
    seq->push_back(torch::nn::Linear(previous, 1));
    return seq;
}

Replica::Replica(const torch::nn::Sequential& prototype, const torch::Device& dev, const torch::Tensor& xs,
                 const torch::Tensor& ys)
    : device(dev)
    , model(std::dynamic_pointer_cast<torch::nn::SequentialImpl>(prototype->clone(dev)))
{
    x = xs.to(dev);
    y = ys.to(dev);
    const auto options = torch::TensorOptions().dtype(torch::kFloat).device(dev);
    int64_t total = 0;
    for (const auto& p : model->parameters())
        total += p.numel();
    flatParams = torch::zeros({total}, options);
    flatGrads = torch::zeros({total}, options);
    int64_t offset = 0;
    torch::NoGradGuard noGrad;
    for (auto& p : model->parameters()) {
        const int64_t n = p.numel();
        auto view = flatParams.narrow(0, offset, n).view(p.sizes());
        view.copy_(p.detach());
        p.set_data(view);
        p.mutable_grad() = flatGrads.narrow(0, offset, n).view(p.sizes());
        offset += n;
    }
    expAvg = torch::zeros({total}, options);
    expAvgSq = torch::zeros({total}, options);
    step = torch::zeros({1}, options);
    lossSum = torch::zeros({}, options);
}

void Replica::forwardBackward(bool bf16)
{
    if (!gradSink)
        flatGrads.zero_();
    auto xb = x.index_select(0, batchIdx);
    auto yb = y.index_select(0, batchIdx);
    torch::Tensor out;
    if (gradSink && !bf16) {
        out = forwardWithGradSink(model, xb, *gradSink);
    } else {
        AutocastScope autocast(bf16, device);
        out = model->forward(xb);
    }
    auto loss = torch::mse_loss(out.reshape({-1}).to(torch::kFloat), yb);
    loss.backward();
    torch::NoGradGuard noGrad;
    lossSum.add_(loss.detach());
}

void Replica::adamStep(const TrainSettings& s)
{
    torch::NoGradGuard noGrad;
    if (s.clipNorm > 0) {
        // torch.nn.utils.clip_grad_norm_'s rule, kept on the device (no host sync).
        auto coef = (s.clipNorm / (flatGrads.norm() + 1e-6)).clamp_max(1.0);
        flatGrads.mul_(coef);
    }
    step.add_(1.0);
#if TORCH_VERSION_MAJOR >= 2
    // PyTorch's fused Adam (Adam(fused=True)): one kernel over the flat buffers instead of about 15 whole-buffer
    // passes; the same formula, the bias corrections from the step count on the device (graph-capturable).
    if (flatParams.is_cuda()) {
        at::_fused_adam_({flatParams}, {flatGrads}, {expAvg}, {expAvgSq}, {}, {step}, s.learningRate, kBeta1, kBeta2,
                         /*weight_decay=*/0.0, kEps, /*amsgrad=*/false, /*maximize=*/false);
        return;
    }
#endif
    expAvg.mul_(kBeta1).add_(flatGrads, 1.0 - kBeta1);
    expAvgSq.mul_(kBeta2).addcmul_(flatGrads, flatGrads, 1.0 - kBeta2);
    auto biasCorrection1 = torch::pow(kBeta1, step).neg_().add_(1.0);
    auto biasCorrection2 = torch::pow(kBeta2, step).neg_().add_(1.0);
    auto denom = (expAvgSq.sqrt() / biasCorrection2.sqrt()).add_(kEps);
    flatParams.sub_(expAvg / denom * (s.learningRate / biasCorrection1));
}

double Replica::validationLoss(int64_t begin, int64_t count, bool bf16)
{
    torch::NoGradGuard noGrad;
    model->eval();
    auto sse = torch::zeros({}, torch::TensorOptions().dtype(torch::kDouble).device(device));
    constexpr int64_t chunk = 1 << 16;
    for (int64_t at = 0; at < count; at += chunk) {
        const int64_t n = std::min(chunk, count - at);
        torch::Tensor out;
        {
            AutocastScope autocast(bf16, device);
            out = model->forward(x.narrow(0, begin + at, n));
        }
        auto diff = out.reshape({-1}).to(torch::kFloat) - y.narrow(0, begin + at, n);
        sse.add_(diff.pow(2).sum().to(torch::kDouble));
    }
    model->train();
    return sse.item<double>() / static_cast<double>(std::max<int64_t>(count, 1));
}

std::string saveCheckpoint(stackscope::StagedOutputs& set, const std::string& path, const Replica& r,
                           const TrainingState& s)
{
    torch::serialize::OutputArchive archive;
    archive.write("flat_params", r.flatParams.detach().to(torch::kCPU));
    archive.write("exp_avg", r.expAvg.to(torch::kCPU));
    archive.write("exp_avg_sq", r.expAvgSq.to(torch::kCPU));
    archive.write("step", r.step.to(torch::kCPU));
    archive.write("epoch", torch::tensor(static_cast<int64_t>(s.epoch)));
    archive.write("best_epoch", torch::tensor(static_cast<int64_t>(s.bestEpoch)));
    archive.write("best_val_loss", torch::tensor(s.bestValLoss, torch::kDouble));
    archive.write("bad_epochs", torch::tensor(static_cast<int64_t>(s.badEpochs)));
    archive.write("best_params", s.bestParams.defined() ? s.bestParams : r.flatParams.detach().to(torch::kCPU));
    std::string bytes;
    archive.save_to([&bytes](const void* data, size_t n) {
        bytes.append(static_cast<const char*>(data), n);
        return n;
    });
    set.stage(path, bytes);
    stackscope::Sha256 hash;
    hash.update(bytes.data(), bytes.size());
    return hash.hexDigest();
}

TrainingState loadCheckpoint(const std::string& path, std::vector<Replica>& replicas)
{
    torch::serialize::InputArchive archive;
    try {
        archive.load_from(path);
    } catch (const std::exception& e) {
        throw std::runtime_error("cannot read the checkpoint " + path + " (" + e.what() +
                                 "); start a new run without --resume, or into another --output folder");
    }
    auto read = [&archive](const char* key) {
        torch::Tensor t;
        archive.read(key, t);
        return t;
    };
    TrainingState s;
    auto flat = read("flat_params");
    if (flat.numel() != replicas.front().flatParams.numel())
        throw std::runtime_error("the checkpoint " + path + " holds " + std::to_string(flat.numel()) +
                                 " parameters but this model has " +
                                 std::to_string(replicas.front().flatParams.numel()) +
                                 "; resume with the same features and --hidden, or start a new run");
    torch::NoGradGuard noGrad;
    const auto expAvg = read("exp_avg");
    const auto expAvgSq = read("exp_avg_sq");
    const auto step = read("step");
    for (auto& r : replicas) {
        r.flatParams.copy_(flat);
        r.expAvg.copy_(expAvg);
        r.expAvgSq.copy_(expAvgSq);
        r.step.copy_(step);
    }
    s.epoch = static_cast<int>(read("epoch").item<int64_t>());
    s.bestEpoch = static_cast<int>(read("best_epoch").item<int64_t>());
    s.bestValLoss = read("best_val_loss").item<double>();
    s.badEpochs = static_cast<int>(read("bad_epochs").item<int64_t>());
    s.bestParams = read("best_params");
    return s;
}

void saveStateDict(stackscope::StagedOutputs& set, const std::string& path, const Replica& layout,
                   const torch::Tensor& flat)
{
    std::vector<std::pair<std::string, torch::Tensor>> state;
    int64_t offset = 0;
    for (const auto& item : layout.model->named_parameters()) {
        const int64_t n = item.value().numel();
        state.emplace_back(item.key(), flat.narrow(0, offset, n).view(item.value().sizes()));
        offset += n;
    }
    set.stage(path, torchSaveBytes(state));
}

void loadStateDict(const std::string& path, torch::nn::Sequential& model)
{
    const auto value = torch::pickle_load(readFile(path));
    if (!value.isGenericDict())
        throw std::runtime_error(path + " is not a state dict written by StackScope; train again to get one");
    const auto dict = value.toGenericDict();
    torch::NoGradGuard noGrad;
    for (auto& item : model->named_parameters()) {
        const auto it = dict.find(item.key());
        if (it == dict.end())
            throw std::runtime_error(path + " has no '" + item.key() +
                                     "': the model was trained with other --hidden layers or features");
        const auto t = it->value().toTensor();
        if (t.sizes() != item.value().sizes())
            throw std::runtime_error(path + ": '" + item.key() + "' has another shape than this model's");
        item.value().copy_(t);
    }
}

} // namespace stackscope::trainer
