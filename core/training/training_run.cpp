// A training run: validates, builds and normalises the features, drives the torch module's trainer and
// keeps model_metadata.json current after every epoch.
#include "core/training/training_run.h"

#include "core/runtime/dynamic_library.h"
#include "core/inspect/runtime_sources.h"
#include "core/runtime/torch_module.h"
#include "core/runtime/trainer_api.h"
#include "core/training/training_events.h"
#include "core/training/training_launch.h"
#include "core/training/output_lock.h"
#include "core/training/training_memory.h"
#include "core/training/training_metadata.h"
#include "core/util/atomic_file.h"
#include "core/util/build_info.h"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <unistd.h>

namespace stackscope::training {

struct TrainerModule {
    DynamicLibrary lib;
    decltype(&stackscope_torch_train) train = nullptr;
    decltype(&stackscope_torch_predict) predict = nullptr;
    decltype(&stackscope_torch_save_dataset) saveDataset = nullptr;
    decltype(&stackscope_torch_info_json) info = nullptr;
    decltype(&stackscope_torch_free) release = nullptr;
    std::string failure;
};

const TrainerModule& trainerModule()
{
    static const TrainerModule module = [] {
        TrainerModule m;
        m.lib = openTorchModule("stackscope_torch_train_abi", STACKSCOPE_TORCH_TRAIN_ABI, "the trainer", m.failure);
        if (!m.failure.empty())
            return m;
        m.train = m.lib.symbol<decltype(&stackscope_torch_train)>("stackscope_torch_train");
        m.predict = m.lib.symbol<decltype(&stackscope_torch_predict)>("stackscope_torch_predict");
        m.saveDataset = m.lib.symbol<decltype(&stackscope_torch_save_dataset)>("stackscope_torch_save_dataset");
        m.info = m.lib.symbol<decltype(&stackscope_torch_info_json)>("stackscope_torch_info_json");
        m.release = m.lib.symbol<decltype(&stackscope_torch_free)>("stackscope_torch_free");
        return m;
    }();
    if (!module.failure.empty())
        throw std::runtime_error(module.failure);
    return module;
}

namespace {

nlohmann::json torchFacts(const TrainerModule& m)
{
    if (!m.info || !m.release)
        return nlohmann::json::object();
    char* text = m.info();
    const std::string body = text ? text : "{}";
    m.release(text);
    return nlohmann::json::parse(body, nullptr, false);
}

// Rows before the validation part; both parts must hold rows.
int64_t checkedTrainingRows(const TrainingConfig& config, const Dataset& data)
{
    const int64_t train = trainingRows(data.rows, config.validationFraction);
    if (train < 1 || data.rows - train < 1)
        throw ConfigError(fmt::format("{}: only {} rows of features ({} bars in {} sessions); training needs rows in "
                                      "both the training and the validation part: give more data (days) or a "
                                      "smaller --horizon",
                                      config.input, data.rows, data.barsRead, data.sessions));
    return train;
}

// Creates the output folder; true when this run created it. An --output that is a file, under /proc or /sys,
// or not writable is bad input (ConfigError, exit 2) with what to do.
void checkOutputPath(const std::string& output)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto st = fs::status(output, ec);
    if (fs::exists(st) && !fs::is_directory(st))
        throw ConfigError(fmt::format("--output {} is a file, not a folder; give a folder for model.pt, checkpoint.pt "
                                      "and model_metadata.json (it is created when missing)", output));
    const std::string absolute = fs::absolute(output, ec).lexically_normal().string();
    for (const char* pseudo : {"/proc", "/sys", "/dev"})
        if (absolute == pseudo || absolute.rfind(std::string(pseudo) + "/", 0) == 0)
            throw ConfigError(fmt::format("--output {} is under {}, which holds no files a run can keep; give a folder "
                                          "on a disk, such as ./runs/es-mlp", output, pseudo));
}

bool prepareOutputFolder(const std::string& output)
{
    namespace fs = std::filesystem;
    checkOutputPath(output);
    std::error_code ec;
    const bool created = !fs::exists(output, ec);
    fs::create_directories(output, ec);
    if (ec)
        throw ConfigError(fmt::format("--output {}: cannot create the folder ({}); choose a folder you can write to",
                                      output, ec.message()));
    if (::access(output.c_str(), W_OK | X_OK) != 0)
        throw ConfigError(fmt::format("--output {}: the folder is not writable ({}); choose a folder you can write to "
                                      "or fix its permissions", output, std::strerror(errno)));
    return created;
}

void progressNote(const TrainingProgressCallback& progress, const std::string& message)
{
    if (!progress)
        return;
    TrainingProgress p;
    p.kind = TrainingProgress::Kind::Note;
    p.message = message;
    progress(p);
}

} // namespace

Dataset datasetFor(const TrainingConfig& config, int64_t* trainRows)
{
    Dataset data = buildDataset(config);
    const int64_t train = checkedTrainingRows(config, data);
    normalise(data, fitNormalisation(data, train));
    if (trainRows)
        *trainRows = train;
    return data;
}

