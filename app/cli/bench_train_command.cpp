// `stackscope-cli bench train`: steps/s and final validation loss of StackScope's trainer, and of the Python
// baselines (tests/bench/train_python.py: eager, whole-step CUDA graph, torch.compile) on the same dataset in the
// same run; the ratio is to the fastest baseline.
#include "app/cli/command.h"

#include "core/training/training_run.h"
#include "core/util/atomic_file.h"
#include "core/vpoc/sample_data.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace stackscope::cli {

namespace {

struct BenchTrainOptions {
    int days = 60;
    int epochs = 5;
    int batchSize = 256;
    std::string device = "auto";
    std::string work = "bench-train";
    std::string python;
    std::string pythonExe = "python3";
    std::vector<std::string> modes {"eager", "cudagraph", "cudagraph-fused", "compile"};
    bool noGraphs = false;
    bool noFused = false;
    bool json = false;
};

std::string shellQuote(const std::string& s)
{
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Runs the command and returns the last line it printed on stdout.
std::string lastLineOf(const std::string& command)
{
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        throw std::runtime_error("cannot start: " + command);
    std::string last, line;
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe)) {
        line += buffer;
        if (!line.empty() && line.back() == '\n') {
            if (line.size() > 1)
                last = line;
            line.clear();
        }
    }
    if (!line.empty())
        last = line;
    const int status = ::pclose(pipe);
    if (status != 0)
        throw std::runtime_error(fmt::format("the Python baseline failed (status {}): {}; run it by hand to see why "
                                             "(it needs PyTorch: python3 -c 'import torch')",
                                             status, command));
    return last;
}

// StackScope's run on fresh sample data in `work`: its config and result.
std::shared_ptr<const training::TrainingResult> trainStackScope(const BenchTrainOptions& o, training::TrainingConfig& c)
{
    std::filesystem::create_directories(o.work);
    const std::string data = o.work + "/sample-es-bars.csv";
    vpoc::SampleDataOptions sample;
    sample.days = o.days;
    writeFileAtomically(data, vpoc::generateSampleData(sample));
    c.input = data;
    c.output = o.work + "/stackscope";
    c.epochs = o.epochs;
    c.batchSize = o.batchSize;
    c.patience = 0;
    c.cudaGraphs = !o.noGraphs;
    c.fusedStep = !o.noFused;
    c.stepInterval = 1000;
    try {
        c.device = training::parseDevices(o.device);
        return training::runTraining(c);
    } catch (const training::ConfigError& e) {
        throw UsageError(e.what());
    }
}

// The dataset as Python reads it, and model.pt's predictions on a few validation rows for Python to reproduce;
// returns the two paths.
std::pair<std::string, std::string> filesForPython(const BenchTrainOptions& o, const training::TrainingConfig& c)
{
    int64_t trainRows = 0;
    const auto dataset = training::datasetFor(c, &trainRows);
    const std::string datasetPath = o.work + "/dataset.pt";
    training::saveDatasetForPython(dataset, trainRows, datasetPath);
    nlohmann::json check = {{"rows", nlohmann::json::array()}, {"stackscope", nlohmann::json::array()}};
    const int64_t n = std::min<int64_t>(8, dataset.rows - trainRows);
    const auto predictions = training::predictRows(c, c.output + "/model.pt", dataset, trainRows, n);
    for (int64_t i = 0; i < n; ++i) {
        check["rows"].push_back(trainRows + i);
        check["stackscope"].push_back(predictions[static_cast<size_t>(i)]);
    }
    const std::string checkPath = o.work + "/check.json";
    writeFileAtomically(checkPath, check.dump());
    return {datasetPath, checkPath};
}

