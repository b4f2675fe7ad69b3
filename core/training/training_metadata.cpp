// model_metadata.json: built at the start of a run, updated by the trainer's events, written atomically.
#include "core/training/training_metadata.h"

#include "core/training/training_run.h"
#include "core/util/atomic_file.h"
#include "core/util/build_info.h"
#include "core/util/file_read.h"

#include <fmt/format.h>

#include <filesystem>

namespace stackscope::training {

namespace {

std::string pythonSnippet(const TrainingConfig& c, int64_t inputs)
{
    std::string layers;
    int64_t previous = inputs;
    for (int h : c.hidden) {
        layers += fmt::format("nn.Linear({}, {}), nn.LayerNorm({}), nn.SiLU(), ", previous, h, h);
        if (c.dropout > 0)
            layers += fmt::format("nn.Dropout({}), ", c.dropout);
        previous = h;
    }
    layers += fmt::format("nn.Linear({}, 1)", previous);
    return "import torch, torch.nn as nn; model = nn.Sequential(" + layers +
           "); model.load_state_dict(torch.load('model.pt'))";
}

} // namespace

TrainingMetadata::TrainingMetadata(std::string path, const TrainingConfig& config, const Dataset& data,
                                   const Normalisation& norm, int64_t trainRows, const nlohmann::json& torchFacts)
    : m_path(std::move(path))
{
    nlohmann::json features = nlohmann::json::array();
    for (size_t i = 0; i < data.names.size(); ++i)
        features.push_back({{"name", data.names[i]}, {"mean", norm.mean[i]}, {"std", norm.std[i]}});
    nlohmann::json versions = {{"stackscope", stackscopeVersion()}};
    if (torchFacts.is_object()) {
        if (torchFacts.contains("version"))
            versions["libtorch"] = torchFacts["version"];
        const std::string backend = torchFacts.value("backend", "");
        if (torchFacts.contains("built_with") && (backend == "cuda" || backend == "rocm"))
            versions[backend == "cuda" ? "cuda" : "hip"] = torchFacts["built_with"];
    }
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(config.input, ec);
    int64_t parameters = 0;
    int64_t previous = data.cols;
    for (int h : config.hidden) {
        parameters += previous * h + h + 2 * h; // Linear + LayerNorm
        previous = h;
    }
    parameters += previous + 1;
    m_json = {{"schema", kTrainingSchema},
              {"status", trainingStatusName(TrainingStatus::Running)},
              {"config", toJson(config)},
              {"features", features},
              {"target",
               {{"name", data.targetName},
                {"horizon", config.horizon},
                {"unit", "ticks"},
                {"mean", norm.targetMean},
                {"std", norm.targetStd}}},
              {"normalisation",
               "inputs are (x - mean) / std per feature with the training part's statistics; the model's output is "
               "the normalised target: ticks = output * target.std + target.mean"},
              {"model",
               {{"layers", "Linear -> LayerNorm -> SiLU" + std::string(config.dropout > 0 ? " -> Dropout" : "") +
                               " per hidden layer, then Linear to 1"},
                {"inputs", data.cols},
                {"parameters", parameters},
                {"python", pythonSnippet(config, data.cols)}}},
              {"data",
               {{"file", ec ? config.input : absolute.string()},
                {"sha256", data.inputSha256},
                {"rows", data.rows},
                {"train_rows", trainRows},
                {"val_rows", data.rows - trainRows},
                {"split", "by time: the first rows train, the last validate, never shuffled across"},
                {"bars", data.barsRead},
                {"bars_outside_sessions", data.barsOutsideSessions},
                {"sessions", data.sessions},
                {"rows_without_history", data.rowsWithoutHistory},
                {"rows_without_target", data.rowsWithoutTarget}}},
              {"versions", versions},
              {"devices", nlohmann::json::array()},
              {"notes", config.notes},
              {"epochs", nlohmann::json::array()},
              {"best_epoch", 0},
              {"best_val_loss", nullptr}};
}

void TrainingMetadata::continueFrom(const nlohmann::json& saved)
{
    if (saved.contains("epochs") && saved["epochs"].is_array())
        m_json["epochs"] = saved["epochs"];
}

void TrainingMetadata::started(const nlohmann::json& e)
{
    m_json["devices"] = e.value("devices", nlohmann::json::array());
    m_json["parameters"] = e.value("parameters", 0);
    m_json["world_size"] = e.value("world_size", 1); // processes (ranks); devices names rank 0's
    m_json["dist_backend"] = e.value("dist_backend", "none");
    // A resumed run drops the epochs after the checkpoint (an epoch stopped part way is done again).
    const int first = e.value("first_epoch", 1);
    nlohmann::json kept = nlohmann::json::array();
    for (const auto& ep : m_json["epochs"]) {
        if (ep.value("epoch", 0) < first)
            kept.push_back(ep);
    }
    m_json["epochs"] = kept;
    write();
}

void TrainingMetadata::note(const std::string& message)
{
    m_json["notes"].push_back(message);
}

void TrainingMetadata::deviceAdvice(const DeviceAdvice& advice)
{
    m_json["device_advice"] = toJson(advice);
}

void TrainingMetadata::epochDone(const nlohmann::json& e)
{
    m_json["epochs"].push_back({{"epoch", e.value("epoch", 0)},
                                {"train_loss", e.value("train_loss", 0.0)},
                                {"val_loss", e.value("val_loss", 0.0)},
                                {"samples_per_s", e.value("samples_per_s", 0.0)},
                                {"seconds", e.value("seconds", 0.0)},
                                {"checkpoint_sha256", e.value("checkpoint_sha256", "")}});
    m_json["best_epoch"] = e.value("best_epoch", 0);
    m_json["best_val_loss"] = e.value("best_val_loss", 0.0);
    write();
}

void TrainingMetadata::finished(const nlohmann::json& e)
{
    // Checked: only a status a run ends with is written (RunObserver::finished has already refused any other).
    m_json["status"] = trainingStatusName(trainingStatusFromName(e.value("status", "finished")));
    m_json["execution"] = e.value("execution", "");
    m_json["steps_per_s"] = e.value("steps_per_s", 0.0);
    if (e.value("best_epoch", 0) > 0) {
        m_json["best_epoch"] = e["best_epoch"];
        m_json["best_val_loss"] = e["best_val_loss"];
    }
    write();
}

void TrainingMetadata::failed(const std::string& message)
{
    m_json["status"] = trainingStatusName(TrainingStatus::Failed);
    m_json["error"] = message;
    if (std::filesystem::exists(std::filesystem::path(m_path).parent_path()))
        write();
}

void TrainingMetadata::write() const
{
    writeFileAtomically(m_path, m_json.dump(2) + "\n");
}

nlohmann::json readMetadata(const std::string& path)
{
    std::string why;
    const auto text = readRegularFile(path, kWrittenFileCap, &why);
    if (!text)
        throw ConfigError(fmt::format("--resume: cannot read {} ({}); resume a folder that a training run wrote, or "
                                      "start a new run without --resume",
                                      path, why));
    nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || j.value("schema", "") != kTrainingSchema)
        throw ConfigError(fmt::format("--resume: {} is not a StackScope training record ({}); start a new run",
                                      path, kTrainingSchema));
    return j;
}

