// RunObserver: one JSON event at a time into TrainingProgress, TrainingResult and model_metadata.json.
#include "core/training/training_events.h"

#include "core/training/training_metadata.h"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace stackscope::training {

const char* trainingStatusName(TrainingStatus s)
{
    switch (s) {
    case TrainingStatus::Finished: return "finished";
    case TrainingStatus::EarlyStopped: return "early_stopped";
    case TrainingStatus::Stopped: return "stopped";
    case TrainingStatus::Failed: return "failed";
    case TrainingStatus::Running: return "running";
    }
    return "?";
}

TrainingStatus trainingStatusFromName(const std::string& name)
{
    for (auto s : {TrainingStatus::Finished, TrainingStatus::EarlyStopped, TrainingStatus::Stopped, TrainingStatus::Failed})
        if (name == trainingStatusName(s))
            return s;
    throw std::runtime_error("the training module ended with status '" + name + "', which this program does not know: "
                             "install the torch module and stackscope-cli from the same build (or rebuild both)");
}

const char* deviceAdviceKindName(DeviceAdvice::Kind kind)
{
    switch (kind) {
    case DeviceAdvice::Kind::FewerGpusFaster: return "fewer_gpus_faster";
    case DeviceAdvice::Kind::SeveralGpusFaster: return "several_gpus_faster";
    }
    return "?";
}

namespace {

// A positive finite number of `j`, or none.
std::optional<double> positive(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number())
        return std::nullopt;
    const double v = it->get<double>();
    return std::isfinite(v) && v > 0 ? std::optional<double>(v) : std::nullopt;
}

// "gpu:N", one GPU, as --device spells it; none for anything else.
std::optional<std::string> oneGpuDevice(const nlohmann::json& j)
{
    const auto it = j.find("suggested_device");
    if (it == j.end() || !it->is_string())
        return std::nullopt;
    try {
        const auto d = parseDevices(it->get<std::string>());
        if (d.gpus.size() == 1)
            return d.toString();
    } catch (const ConfigError&) {
        // Not a device this build reads: no advice to act on.
    }
    return std::nullopt;
}

} // namespace

std::optional<DeviceAdvice> deviceAdviceFromJson(const nlohmann::json& j)
{
    if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
        return std::nullopt;
    DeviceAdvice a;
    const std::string kind = j["kind"].get<std::string>();
    if (kind == deviceAdviceKindName(DeviceAdvice::Kind::FewerGpusFaster))
        a.kind = DeviceAdvice::Kind::FewerGpusFaster;
    else if (kind == deviceAdviceKindName(DeviceAdvice::Kind::SeveralGpusFaster))
        a.kind = DeviceAdvice::Kind::SeveralGpusFaster;
    else
        return std::nullopt;
    const auto ranks = positive(j, "ranks_steps_per_s");
    const auto one = positive(j, "one_gpu_steps_per_s");
    const auto processes = j.find("processes");
    const auto gpu = j.find("gpu");
    if (!ranks || !one || processes == j.end() || !processes->is_number_integer() || processes->get<int>() < 2 ||
        gpu == j.end() || !gpu->is_number_integer() || gpu->get<int>() < 0)
        return std::nullopt;
    a.ranksStepsPerS = *ranks;
    a.oneGpuStepsPerS = *one;
    a.processes = processes->get<int>();
    a.gpu = gpu->get<int>();
    if (a.kind == DeviceAdvice::Kind::FewerGpusFaster) {
        const auto device = oneGpuDevice(j);
        if (!device)
            return std::nullopt;
        a.suggestedDevice = *device;
    }
    const auto message = j.find("message");
    if (message != j.end() && message->is_string())
        a.message = message->get<std::string>();
    return a;
}

nlohmann::json toJson(const DeviceAdvice& a)
{
    nlohmann::json j = {{"kind", deviceAdviceKindName(a.kind)},
                        {"processes", a.processes},
                        {"ranks_steps_per_s", a.ranksStepsPerS},
                        {"one_gpu_steps_per_s", a.oneGpuStepsPerS},
                        {"gpu", a.gpu},
                        {"message", a.message}};
    if (!a.suggestedDevice.empty())
        j["suggested_device"] = a.suggestedDevice;
    return j;
}

RunObserver::RunObserver(TrainingMetadata* metadata, const TrainingProgressCallback& progress, int epochs,
                         CancelToken cancel)
    : m_metadata(metadata)
    , m_progress(progress)
    , m_cancel(std::move(cancel))
    , m_epochs(epochs)
    , m_start(std::chrono::steady_clock::now())
{
}

int RunObserver::onEvent(void* self, const char* json) noexcept
{
    auto* observer = static_cast<RunObserver*>(self);
    try {
        observer->handle(json);
        return 0;
    } catch (...) {
        observer->m_failure = std::current_exception();
        return 1;
    }
}

void RunObserver::rethrowFailure()
{
    if (m_failure)
        std::rethrow_exception(std::exchange(m_failure, nullptr));
}

