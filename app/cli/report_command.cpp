// `stackscope-cli report`: the support report of this machine (folder + zip), redacted unless --no-redact.
#include "app/cli/command.h"

#include "core/probes/probe_document.h"

#include "core/archscan/snapshot_coverage.h"
#include "core/inspect/inspector.h"
#include "core/perf/perf_json.h"
#include "core/perf/suite_run.h"
#include "core/probes/probe_runner.h"
#include "core/probes/probe_variants.h"
#include "core/report/redactor.h"
#include "core/report/report.h"
#include "core/report/report_loader.h"
#include "core/report/run_folder.h"
#include "core/util/file_read.h"
#include "core/util/json_errors.h"
#include "core/util/text_escape.h"
#include "core/report/report_writer.h"
#include "core/report/telemetry_summary.h"
#include "core/python/python_envs.h"
#include "core/snapshot/snapshot_json.h"
#include "core/training/training_files_check.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace stackscope::cli {

namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kMaxInputBytes = 64ull * 1024 * 1024;

std::string readInput(const fs::path& path, const std::string& option)
{
    std::string why;
    auto text = readRegularFile(path, kMaxInputBytes, &why);
    if (!text && why.rfind("larger than", 0) == 0)
        throw UsageError(fmt::format("{} {}: larger than 64 MiB; give the file StackScope wrote, not a data file",
                                     option, path.string()));
    std::error_code ec;
    if (!text && !fs::exists(path, ec))
        throw UsageError(fmt::format("{} {}: no such file; check the path", option, path.string()));
    if (!text)
        throw UsageError(fmt::format("{} {}: cannot be read ({}); check the path and its permissions", option,
                                     path.string(), why));
    return std::move(*text);
}

nlohmann::json readJsonInput(const fs::path& path, const std::string& option, const char* expected)
{
    const std::string text = readInput(path, option);
    try {
        auto j = nlohmann::json::parse(text);
        if (!j.is_object())
            throw UsageError(fmt::format("{} {}: not a JSON object; give {}", option, path.string(), expected));
        return j;
    } catch (const nlohmann::json::exception& e) { // parse_error, and out_of_range for 1e999999999
        throw UsageError(fmt::format("{} {}: {}: not valid JSON ({}); give {}", option, path.string(),
                                     jsonErrorPlace(text, e), jsonErrorWhat(e), expected));
    }
}

// A log's lines with control bytes and bytes that are not UTF-8 escaped (escapeControl), so the report's JSON
// stays valid and no ESC sequence reaches a terminal or the HTML; a binary file is refused.
std::vector<std::string> readLines(const fs::path& path, const std::string& option)
{
    const std::string text = readInput(path, option);
    if (const auto nul = text.find('\0'); nul != std::string::npos)
        throw UsageError(fmt::format("{} {}: a binary file (a NUL byte at byte {}), not a text log; give the text your "
                                     "program printed, e.g. python train.py 2>&1 | tee train.log",
                                     option, escapeControl(path.string()), nul));
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(escapeControl(line));
    }
    return lines;
}

