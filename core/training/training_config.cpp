// Training options: parsing the device and layer lists, validation with messages that say what to write.
#include "core/training/training_config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace stackscope::training {

namespace {

// A whole number from 0 to 2^20 in a comma list; `example` is what the person could write instead of `whole`.
int parseCount(const std::string& item, const char* option, const std::string& whole, const char* what,
               const char* example)
{
    char* end = nullptr;
    errno = 0;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || errno != 0 || v < 0 || v > 1 << 20)
        throw ConfigError(fmt::format("{} '{}': '{}' is not {}; {}", option, whole, item, what, example));
    return static_cast<int>(v);
}

std::vector<std::string> splitCommas(const std::string& text)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
        const size_t comma = text.find(',', start);
        out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return out;
}

} // namespace

std::string ConfigError::option() const
{
    const std::string text = what();
    if (text.rfind("--", 0) != 0)
        return {};
    const size_t end = text.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_", 2);
    return text.substr(0, end);
}

const char* distBackendName(DistBackend backend)
{
    for (const auto& [b, name] : kDistBackends) {
        if (b == backend)
            return name;
    }
    return "auto";
}

DistBackend parseDistBackend(const std::string& text, const char* option)
{
    std::string choices;
    for (const auto& [b, name] : kDistBackends) {
        if (text == name)
            return b;
        choices += (choices.empty() ? "" : ", ") + std::string(name);
    }
    throw ConfigError(fmt::format("{} '{}': use {}", option, text, choices));
}

std::string DeviceSelection::toString() const
{
    switch (kind) {
    case Kind::Auto: return "auto";
    case Kind::Cpu: return "cpu";
    case Kind::Gpus: break;
    }
    return fmt::format("gpu:{}", fmt::join(gpus, ","));
}

DeviceSelection parseDevices(const std::string& text, const char* option)
{
    if (text == "auto")
        return {};
    if (text == "cpu")
        return DeviceSelection::cpu();
    if (text.rfind("gpu:", 0) != 0 && text.rfind("cuda:", 0) != 0)
        throw ConfigError(fmt::format("{} '{}': use cpu, gpu:N or gpu:N,M (for example gpu:0, or gpu:0,1 for "
                                      "data parallel on two GPUs)",
                                      option, text));
    std::vector<int> gpus;
    for (const auto& item : splitCommas(text.substr(text.find(':') + 1))) {
        const int index = parseCount(item, option, text, "a GPU index",
                                     "write gpu: and GPU indices separated by commas, for example gpu:0 or gpu:0,1");
        if (std::find(gpus.begin(), gpus.end(), index) != gpus.end())
            throw ConfigError(fmt::format("{} '{}': GPU {} is named twice; name each GPU once", option, text, index));
        gpus.push_back(index);
    }
    return DeviceSelection::onGpus(std::move(gpus));
}

std::vector<int> parseLayerList(const std::string& text, const char* option)
{
    std::vector<int> out;
    for (const auto& item : splitCommas(text)) {
        const int v = parseCount(item, option, text, "a whole number",
                                 "write numbers separated by commas, for example 32,16");
        if (v == 0)
            throw ConfigError(fmt::format("{} '{}': a hidden layer of 0 units cannot learn; give every layer at least 1 "
                                          "unit (the default is 32,16)",
                                          option, text));
        out.push_back(v);
    }
    return out;
}

void validate(const TrainingConfig& c)
{
    if (c.input.empty())
        throw ConfigError("--input: name the market data CSV to train on (stackscope-cli sample-data --out FILE makes one)");
    if (c.output.empty())
        throw ConfigError("--output: name a folder for model.pt and model_metadata.json");
    if (c.hidden.empty())
        throw ConfigError("--hidden: give at least one hidden layer, for example 32,16");
    for (int h : c.hidden) {
        if (h <= 0)
            throw ConfigError(fmt::format("--hidden: a hidden layer of {} units cannot learn; use at least 1", h));
    }
    if (c.horizon < 1 || c.horizon > 10000)
        throw ConfigError(fmt::format("--horizon {}: give the forward return's bars, 1 to 10000", c.horizon));
    for (int h : c.returnHorizons) {
        if (h < 1 || h > 10000)
            throw ConfigError(fmt::format("--returns: {} is not a number of bars from 1 to 10000", h));
    }
    if (c.volumeWindow < 2 || c.volumeWindow > 100000)
        throw ConfigError(fmt::format("--volume-window {}: use 2 to 100000 bars", c.volumeWindow));
    if (!(c.validationFraction > 0.0 && c.validationFraction < 0.9))
        throw ConfigError(fmt::format("--val-fraction {}: use a fraction above 0 and below 0.9, for example 0.2",
                                      c.validationFraction));
    if (!(c.dropout >= 0.0 && c.dropout < 1.0))
        throw ConfigError(fmt::format("--dropout {}: use 0 (none) up to but not including 1", c.dropout));
    if (!(c.learningRate > 0.0 && c.learningRate < 10.0) || !std::isfinite(c.learningRate))
        throw ConfigError(fmt::format("--lr {}: use a positive learning rate such as 0.001", c.learningRate));
    if (c.epochs < 1 || c.epochs > 100000)
        throw ConfigError(fmt::format("--epochs {}: use 1 to 100000", c.epochs));
    if (c.batchSize < 1 || c.batchSize > (1 << 24))
        throw ConfigError(fmt::format("--batch-size {}: use 1 to 16777216", c.batchSize));
    if (!(c.clipNorm >= 0.0) || !std::isfinite(c.clipNorm))
        throw ConfigError(fmt::format("--clip {}: use 0 (off) or a positive gradient norm such as 1", c.clipNorm));
    if (c.patience < 0)
        throw ConfigError(fmt::format("--patience {}: use 0 (off) or a number of epochs", c.patience));
    if (c.precision != "fp32" && c.precision != "bf16")
        throw ConfigError(fmt::format("--precision '{}': use fp32 or bf16", c.precision));
    if (c.stepInterval < 1)
        throw ConfigError(fmt::format("--step-interval {}: use 1 or more steps", c.stepInterval));
    if (c.processes < 0 || c.processes > 1024)
        throw ConfigError(fmt::format("--nproc {}: use 1 to 1024 processes (0: one per GPU of --device)", c.processes));
    if (!(c.distTimeoutS >= 1.0 && c.distTimeoutS <= 86400.0))
        throw ConfigError(fmt::format("--dist-timeout {}: use 1 to 86400 seconds", c.distTimeoutS));
    if (!(c.distBucketMb > 0 && c.distBucketMb <= 4096))
        throw ConfigError(fmt::format("--dist-bucket-mb {}: use more than 0 and at most 4096 MB", c.distBucketMb));
    if (c.processes > 1 && c.device.gpus.size() > 1 && c.device.gpus.size() != static_cast<size_t>(c.processes))
        throw ConfigError(fmt::format("--nproc {} with --device {}: name one GPU per process, or one GPU for all "
                                      "(or leave --nproc out: one process per GPU)",
                                      c.processes, c.device.toString()));
}