int RunObserver::stopRequested(void* self) noexcept
{
    return static_cast<RunObserver*>(self)->m_cancel.isCancelled() ? 1 : 0;
}

void RunObserver::handle(const std::string& text)
{
    TrainingProgress p;
    p.raw = nlohmann::json::parse(text);
    const std::string kind = p.raw.value("event", "");
    p.epochs = m_epochs;
    p.elapsedS = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    if (kind == "started") {
        started(p);
    } else if (kind == "note") {
        note(p);
    } else if (kind == "step") {
        step(p);
    } else if (kind == "epoch") {
        epoch(p);
    } else if (kind == "finished") {
        finished(p);
    } else {
        return;
    }
    if (m_progress)
        m_progress(p);
}

// A note is a sentence; the one comparing the ranks with one GPU also carries its figures (DeviceAdvice).
void RunObserver::note(TrainingProgress& p)
{
    p.kind = TrainingProgress::Kind::Note;
    p.message = p.raw.value("message", "");
    p.deviceAdvice = deviceAdviceFromJson(p.raw);
    m_result.notes.push_back(p.message);
    if (p.deviceAdvice)
        m_result.deviceAdvice = p.deviceAdvice;
    if (m_metadata) {
        m_metadata->note(p.message);
        if (p.deviceAdvice)
            m_metadata->deviceAdvice(*p.deviceAdvice);
    }
}

void RunObserver::started(TrainingProgress& p)
{
    const auto& e = p.raw;
    p.kind = TrainingProgress::Kind::Started;
    m_firstEpoch = p.firstEpoch = e.value("first_epoch", 1);
    m_stepsPerEpoch = p.stepsPerEpoch = e.value("steps_per_epoch", int64_t {0});
    if (m_metadata)
        m_metadata->started(e);
    std::string devices;
    for (const auto& d : e.value("devices", nlohmann::json::array()))
        devices += (devices.empty() ? "" : ", ") + d.get<std::string>();
    const int world = e.value("world_size", 1);
    if (world > 1) // rank 0's device; the others are named by --device (one process each)
        devices += " (rank 0 of " + std::to_string(world) + " processes, " + e.value("dist_backend", "") + ")";
    p.message = devices;
}

void RunObserver::step(TrainingProgress& p) const
{
    const auto& e = p.raw;
    p.kind = TrainingProgress::Kind::Step;
    p.epoch = e.value("epoch", 0);
    p.step = e.value("step", int64_t {0});
    p.stepsPerEpoch = e.value("steps_per_epoch", int64_t {0});
    p.loss = e.value("loss", 0.0);
    p.samplesPerS = e.value("samples_per_s", 0.0);
    p.allocatedBytes = e.value("allocated_bytes", -1.0);
    p.reservedBytes = e.value("reserved_bytes", -1.0);
    p.deviceUsedBytes = e.value("device_used_bytes", -1.0);
    p.deviceTotalBytes = e.value("device_total_bytes", -1.0);
    p.device = e.value("device", -1);
    for (const auto& r : e.value("ranks", nlohmann::json::array()))
        p.ranks.push_back({r.value("rank", 0), r.value("device", -1), r.value("device_used_bytes", -1.0),
                           r.value("allocated_bytes", -1.0), r.value("reserved_bytes", -1.0)});
    const int64_t done = (p.epoch - m_firstEpoch) * m_stepsPerEpoch + p.step;
    const int64_t total = (m_epochs - m_firstEpoch + 1) * m_stepsPerEpoch;
    if (done > 0 && total > done)
        p.etaS = p.elapsedS * static_cast<double>(total - done) / static_cast<double>(done);
    else if (total == done)
        p.etaS = 0;
}

void RunObserver::epoch(TrainingProgress& p)
{
    const auto& e = p.raw;
    p.kind = TrainingProgress::Kind::Epoch;
    EpochMetrics m;
    m.epoch = p.epoch = e.value("epoch", 0);
    m.trainLoss = p.loss = e.value("train_loss", 0.0);
    m.valLoss = p.valLoss = e.value("val_loss", 0.0);
    m.samplesPerS = p.samplesPerS = e.value("samples_per_s", 0.0);
    m.seconds = p.seconds = e.value("seconds", 0.0);
    p.bestEpoch = e.value("best_epoch", 0);
    p.improved = e.value("improved", false);
    m_result.epochs.push_back(m);
    if (m_metadata)
        m_metadata->epochDone(e); // writes model_metadata.json
}

void RunObserver::finished(TrainingProgress& p)
{
    const auto& e = p.raw;
    p.kind = TrainingProgress::Kind::Finished;
    m_result.status = trainingStatusFromName(e.value("status", "finished"));
    m_result.bestEpoch = p.bestEpoch = e.value("best_epoch", 0);
    m_result.bestValLoss = e.value("best_val_loss", 0.0);
    m_result.stepsPerS = e.value("steps_per_s", 0.0);
    m_result.execution = p.execution = e.value("execution", "");
    if (m_metadata)
        m_metadata->finished(e);
}

} // namespace stackscope::training