std::shared_ptr<const TrainingResult> runTraining(const TrainingConfig& config, const TrainingProgressCallback& progress,
                                                  const CancelToken& cancel)
{
    validate(config);
    // Several processes (--device gpu:0,1, --nproc N) unless a launcher already made this process one of them.
    if (!rankEnvironment() && processesFor(config) > 1)
        return launchRanks(config, progress, cancel);
    return trainOnDataset(config, buildDataset(config, cancel), progress, cancel);
}

namespace {

// Runs the module's trainer; returns its code with `message` for a person. When the host's own event handling
// failed (STACKSCOPE_TORCH_TRAIN_HOST_FAILED), the observer's kept exception decides, as if the module had returned
// it: a file that could not be written (a full disk under model_metadata.json) is 2, anything else -1.
int callTrainer(const TrainerModule& module, const nlohmann::json& moduleConfig, const StackscopeTrainData& data,
                const TrainingConfig& config, RunObserver& observer, std::string& message)
{
    char error[2048] = {0};
    const int rc = module.train(moduleConfig.dump().c_str(), &data, config.output.c_str(), config.resume ? 1 : 0,
                                &RunObserver::onEvent, &RunObserver::stopRequested, &observer, error, sizeof error);
    message = error;
    if (rc != STACKSCOPE_TORCH_TRAIN_HOST_FAILED)
        return rc;
    try {
        observer.rethrowFailure();
    } catch (const FileWriteError& e) {
        message = e.what();
        return 2;
    } catch (const std::exception& e) {
        message = e.what();
    }
    return -1;
}

// A rank other than 0 trains its shard and leaves the output folder, the lock, the metadata and the events to
// rank 0 (it may be on another node, without that folder).
std::shared_ptr<const TrainingResult> trainAsOtherRank(const TrainingConfig& config, Dataset raw,
                                                       const RankEnvironment& env, const CancelToken& cancel)
{
    const int64_t trainRows = checkedTrainingRows(config, raw);
    normalise(raw, fitNormalisation(raw, trainRows));
    checkTrainingMemory(config, raw.cols);
    const auto& module = trainerModule();
    bool fallback = false;
    nlohmann::json moduleConfig = moduleConfigJson(config, rankDevices(config, env, fallback));
    moduleConfig["fallback_to_cpu"] = fallback;
    moduleConfig["dist"] = distJson(config, env, agreementJson(config, raw, trainRows));
    RunObserver observer(nullptr, {}, config.epochs, cancel);
    StackscopeTrainData data {raw.x.data(), raw.y.data(), raw.rows, raw.cols, trainRows};
    std::string message;
    const int rc = callTrainer(module, moduleConfig, data, config, observer, message);
    if (rc == 2)
        throw ConfigError(message);
    if (rc != 0)
        throw std::runtime_error(message);
    auto result = std::make_shared<TrainingResult>(std::move(observer.result()));
    result->outputDir = config.output;
    return result;
}

} // namespace

namespace {

// --resume: the folder's metadata, after checking that it has a checkpoint and was started with the same options.
nlohmann::json resumedMetadata(const TrainingConfig& config, const std::string& metadataPath)
{
    nlohmann::json saved = readMetadata(metadataPath);
    if (!std::filesystem::exists(config.output + "/checkpoint.pt"))
        throw ConfigError(fmt::format("--resume: {} has no checkpoint.pt; start a new run without --resume",
                                      config.output));
    if (const auto diff = resumeMismatch(saved.value("config", nlohmann::json::object()), config); !diff.empty())
        throw ConfigError(fmt::format("--resume: the run in {} was started with other options ({}); use the same "
                                      "options, or a new --output folder",
                                      config.output, diff));
    return saved;
}

// The output folder for a run: created if needed, locked, an earlier run's model files removed unless --resume.
// On failure, cleanUp() leaves no half set: a first run's folder goes, and a fresh run's metadata goes unless an
// epoch finished (then model.pt, checkpoint.pt and model_metadata.json agree).
class RunFolder {
public:
    RunFolder(const TrainingConfig& config, const TrainingProgressCallback& progress)
        : m_config(config)
        , m_created(prepareOutputFolder(config.output))
        , m_lock(config.output)
    {
        if (!m_lock.staleOwner().empty())
            progressNote(progress, fmt::format("{} held a lock of a run that is gone ({}); took it over", config.output,
                                               m_lock.staleOwner()));
        if (config.resume)
            return;
        for (const char* name : {"/model.pt", "/checkpoint.pt"}) { // never beside the new run's metadata
            std::error_code ec;
            if (std::filesystem::remove(config.output + name, ec))
                progressNote(progress, fmt::format("removed {}{} of an earlier run (not --resume)", config.output, name));
        }
    }
    void cleanUp()
    {
        namespace fs = std::filesystem;
        m_lock.release();
        std::error_code ignored;
        if (!m_config.resume && !fs::exists(m_config.output + "/checkpoint.pt", ignored))
            fs::remove(m_config.output + "/model_metadata.json", ignored);
        if (m_created)
            fs::remove(m_config.output, ignored); // only if empty
    }

private:
    const TrainingConfig& m_config;
    bool m_created;
    OutputLock m_lock;
};

// The module's failure code as the exception the caller gets, recorded in the metadata where there is room.
[[noreturn]] void reportFailure(int rc, const std::string& error, const TrainingConfig& config,
                                TrainingMetadata& metadata, RunFolder& folder, const TrainingProgressCallback& progress)
{
    if (rc == 2) { // a configuration the device cannot run, or an output that cannot be written (full disk)
        std::error_code ignored;
        if (std::filesystem::exists(config.output + "/checkpoint.pt", ignored)) {
            try { // the set on disk stays whole; its record says why the run stopped, if there is room
                metadata.failed(error);
            } catch (const FileWriteError&) {
                // The record keeps the state of the last finished epoch, which matches the files.
                progressNote(progress, "the failure could not be recorded in model_metadata.json (no room)");
            }
        }
        folder.cleanUp();
        throw ConfigError(error);
    }
    try {
        metadata.failed(error);
    } catch (const FileWriteError& e) {
        folder.cleanUp();
        throw std::runtime_error(fmt::format("{} (and the failure could not be recorded: {})", error, e.what()));
    }
    throw std::runtime_error(error);
}

} // namespace