nlohmann::json moduleConfigJson(const TrainingConfig& c, const std::vector<int>& gpus)
{
    return {{"hidden", c.hidden},         {"dropout", c.dropout},     {"learning_rate", c.learningRate},
            {"epochs", c.epochs},         {"batch_size", c.batchSize}, {"seed", c.seed},
            {"clip_norm", c.clipNorm},    {"patience", c.patience},   {"gpus", gpus},
            {"precision", c.precision},   {"cuda_graphs", c.cudaGraphs}, {"step_interval", c.stepInterval},
            {"fused_step", c.fusedStep}};
}

nlohmann::json toJson(const TrainingConfig& c)
{
    return {{"input", c.input},
            {"output", c.output},
            {"horizon", c.horizon},
            {"return_horizons", c.returnHorizons},
            {"volume_window", c.volumeWindow},
            {"session", c.session},
            {"time_zone", c.timeZone},
            {"tick", c.tick},
            {"validation_fraction", c.validationFraction},
            {"hidden", c.hidden},
            {"dropout", c.dropout},
            {"learning_rate", c.learningRate},
            {"epochs", c.epochs},
            {"batch_size", c.batchSize},
            {"seed", c.seed},
            {"clip_norm", c.clipNorm},
            {"patience", c.patience},
            {"device", c.device.toString()},
            {"precision", c.precision},
            {"cuda_graphs", c.cudaGraphs},
            {"fused_step", c.fusedStep},
            {"step_interval", c.stepInterval},
            {"device_fallback", c.deviceFallback},
            {"processes", c.processes},
            {"dist_backend", distBackendName(c.distBackend)},
            {"dist_timeout_s", c.distTimeoutS},
            {"dist_bucket_mb", c.distBucketMb},
            {"notes", c.notes}};
}

TrainingConfig configFromJson(const nlohmann::json& j)
{
    TrainingConfig c;
    try {
        j.at("input").get_to(c.input);
        j.at("output").get_to(c.output);
        j.at("horizon").get_to(c.horizon);
        j.at("return_horizons").get_to(c.returnHorizons);
        j.at("volume_window").get_to(c.volumeWindow);
        j.at("session").get_to(c.session);
        j.at("time_zone").get_to(c.timeZone);
        j.at("tick").get_to(c.tick);
        j.at("validation_fraction").get_to(c.validationFraction);
        j.at("hidden").get_to(c.hidden);
        j.at("dropout").get_to(c.dropout);
        j.at("learning_rate").get_to(c.learningRate);
        j.at("epochs").get_to(c.epochs);
        j.at("batch_size").get_to(c.batchSize);
        j.at("seed").get_to(c.seed);
        j.at("clip_norm").get_to(c.clipNorm);
        j.at("patience").get_to(c.patience);
        c.device = parseDevices(j.at("device").get<std::string>(), "device");
        j.at("precision").get_to(c.precision);
        j.at("cuda_graphs").get_to(c.cudaGraphs);
        j.at("step_interval").get_to(c.stepInterval);
        c.deviceFallback = j.value("device_fallback", false);
        c.resume = j.value("resume", false);
        c.processes = j.value("processes", 0);
        c.distBackend = parseDistBackend(j.value("dist_backend", std::string("auto")), "dist_backend");
        c.distTimeoutS = j.value("dist_timeout_s", 300.0);
        c.distBucketMb = j.value("dist_bucket_mb", 4.0);
        c.notes = j.value("notes", std::vector<std::string> {});
    } catch (const nlohmann::json::exception& e) {
        throw ConfigError(fmt::format("the rank's configuration is incomplete ({}); start ranks with the same "
                                      "StackScope version as the launcher",
                                      e.what()));
    }
    return c;
}

std::string resumeMismatch(const nlohmann::json& saved, const TrainingConfig& config)
{
    const nlohmann::json now = toJson(config);
    for (const char* key : {"input", "horizon", "return_horizons", "volume_window", "session", "time_zone", "tick",
                            "validation_fraction", "hidden", "dropout", "learning_rate", "batch_size", "seed",
                            "clip_norm", "precision"}) {
        const auto it = saved.find(key);
        if (it == saved.end())
            return fmt::format("{}: missing in the saved configuration -> {}", key, now[key].dump());
        if (*it != now[key])
            return fmt::format("{}: {} -> {}", key, it->dump(), now[key].dump());
    }
    return {};
}

} // namespace stackscope::training