namespace {

// A number of the record, or `fallback` where it is missing or not a number.
template <typename T>
T numberOr(const nlohmann::json& o, const char* key, T fallback)
{
    const auto it = o.find(key);
    return it != o.end() && it->is_number() ? it->get<T>() : fallback;
}

} // namespace

RecordedTrainingRun recordedTrainingRun(const nlohmann::json& metadata)
{
    RecordedTrainingRun r;
    if (!metadata.is_object())
        return r;
    if (const auto epochs = metadata.find("epochs"); epochs != metadata.end() && epochs->is_array()) {
        for (const auto& e : *epochs) {
            if (!e.is_object())
                continue;
            r.epochs.push_back({numberOr(e, "epoch", 0), numberOr(e, "train_loss", 0.0), numberOr(e, "val_loss", 0.0),
                                numberOr(e, "samples_per_s", 0.0), numberOr(e, "seconds", 0.0)});
        }
    }
    if (const auto best = metadata.find("best_epoch"); best != metadata.end() && best->is_number_integer())
        r.bestEpoch = best->get<int>();
    if (const auto status = metadata.find("status"); status != metadata.end() && status->is_string())
        r.status = status->get<std::string>();
    if (const auto devices = metadata.find("devices"); devices != metadata.end() && devices->is_array()) {
        for (const auto& d : *devices)
            r.devices.push_back(d.is_string() ? d.get<std::string>() : d.dump());
    }
    if (const auto advice = metadata.find("device_advice"); advice != metadata.end())
        r.deviceAdvice = deviceAdviceFromJson(*advice);
    if (const auto config = metadata.find("config"); config != metadata.end()) {
        try {
            r.config = configFromJson(*config);
        } catch (const ConfigError&) {
            // An older record's configuration: the epochs still show, the options stay unknown.
        } catch (const nlohmann::json::exception&) {
            // Not an object at all: the same.
        }
    }
    return r;
}

} // namespace stackscope::training