std::shared_ptr<const TrainingResult> trainOnDataset(const TrainingConfig& config, Dataset raw,
                                                     const TrainingProgressCallback& progress,
                                                     const CancelToken& cancel)
{
    validate(config);
    const auto rankEnv = rankEnvironment();
    if (rankEnv)
        checkWorldFits(config, *rankEnv);
    if (rankEnv && rankEnv->rank != 0)
        return trainAsOtherRank(config, std::move(raw), *rankEnv, cancel);
    std::vector<int> gpus {0};
    bool fallback = true;
    if (rankEnv) {
        gpus = rankDevices(config, *rankEnv, fallback);
    } else if (!config.device.isAuto()) {
        gpus = config.device.gpus;
        fallback = config.deviceFallback;
    }
    const std::string metadataPath = config.output + "/model_metadata.json";
    const nlohmann::json saved = config.resume ? resumedMetadata(config, metadataPath) : nlohmann::json();
    const int64_t trainRows = checkedTrainingRows(config, raw);
    if (config.batchSize > trainRows)
        throw ConfigError(fmt::format("--batch-size {} is larger than the {} training rows of {}; use a batch of at "
                                      "most {} or give more data",
                                      config.batchSize, trainRows, config.input, trainRows));
    const Normalisation norm = fitNormalisation(raw, trainRows);
    normalise(raw, norm);
    checkTrainingMemory(config, raw.cols); // before libtorch allocates anything
    checkOutputPath(config.output);

    const auto& module = trainerModule();
    RunFolder folder(config, progress);
    TrainingMetadata metadata(metadataPath, config, raw, norm, trainRows, torchFacts(module));
    if (config.resume)
        metadata.continueFrom(saved);
    RunObserver observer(&metadata, progress, config.epochs, cancel);
    nlohmann::json moduleConfig = moduleConfigJson(config, gpus);
    moduleConfig["fallback_to_cpu"] = fallback;
    if (rankEnv)
        moduleConfig["dist"] = distJson(config, *rankEnv, agreementJson(config, raw, trainRows));
    StackscopeTrainData data {raw.x.data(), raw.y.data(), raw.rows, raw.cols, trainRows};
    std::string message;
    if (const int rc = callTrainer(module, moduleConfig, data, config, observer, message); rc != 0)
        reportFailure(rc, message, config, metadata, folder, progress);
    auto result = std::make_shared<TrainingResult>(std::move(observer.result()));
    result->outputDir = config.output;
    result->notes.insert(result->notes.begin(), config.notes.begin(), config.notes.end());
    result->metadata = metadata.json();
    return result;
}

void saveDatasetForPython(const Dataset& data, int64_t trainRows, const std::string& path)
{
    const auto& module = trainerModule();
    StackscopeTrainData d {data.x.data(), data.y.data(), data.rows, data.cols, trainRows};
    char error[2048] = {0};
    if (module.saveDataset(&d, path.c_str(), error, sizeof error) != 0)
        throw std::runtime_error(error);
}

std::vector<float> predictRows(const TrainingConfig& config, const std::string& modelPath, const Dataset& data,
                               int64_t firstRow, int64_t rows)
{
    if (firstRow < 0 || rows < 0 || firstRow + rows > data.rows)
        throw std::invalid_argument(fmt::format("predictRows: rows {} to {} are outside the dataset's {} rows; ask for "
                                                "rows inside it",
                                                firstRow, firstRow + rows, data.rows));
    const auto& module = trainerModule();
    std::vector<float> out(static_cast<size_t>(rows));
    char error[2048] = {0};
    const auto cfg = moduleConfigJson(config, {}).dump();
    if (module.predict(cfg.c_str(), modelPath.c_str(), data.x.data() + firstRow * data.cols, rows, data.cols, out.data(),
                       error, sizeof error) != 0)
        throw std::runtime_error(error);
    return out;
}

} // namespace stackscope::training