// The probe grid on this machine, as `stackscope-cli probe --json` writes it.
nlohmann::json runProbes()
{
    ProbeRunner runner(ProbeRunOptions {});
    const auto t0 = std::chrono::steady_clock::now();
    const auto records = runner.run();
    nlohmann::json j = probeRunDocument(records, runner.devices(), {ProbeVariant {}}, runner.listError());
    j["wall_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return j;
}

struct ReportOptions {
    std::string out;
    bool noRedact = false;
    std::string probes;
    bool runProbes = false;
    std::string vpoc;
    std::string training;
    std::vector<std::string> logs;
    std::string snapshot;
    std::string bandwidth;
    std::string runDir = "stackscope-out";
    bool noArchscan = false;
    bool noTelemetry = false;
};

// `training` (a folder or its model_metadata.json) as the metadata file; a wrong path is a usage error.
fs::path trainingMetadataPath(const std::string& training)
{
    std::error_code ec;
    fs::path path(training);
    if (fs::is_directory(path, ec))
        path /= "model_metadata.json";
    if (!fs::is_regular_file(path, ec))
        throw UsageError(fmt::format("--training {}: no model_metadata.json there; give the training run's output "
                                     "folder or its model_metadata.json",
                                     training));
    return path;
}

void addLog(report::ReportInputs& in, const fs::path& log, const std::string& option)
{
    auto lines = readLines(log, option);
    in.logLines.push_back(fmt::format("==> {} <==", log.string()));
    in.logLines.insert(in.logLines.end(), lines.begin(), lines.end());
}

// Probes, the VPOC run, the training run and logs: those named on the command line, else what the headless job's
// folder holds. Inputs come first so that a wrong path fails at once, before the machine is inspected.
void addRunInputs(const ReportOptions& o, report::ReportInputs& in, std::vector<std::string>& used)
{
    const auto found = report::findRunFolderInputs(o.runDir);
    const char* probeDoc = "the output of `stackscope-cli probe --json`";
    if (!o.probes.empty()) {
        in.probes = readJsonInput(o.probes, "--probes", probeDoc);
        used.push_back("probes from " + o.probes);
    } else if (!o.runProbes && found.probes) {
        in.probes = readJsonInput(*found.probes, "--run-dir", probeDoc);
        used.push_back("probes from " + found.probes->string());
    } else if (!o.runProbes) {
        in.probesNote = "probes were not run for this report: give --probes FILE (stackscope-cli probe --json) or "
                        "--run-probes";
    }
    if (!in.probes.is_null() && !in.probes.contains("results"))
        throw UsageError("--probes: the file has no \"results\"; give the output of `stackscope-cli probe --json`");
    const char* vpocDoc = "the output of `stackscope-cli vpoc --json`";
    if (!o.vpoc.empty() || found.vpoc) {
        const fs::path path = !o.vpoc.empty() ? fs::path(o.vpoc) : *found.vpoc;
        in.vpocRun = readJsonInput(path, !o.vpoc.empty() ? "--vpoc" : "--run-dir", vpocDoc);
        used.push_back("VPOC run from " + path.string());
    }
    const auto training = !o.training.empty() ? std::optional<fs::path>(trainingMetadataPath(o.training)) : found.training;
    if (training) {
        in.trainingRun = readJsonInput(*training, "--training", "a model_metadata.json (stackscope.training/1)");
        used.push_back("training run from " + training->string());
        const auto note = stackscope::training::checkTrainingFiles(in.trainingRun, training->parent_path().string());
        if (!note.empty())
            used.push_back("training run: " + note);
    }
    if (!o.bandwidth.empty()) {
        const char* bandwidthDoc = "the output of `stackscope-cli bench bandwidth --json`";
        try {
            in.bandwidth = perf::suiteRunFromJson(readJsonInput(o.bandwidth, "--bandwidth", bandwidthDoc));
        } catch (const perf::PerfJsonError& e) {
            throw UsageError(fmt::format("--bandwidth {}: {}; give {}", o.bandwidth, e.what(), bandwidthDoc));
        }
        used.push_back("bandwidth run from " + o.bandwidth);
    } else {
        in.bandwidthNote = "not measured for this report: run `stackscope-cli bench bandwidth --json > bw.json`, then "
                           "give --bandwidth bw.json";
    }
    for (const auto& log : o.logs) {
        addLog(in, log, "--log");
        used.push_back("log " + log);
    }
    if (o.logs.empty()) {
        for (const auto& log : found.stepLogs) {
            addLog(in, log, "--run-dir");
            used.push_back("log " + log.string());
        }
    }
}

// The saved snapshot given, or an inspection of this machine now (with the coverage scan and the quick look at
// its Python environments).
void addSnapshot(const ReportOptions& o, report::ReportInputs& in, std::vector<std::string>& used)
{
    if (!o.snapshot.empty()) {
        try {
            in.snapshot = report::loadReport(o.snapshot).snapshot;
        } catch (const report::ReportError& e) {
            throw UsageError(fmt::format("--snapshot: {}", e.what()));
        }
        used.push_back("snapshot from " + o.snapshot);
        return;
    }
    in.snapshot = inspectMachine(InspectOptions {});
    if (!o.noArchscan)
        archscan::addArchCoverage(in.snapshot);
    // The quick look (under 2 s); a headless job's snapshot.json (--snapshot) has the details and collect_env.
    in.snapshot.pythonEnvs = queryPythonEnvs(pythonCandidates(PythonPlaces::fromEnvironment()));
}

void printWritten(const std::vector<std::string>& used, const report::ReportInputs& in, const nlohmann::json& doc,
                  bool redacted, const report::WrittenReport& written)
{
    for (const auto& u : used)
        std::cout << "included: " << u << "\n";
    if (in.probes.is_null())
        std::cout << "note: " << in.probesNote << "\n";
    if (doc.contains("bandwidth_note"))
        std::cout << "bandwidth: " << (in.bandwidth ? doc["bandwidth"].value("summary", std::string()) + "; " : std::string())
                  << doc["bandwidth_note"].get<std::string>() << "\n";
    std::cout << fmt::format("redaction: {}\n", redacted ? fmt::format("on, {} placeholder(s)", doc["redaction"]["replaced"].size())
                                                         : std::string("OFF (--no-redact)"));
    std::cout << "screenshots: not included (the GUI adds them: stackscope --report DIR)\n";
    std::cout << "folder: " << written.folder << "\n";
    if (written.zip.empty())
        std::cout << "zip: not written (this stackscope-cli was built without libarchive; install libarchive-dev "
                     "and rebuild, or zip the folder yourself)\n";
    else
        std::cout << "zip: " << written.zip << "\n";
}

void writeReportNow(const ReportOptions& o)
{
    report::ReportInputs in;
    std::vector<std::string> used; // what went in, printed for the person
    addRunInputs(o, in, used);
    addSnapshot(o, in, used);
    if (o.runProbes) {
        in.probes = runProbes();
        used.push_back("probes run now");
    }
    in.telemetry = o.noTelemetry ? nlohmann::json {{"available", false}, {"reason", "not sampled (--no-telemetry)"}}
                                 : report::sampleTelemetrySummary();
    std::optional<report::Redactor> redactor;
    if (!o.noRedact)
        redactor = report::Redactor::forMachine(in.snapshot);
    nlohmann::json doc;
    report::WrittenReport written;
    try {
        doc = report::buildReport(in, redactor ? &*redactor : nullptr);
        written = report::writeReport(o.out, doc, {}, std::chrono::system_clock::now());
    } catch (const report::ReportError& e) {
        throw UsageError(e.what());
    }
    printWritten(used, in, doc, redactor.has_value(), written);
}

void addReportCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand(
        "report", "Write a support report (report.html, report.md, report.json, logs) and its .zip; private facts are "
                  "replaced by placeholders unless --no-redact");
    auto opts = std::make_shared<ReportOptions>();
    cmd->add_option("--out", opts->out, "Folder in which stackscope-report-YYYYMMDD-HHMMSS/ and its .zip are written")
        ->required();
    cmd->add_flag("--no-redact", opts->noRedact,
                  "Keep user and host names, home paths, addresses, GPU UUIDs, serials and credentials as they are");
    auto* probes = cmd->add_option("--probes", opts->probes, "Probe results from `stackscope-cli probe --json` (a file)");
    auto* run = cmd->add_flag("--run-probes", opts->runProbes, "Run the probe grid now (CPU and every GPU, baseline)");
    probes->excludes(run);
    cmd->add_option("--vpoc", opts->vpoc, "The last VPOC run: `stackscope-cli vpoc --json` output (a file)");
    cmd->add_option("--training", opts->training,
                    "The last training run: its folder (with model_metadata.json) or the model_metadata.json file");
    cmd->add_option("--log", opts->logs, "A log file to include (repeatable; its last 2000 lines, redacted)");
    cmd->add_option("--bandwidth", opts->bandwidth,
                    "A bandwidth run: `stackscope-cli bench bandwidth --json` output (a file); judged again against "
                    "the report's snapshot when that is the machine that ran it");
    cmd->add_option("--snapshot", opts->snapshot,
                    "Report on a saved snapshot (stackscope-cli inspect --out FILE) instead of inspecting this machine");
    cmd->add_option("--run-dir", opts->runDir,
                    "Where packaging/run.sh left its outputs (probes.json, vpoc.json, training/); used for what is "
                    "not given explicitly")
        ->capture_default_str();
    cmd->add_flag("--no-archscan", opts->noArchscan, "Skip the kernel coverage scan (arch_coverage is then null)");
    cmd->add_flag("--no-telemetry", opts->noTelemetry, "Skip the short NVML/rocm_smi sample");
    cmd->callback([opts, &ctx] {
        writeReportNow(*opts);
        ctx.exitCode = ExitOk;
    });
}

const CommandRegistration registration {"report", 70, &addReportCommand};

} // namespace

} // namespace stackscope::cli