// Each Python baseline of --python-modes on the same data and device, then the ratio to the fastest (and to eager).
void runPythonBaselines(const BenchTrainOptions& o, const training::TrainingConfig& c,
                        const training::TrainingResult& r, double finalVal, nlohmann::json& out)
{
    const auto [datasetPath, checkPath] = filesForPython(o, c);
    // The baseline runs where StackScope ran (a CPU run names the device "CPU").
    const auto devices = r.metadata.value("devices", nlohmann::json::array());
    const bool onCpu = std::find(devices.begin(), devices.end(), "CPU") != devices.end();
    out["python"] = nlohmann::json::object();
    std::string fastest;
    double fastestRate = 0.0;
    for (const auto& mode : o.modes) {
        const std::string command = fmt::format(
            "{} {} --mode {} --dataset {} --epochs {} --batch-size {} --lr {} --hidden 32,16 --clip {} --seed {} "
            "--device {} --model {} --check {}",
            shellQuote(o.pythonExe), shellQuote(o.python), mode, shellQuote(datasetPath), c.epochs, c.batchSize,
            c.learningRate, c.clipNorm, c.seed, onCpu ? "cpu" : "cuda", shellQuote(c.output + "/model.pt"),
            shellQuote(checkPath));
        const auto py = nlohmann::json::parse(lastLineOf(command));
        out["python"][mode] = py;
        if (py.contains("skipped")) {
            std::cout << fmt::format("Python {}: not run ({})\n", mode, py.value("skipped", ""));
            continue;
        }
        const double rate = py.value("steps_per_s", 0.0);
        std::cout << fmt::format("Python {} (torch {}): {:.0f} steps/s, final validation loss {:.5f}, first "
                                 "step {:.2f} s; model.pt predictions differ by at most {:.3g}\n",
                                 mode, py.value("torch", "?"), rate, py.value("final_val_loss", NAN),
                                 py.value("first_call_seconds", NAN), py.value("predictions_max_abs_diff", NAN));
        if (rate > fastestRate) {
            fastestRate = rate;
            fastest = mode;
        }
    }
    if (!fastest.empty()) {
        const double pyVal = out["python"][fastest].value("final_val_loss", NAN);
        out["fastest_python"] = fastest;
        out["speedup"] = r.stepsPerS / fastestRate;
        out["val_loss_relative_difference"] = std::abs(finalVal - pyVal) / pyVal;
        std::cout << fmt::format("StackScope vs the fastest Python baseline ({}): {:.2f}x (goal >= 1.5x); "
                                 "validation loss differs by {:.2f}% (goal <= 2%)\n",
                                 fastest, out["speedup"].get<double>(),
                                 100.0 * out["val_loss_relative_difference"].get<double>());
    }
    if (out["python"].contains("eager") && !out["python"]["eager"].contains("skipped")) {
        out["speedup_vs_eager"] = r.stepsPerS / out["python"]["eager"].value("steps_per_s", 1.0);
        std::cout << fmt::format("StackScope vs Python eager: {:.2f}x\n", out["speedup_vs_eager"].get<double>());
    }
}

void benchTrainNow(const BenchTrainOptions& o)
{
    training::TrainingConfig c;
    const auto r = trainStackScope(o, c);
    const double finalVal = r->epochs.empty() ? NAN : r->epochs.back().valLoss;
    nlohmann::json out = {{"rows_per_step", c.batchSize},
                          {"epochs", c.epochs},
                          {"stackscope",
                           {{"steps_per_s", r->stepsPerS},
                            {"final_val_loss", finalVal},
                            {"execution", r->execution},
                            {"devices", r->metadata.value("devices", nlohmann::json::array())}}}};
    std::cout << fmt::format("StackScope: {:.0f} steps/s, final validation loss {:.5f} ({})\n", r->stepsPerS, finalVal,
                             r->execution);
    if (!o.python.empty())
        runPythonBaselines(o, c, *r, finalVal, out);
    if (o.json)
        std::cout << out.dump(2) << "\n";
}

void addBenchTrain(CLI::App& bench, CommandContext& ctx)
{
    auto* cmd = bench.add_subcommand("train", "Training steps/s vs the fastest Python baseline (eager, CUDA graph, "
                                              "torch.compile; goal >= 1.5x at batch 256, final validation loss within 2%)");
    auto o = std::make_shared<BenchTrainOptions>();
    cmd->add_option("--days", o->days, "Days of synthetic ES bars to train on")->capture_default_str();
    cmd->add_option("--epochs", o->epochs, "Epochs (both trainers, no early stopping)")->capture_default_str();
    cmd->add_option("--batch-size", o->batchSize, "Rows per step")->capture_default_str();
    cmd->add_option("--device", o->device, "auto, cpu or gpu:N")->capture_default_str();
    cmd->add_option("--work", o->work, "Folder for the data, the model and the dataset file")->capture_default_str();
    cmd->add_option("--python", o->python, "The baselines' script (tests/bench/train_python.py); omitted: no baseline");
    cmd->add_option("--python-modes", o->modes, "Baselines to run: eager, cudagraph, cudagraph-fused, compile, compile-max")
        ->delimiter(',')
        ->check(CLI::IsMember({"eager", "cudagraph", "cudagraph-fused", "compile", "compile-max"}))
        ->capture_default_str();
    cmd->add_option("--python-exe", o->pythonExe, "Python with PyTorch")->capture_default_str();
    cmd->add_flag("--no-cuda-graphs", o->noGraphs, "Measure StackScope without CUDA graphs");
    cmd->add_flag("--no-fused-step", o->noFused, "Measure StackScope without its fused step kernel");
    cmd->add_flag("--json", o->json, "Print the figures as JSON");
    cmd->callback([o, &ctx] {
        benchTrainNow(*o);
        ctx.exitCode = ExitOk;
    });
}

const BenchRegistration registration {"train", 30, &addBenchTrain};

} // namespace

} // namespace stackscope::cli
