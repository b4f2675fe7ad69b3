// `stackscope-cli train`: trains the VPOC-feature MLP with libtorch; also accepts the seed script's options.
#include "app/cli/command.h"

#include "core/training/training_launch.h"
#include "core/training/training_run.h"
#include "core/vpoc/market_data.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <iostream>

namespace stackscope::cli {

namespace {

struct TrainCliOptions {
    training::TrainingConfig config;
    std::string hidden = "32,16";
    std::string returns = "1,5,15";
    std::string device = training::DeviceSelection().toString(); // parsed with the lists, once
    bool jsonProgress = false;
    bool noGraphs = false;
    bool noFused = false;
    // The seed script's (src/ml/train.py) options, mapped or noted.
    std::string deviceIds;
    bool noDistributed = false;
    bool mixedPrecision = false;
    int64_t chunkSize = 0;
    bool skipGpuCleanup = false;
};

CancelToken g_cancel; // made before main(), so the handler below only sets its flag

extern "C" void cancelRanks(int)
{
    g_cancel.cancel();
}

std::string bytes(double b)
{
    return b < 0 ? std::string("-") : fmt::format("{:.2f} GiB", b / (1024.0 * 1024.0 * 1024.0));
}

void printProgress(const training::TrainingProgress& p, bool json)
{
    using Kind = training::TrainingProgress::Kind;
    if (json) {
        if (p.kind == Kind::Note) { // what the run chose and why (the execution, one GPU against several)
            std::cout << nlohmann::json({{"event", "note"}, {"message", p.message}}).dump() << std::endl;
            return;
        }
        if (p.kind != Kind::Step && p.kind != Kind::Epoch)
            return;
        nlohmann::json line = {{"event", p.kind == Kind::Step ? "step" : "epoch"},
                               {"epoch", p.epoch},
                               {"samples_per_s", p.samplesPerS}};
        if (p.kind == Kind::Step) {
            line["step"] = p.step;
            line["loss"] = p.loss;
            if (p.allocatedBytes >= 0) {
                line["allocated_bytes"] = p.allocatedBytes;
                line["reserved_bytes"] = p.reservedBytes;
            }
            if (p.deviceUsedBytes >= 0)
                line["device_used_bytes"] = p.deviceUsedBytes;
            if (p.etaS >= 0)
                line["eta_s"] = p.etaS;
            for (const auto& r : p.ranks) // several processes: each rank's figures, -1 where not known
                line["ranks"].push_back({{"rank", r.rank}, {"device", r.device}, {"device_used_bytes", r.deviceUsedBytes},
                                         {"allocated_bytes", r.allocatedBytes}, {"reserved_bytes", r.reservedBytes}});
        } else {
            line["loss"] = p.loss;
            line["val_loss"] = p.valLoss;
            line["best_epoch"] = p.bestEpoch;
        }
        std::cout << line.dump() << std::endl;
        return;
    }
    switch (p.kind) {
    case Kind::Started:
        std::cout << fmt::format("training on {} ({} steps per epoch)\n", p.message,
                                 p.stepsPerEpoch);
        break;
    case Kind::Note:
        std::cout << "note: " << p.message << "\n";
        break;
    case Kind::Epoch:
        std::cout << fmt::format("epoch {:>3}/{}  train {:.5f}  val {:.5f}  {:>9.0f} samples/s{}\n", p.epoch, p.epochs,
                                 p.loss, p.valLoss, p.samplesPerS, p.improved ? "  (best)" : "");
        break;
    case Kind::Step:
    case Kind::Finished:
        break;
    }
    std::cout.flush();
}

// Maps the seed's options onto ours; every mapping is said in the run's notes.
void applySeedAliases(TrainCliOptions& o)
{
    auto& c = o.config;
    if (!o.deviceIds.empty()) {
        std::string ids = o.deviceIds;
        if (o.noDistributed && ids.find(',') != std::string::npos) {
            ids = ids.substr(0, ids.find(','));
            c.notes.push_back(fmt::format("--no_distributed: trained on the first of --device_ids ({}) only", ids));
        }
        c.device = training::parseDevices("gpu:" + ids);
        c.deviceFallback = true;
        c.notes.push_back(fmt::format("--device_ids {} -> --device {} (the CPU when that GPU is not there)",
                                      o.deviceIds, c.device.toString()));
    } else if (o.noDistributed) {
        c.notes.push_back("--no_distributed: StackScope trains in one process unless --device names several GPUs "
                          "or --nproc asks for more; nothing to change");
    }
    if (o.mixedPrecision) {
        c.precision = "bf16";
        c.notes.push_back("--use_mixed_precision -> --precision bf16 (autocast)");
    }
    if (o.chunkSize > 0)
        c.notes.push_back(fmt::format("--chunk_size {}: not needed, the dataset goes to the device once; ignored",
                                      o.chunkSize));
    if (o.skipGpuCleanup)
        c.notes.push_back("--skip_gpu_cleanup: StackScope frees GPU memory when the run ends; ignored");
}

void addTrainOptions(CLI::App* cmd, TrainCliOptions& o)
{
    auto& c = o.config;
    cmd->add_option("--input,--data", c.input, "Market data CSV of bars (as `vpoc` reads; extra numeric columns "
                                               "such as vix become features)")
        ->required();
    cmd->add_option("--output", c.output, "Folder for model.pt, checkpoint.pt and model_metadata.json")->required();
    cmd->add_option("--epochs", c.epochs, "Epochs")->capture_default_str();
    cmd->add_option("--batch-size,--batch_size", c.batchSize, "Rows per step")->capture_default_str();
    cmd->add_option("--lr,--learning_rate", c.learningRate, "Adam learning rate")->capture_default_str();
    cmd->add_option("--hidden,--hidden_layers", o.hidden, "Hidden layer sizes")->capture_default_str();
    cmd->add_option("--dropout", c.dropout, "Dropout after each hidden layer (0 = none)")->capture_default_str();
    cmd->add_option("--seed", c.seed, "Random seed (weights, batches)")->capture_default_str();
    cmd->add_option("--clip", c.clipNorm, "Clip gradients to this global norm (0 = off)")->capture_default_str();
    cmd->add_option("--patience", c.patience, "Stop after this many epochs without a better validation loss (0 = off)")
        ->capture_default_str();
    cmd->add_option("--horizon", c.horizon, "Target: forward return over this many bars, in ticks")
        ->capture_default_str();
    cmd->add_option("--returns", o.returns, "Past-return features over these bar counts")->capture_default_str();
    cmd->add_option("--volume-window", c.volumeWindow, "Bars in the volume z-score")->capture_default_str();
    cmd->add_option("--val-fraction", c.validationFraction, "Last part of the data (by time) kept for validation")
        ->capture_default_str();
    cmd->add_option("--session", c.session, "globex, rth or HH:MM-HH:MM")->capture_default_str();
    cmd->add_option("--tz", c.timeZone, "Time zone of naive timestamps and of the session")->capture_default_str();
    cmd->add_option("--tick", c.tick, "Price step (ES: 0.25)")->capture_default_str();
    cmd->add_option("--device", o.device, "auto (GPU 0, else the CPU), cpu, gpu:N or gpu:N,M (one process per GPU, "
                                          "data parallel through c10d)")
        ->capture_default_str();
    cmd->add_option("--nproc", c.processes, "Processes (ranks) to start here: 0 = one per GPU of --device; N > 1 "
                                            "with --device cpu (or one GPU) runs N Gloo ranks")
        ->capture_default_str();
    cmd->add_option_function<std::string>(
           "--dist-backend", [&c](const std::string& text) { c.distBackend = training::parseDistBackend(text); },
           "Collectives between processes: auto (nccl on GPUs, gloo on the CPU), nccl or gloo")
        ->default_str(training::distBackendName(c.distBackend));
    cmd->add_option("--dist-timeout", c.distTimeoutS, "Seconds any collective may wait for the other ranks before "
                                                      "the run stops with the rank and the collective")
        ->capture_default_str();
    cmd->add_option("--dist-bucket-mb", c.distBucketMb, "Gradient bucket size (MB): each bucket's all-reduce starts "
                                                        "while backward computes the layers below")
        ->capture_default_str();
    cmd->add_option("--precision", c.precision, "fp32 or bf16 (autocast)")->capture_default_str();
    cmd->add_flag("--no-cuda-graphs", o.noGraphs, "Run every step eagerly instead of replaying a CUDA graph");
    cmd->add_flag("--no-fused-step", o.noFused,
                  "Train small models through libtorch's kernels instead of StackScope's fused step kernel");
    cmd->add_option("--step-interval", c.stepInterval, "Steps between progress lines (the only host syncs)")
        ->capture_default_str();
    cmd->add_flag("--resume", c.resume, "Continue the run in --output from its last checkpoint");
    cmd->add_flag("--json-progress", o.jsonProgress, "Print one JSON line per step interval and per epoch");
}

// The seed script's option names (tests/fixtures, README "Seed script aliases"), each mapped and noted.
void addSeedAliases(CLI::App* cmd, TrainCliOptions& o)
{
    auto* seed = "Seed script option";
    cmd->add_option("--device_ids", o.deviceIds, fmt::format("{}: GPU indices (-> --device gpu:...)", seed))
        ->group("Seed script aliases");
    cmd->add_flag("--no_distributed", o.noDistributed, fmt::format("{}: one process (noted)", seed))
        ->group("Seed script aliases");
    cmd->add_flag("--use_mixed_precision", o.mixedPrecision, fmt::format("{}: -> --precision bf16", seed))
        ->group("Seed script aliases");
    cmd->add_option("--chunk_size", o.chunkSize, fmt::format("{}: accepted, not needed (noted)", seed))
        ->group("Seed script aliases");
    cmd->add_flag("--skip_gpu_cleanup", o.skipGpuCleanup, fmt::format("{}: accepted, not needed (noted)", seed))
        ->group("Seed script aliases");
}

// Trains and prints the summary (rank 0 only); throws UsageError for bad input.
void trainNow(TrainCliOptions& o)
{
    auto& c = o.config;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(c.input, ec))
        throw UsageError(fmt::format("--input {}: no such file; give a CSV of bars (stackscope-cli sample-data "
                                     "--out FILE makes one)",
                                     c.input));
    std::shared_ptr<const training::TrainingResult> r;
    try {
        c.hidden = training::parseLayerList(o.hidden, "--hidden");
        c.returnHorizons = training::parseLayerList(o.returns, "--returns");
        c.device = training::parseDevices(o.device);
        c.cudaGraphs = !o.noGraphs;
        c.fusedStep = !o.noFused;
        applySeedAliases(o);
        if (!o.jsonProgress) {
            for (const auto& n : c.notes)
                std::cout << "note: " << n << "\n";
        }
        // Several ranks are child processes in their own groups: Ctrl-C reaches only this launcher, which
        // asks them to stop together (they keep the last finished epoch).
        const bool launches = !training::rankEnvironment() && training::processesFor(c) > 1;
        if (launches) {
            std::signal(SIGINT, cancelRanks);
            std::signal(SIGTERM, cancelRanks);
        }
        r = training::runTraining(c, [json = o.jsonProgress](const auto& p) { printProgress(p, json); },
                                  launches ? g_cancel : CancelToken());
    } catch (const training::ConfigError& e) {
        throw UsageError(e.what());
    } catch (const vpoc::InputError& e) {
        throw UsageError(e.what());
    }
    const std::string summary =
        fmt::format("{}: {} epochs, best epoch {} (validation loss {:.5f}), {:.1f} steps/s, {}; wrote {}/model.pt "
                    "and {}/model_metadata.json",
                    training::trainingStatusName(r->status), r->epochs.size(), r->bestEpoch, r->bestValLoss, r->stepsPerS, r->execution,
                    r->outputDir, r->outputDir);
    if (const auto env = training::rankEnvironment(); env && env->rank != 0)
        return; // rank 0 reports for the run (torchrun, srun, mpirun start every rank alike)
    if (o.jsonProgress)
        std::cout << nlohmann::json({{"event", "finished"},
                                     {"status", training::trainingStatusName(r->status)},
                                     {"best_epoch", r->bestEpoch},
                                     {"best_val_loss", r->bestValLoss},
                                     {"steps_per_s", r->stepsPerS},
                                     {"execution", r->execution},
                                     {"output", r->outputDir}})
                         .dump()
                  << std::endl;
    else
        std::cout << summary << "\n";
}

void addTrainCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand("train", "Train the VPOC-feature MLP with libtorch (CPU or GPUs), writing "
                                            "model.pt and model_metadata.json");
    auto o = std::make_shared<TrainCliOptions>();
    addTrainOptions(cmd, *o);
    addSeedAliases(cmd, *o);
    cmd->callback([o, &ctx] {
        trainNow(*o);
        ctx.exitCode = ExitOk;
    });
}

const CommandRegistration registration {"train", 45, &addTrainCommand};

} // namespace

} // namespace stackscope::cli
