// `stackscope-cli probe`: the compatibility grid (probe x device x environment variant), each cell
// in a child process, with the A/B view between variants and the diagnosis of what failed.
#include "app/cli/command.h"
#include "core/util/environment.h"

#include "core/probes/probe_document.h"

#include "core/diagnosis/diagnosis.h"
#include "core/snapshot/snapshot_json.h"
#include "core/inspect/inspector.h"
#include "core/probes/probe_catalogue.h"
#include "core/probes/probe_figures.h"
#include "core/probes/probe_runner.h"
#include "core/probes/probe_variants.h"
#include "core/python/python_envs.h"
#include "core/util/program_paths.h"
#include "core/util/task_runner.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <mutex>

namespace stackscope::cli {

namespace {

struct ProbeCliOptions {
    std::vector<std::string> devices;
    std::vector<std::string> variants;
    std::vector<std::string> envs;
    std::vector<std::string> probes;
    double timeout = 30.0;
    int jobs = 0;
    bool json = false;
    bool noBaseline = false;
    std::vector<std::string> pythons; // "auto" or interpreters/environment folders
    bool libtorch = false;
    bool noLibtorch = false;
};

// One column group of the grid: StackScope's libtorch or one Python environment, with the devices it listed.
struct EnvironmentRun {
    std::string label;       // "libtorch (StackScope)", "python /usr/bin/python3"
    ProbeRunOptions options;
    std::vector<ProbeDevice> devices;
    std::string listError;
    std::vector<ProbeRecord> records;
};

// The Python environments `--python` names: "auto" is every discovered interpreter with torch; a path is taken
// as given (an environment's folder gives its bin/python3). Throws UsageError for a path that is not there.
std::vector<std::string> resolvePythons(const std::vector<std::string>& specs)
{
    std::vector<std::string> out;
    auto add = [&](const std::string& p) {
        if (std::find(out.begin(), out.end(), p) == out.end())
            out.push_back(p);
    };
    PythonPlaces given;
    for (const auto& spec : specs) {
        if (spec == "auto") {
            for (const auto& e : pythonEnvsWithTorch(queryPythonEnvs(pythonCandidates(PythonPlaces::fromEnvironment()))))
                add(e.value("path", std::string()));
            continue;
        }
        given.userAdded = {spec};
        const auto found = pythonCandidates(given);
        if (found.empty())
            throw UsageError(fmt::format("--python {}: no executable interpreter there; give the path of a python3 "
                                         "that has torch, its environment's folder, or auto", spec));
        add(found.front().path);
    }
    return out;
}

std::vector<ProbeVariant> resolveVariants(const ProbeCliOptions& o, std::optional<Snapshot>& snapshot)
{
    std::vector<ProbeVariant> out;
    auto add = [&](ProbeVariant v) {
        for (const auto& have : out) {
            if (have.name == v.name)
                return;
        }
        out.push_back(std::move(v));
    };
    if (!o.noBaseline)
        add(ProbeVariant {});
    std::vector<ProbeVariant> candidates;
    bool haveCandidates = false;
    for (const auto& name : o.variants) {
        if (name == "baseline") {
            add(ProbeVariant {});
            continue;
        }
        if (!haveCandidates) {
            snapshot = inspectMachine(InspectOptions {});
            candidates = candidateVariants(*snapshot, DiagnosisRules::builtIn());
            haveCandidates = true;
        }
        if (name == "rules") {
            for (const auto& c : candidates)
                add(c);
            continue;
        }
        bool found = false;
        for (const auto& c : candidates) {
            if (c.name == name) {
                add(c);
                found = true;
            }
        }
        if (!found) {
            std::string names;
            for (const auto& c : candidates)
                names += "\n  " + c.name;
            throw UsageError(fmt::format("--variant {}: no such variant for this machine. Use baseline, rules (all of "
                                         "them), one of:{}\nor give any change with --env NAME=VALUE",
                                         name, names.empty() ? "\n  (none: no rule's fix applies here)" : names));
        }
    }
    for (const auto& spec : o.envs) {
        try {
            add(variantFromEnvSpec(spec));
        } catch (const std::invalid_argument& e) {
            throw UsageError(fmt::format("--env {}: {}", spec, e.what()));
        }
    }
    if (out.empty())
        throw UsageError("--no-baseline left no variant to run: add --env NAME=VALUE or --variant NAME");
    return out;
}

std::string cellText(const ProbeRecord& r)
{
    return fmt::format("{} {:.2f}s", probeResultName(r.outcome.outcome), r.seconds);
}

void printGrid(const std::vector<EnvironmentRun>& runs, const std::vector<ProbeVariant>& variants)
{
    struct Column {
        std::size_t run;
        std::string variant, device;
    };
    std::vector<Column> columns;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        std::cout << fmt::format("\n[{}] {}{}", i + 1, runs[i].label,
                                 runs[i].listError.empty() ? "" : " (only the CPU: " + runs[i].listError + ")");
        for (const auto& v : variants) {
            for (const auto& d : runs[i].devices)
                columns.push_back({i, v.name, d.id});
        }
    }
    std::cout << fmt::format("\n\n{:<20}", "probe");
    for (const auto& c : columns)
        std::cout << fmt::format(" | {:<18}", fmt::format("[{}] {}{}", c.run + 1, c.device == "cpu" ? std::string("cpu")
                                                                                       : "gpu " + c.device,
                                                          c.variant == "baseline" ? "" : " *"));
    std::cout << "\n";
    for (const auto& p : probeCatalogue()) {
        std::cout << fmt::format("{:<20}", p.id);
        for (const auto& c : columns) {
            std::string text = "-";
            for (const auto& r : runs[c.run].records) {
                if (r.outcome.probeId == p.id && r.outcome.variant == c.variant && r.outcome.device == c.device)
                    text = cellText(r);
            }
            std::cout << fmt::format(" | {:<18}", text);
        }
        std::cout << "\n";
    }
    for (const auto& v : variants) {
        if (v.name != "baseline")
            std::cout << fmt::format("* variant {}{}\n", v.name,
                                     v.ruleIds.empty() ? "" : fmt::format(" (from {})", fmt::join(v.ruleIds, ", ")));
    }
}

// Tests only (packaging/headless-job.sh's test forces a probe to fail): STACKSCOPE_TEST_INJECT=KIND:PROBE gives that
// probe an injected fault (the probe-worker's --inject kinds). Announced on stderr, so it is never silent.
void applyTestInjection(ProbeRunOptions& run)
{
    const std::string s = envValue(EnvVar::TestInject);
    if (s.empty())
        return;
    const auto colon = s.find(':');
    run.inject = s.substr(0, colon);
    run.injectProbe = colon == std::string::npos ? std::string() : s.substr(colon + 1);
    std::cerr << fmt::format("stackscope-cli probe: STACKSCOPE_TEST_INJECT={} (a test's fault injection) is set\n", s);
}

void printCatalogue()
{
    for (const auto& p : probeCatalogue()) {
        std::cout << fmt::format("{:<20} {:<12} {}{}{}\n", p.id, p.model, p.checks,
                                 p.scope == ProbeScope::MultiGpu ? " (two or more GPUs)" : "",
                                 p.runtime == ProbeRuntime::PythonOnly     ? " (Python environments only)"
                                     : p.runtime == ProbeRuntime::LibtorchOnly ? " (libtorch only)"
                                                                               : "");
    }
}

void checkOptions(const ProbeCliOptions& o)
{
    for (const auto& id : o.probes) {
        if (!findProbe(id))
            throw UsageError(fmt::format("--probe {}: no such probe; `stackscope-cli probe --list` shows the ids", id));
    }
    for (const auto& d : o.devices) {
        if (d != "cpu" && (d.empty() || d.find_first_not_of("0123456789") != std::string::npos))
            throw UsageError(fmt::format("--device {}: give cpu or a GPU index such as 0", d));
    }
    if (o.libtorch && o.noLibtorch)
        throw UsageError("--libtorch and --no-libtorch contradict each other; give one");
    if (o.noLibtorch && o.pythons.empty())
        throw UsageError("--no-libtorch leaves nothing to probe: add --python auto or --python PATH");
}

// StackScope's libtorch (unless --no-libtorch) and each Python environment asked for, all with `run`'s options.
std::vector<EnvironmentRun> environmentRuns(const ProbeCliOptions& o, const ProbeRunOptions& run)
{
    std::vector<EnvironmentRun> runs;
    if (!o.noLibtorch)
        runs.push_back({"libtorch (StackScope)", run, {}, {}, {}});
    const auto pythons = resolvePythons(o.pythons);
    if (!o.pythons.empty() && pythons.empty() && o.noLibtorch)
        throw UsageError("--python auto found no Python interpreter with torch (see `stackscope-cli inspect`); "
                         "give one with --python PATH");
    for (const auto& py : pythons) {
        ProbeRunOptions p = run;
        p.python = py;
        runs.push_back({"python " + py, p, {}, {}, {}});
    }
    return runs;
}

// Environments side by side (each with --jobs children: a Python worker's start is mostly `import torch`); with
// `live` each result is printed as it arrives.
void runEnvironments(std::vector<EnvironmentRun>& runs, bool live)
{
    std::mutex printMutex;
    TaskRunner::shared().together(runs.size(), [&runs, &printMutex, live](std::size_t i) {
        EnvironmentRun& er = runs[i];
        ProbeRunner runner(er.options);
        er.records = runner.run([live, &er, &printMutex](const ProbeRecord& r) {
            if (!live)
                return;
            std::lock_guard<std::mutex> lock(printMutex);
            std::cout << fmt::format("{:<11} {:<20} {:<4} {:<28} {:>7.3f} s  {}  [{}]\n",
                                     probeResultName(r.outcome.outcome), r.outcome.probeId, r.outcome.device,
                                     r.outcome.variant, r.seconds, r.outcome.message, er.label)
                      << std::flush;
        });
        er.devices = runner.devices();
        er.listError = runner.listError();
    });
}

// What the runs found: every record, the diagnosis of them, and each variant against the first.
struct ProbeSummary {
    std::vector<ProbeRecord> records;
    std::vector<Finding> findings;
    std::vector<std::pair<std::string, std::vector<CellChange>>> ab;
    std::size_t failures = 0;
    double wall = 0;
    std::vector<std::string> preflight; // one line per GPU, and a note where it was not applied
};

// The copy probes' GB/s judged as `bench bandwidth` judges them (core/perf, against this machine's link state); the
// machine is inspected here only when a copy probe ran on a GPU and no snapshot was needed before.
void judgeFigures(std::vector<ProbeRecord>& records, std::optional<Snapshot>& snapshot)
{
    const bool any = std::any_of(records.begin(), records.end(), [](const ProbeRecord& r) { return probeFigure(r).has_value(); });
    if (!any)
        return;
    if (!snapshot)
        snapshot = inspectMachine(InspectOptions {});
    judgeCopyProbes(records, *snapshot);
}

ProbeSummary summarise(const std::vector<EnvironmentRun>& runs, const std::vector<ProbeVariant>& variants,
                       std::optional<Snapshot>& snapshot, double wall)
{
    ProbeSummary s;
    s.wall = wall;
    for (const auto& er : runs)
        s.records.insert(s.records.end(), er.records.begin(), er.records.end());
    judgeFigures(s.records, snapshot);
    DiagnosisInput input;
    input.snapshot = snapshot ? &*snapshot : nullptr;
    input.probes = probeOutcomes(s.records);
    s.findings = diagnose(input);
    for (const auto& v : variants) {
        if (v.name != variants.front().name)
            s.ab.emplace_back(v.name, compareVariants(s.records, variants.front().name, v.name));
    }
    for (const auto& r : s.records)
        s.failures += isFailure(r.outcome.outcome) ? 1 : 0;
    return s;
}

void printJson(const std::vector<EnvironmentRun>& runs, const std::vector<ProbeVariant>& variants, const ProbeSummary& s)
{
    nlohmann::json j = probeRunDocument(s.records, runs.front().devices, variants, runs.front().listError);
    j["environments"] = nlohmann::json::array();
    for (const auto& er : runs) {
        nlohmann::json e {{"name", er.label}, {"environment", environmentLabel(er.options)}, {"devices", nlohmann::json::array()}};
        for (const auto& d : er.devices)
            e["devices"].push_back({{"id", d.id}, {"name", d.name}});
        if (!er.listError.empty())
            e["device_list_error"] = er.listError;
        if (!er.options.python.empty())
            e["python"] = er.options.python;
        j["environments"].push_back(e);
    }
    j["wall_seconds"] = s.wall;
    j["preflight"] = s.preflight;
    j["ab"] = nlohmann::json::array();
    for (const auto& [name, changes] : s.ab) {
        nlohmann::json c = nlohmann::json::array();
        for (const auto& ch : changes)
            c.push_back(toJson(ch));
        j["ab"].push_back({{"baseline", variants.front().name}, {"variant", name}, {"changes", c}});
    }
    j["findings"] = findingsToJson(s.findings)["findings"];
    std::cout << j.dump(2) << "\n";
}

// Each copy probe's GB/s beside what the link should reach, its ratio and verdict (the same as `bench bandwidth`).
void printFigures(const std::vector<ProbeRecord>& records)
{
    bool heading = false;
    for (const auto& r : records) {
        const auto f = judgedFigure(r);
        if (!f)
            continue;
        if (!heading)
            std::cout << "\ncopy figures, judged against this machine's links as `bench bandwidth` judges them:\n";
        heading = true;
        std::cout << "  " << probeFigureText(r, *f) << "\n";
    }
}

void printText(const std::vector<EnvironmentRun>& runs, const std::vector<ProbeVariant>& variants, const ProbeSummary& s)
{
    printGrid(runs, variants);
    printFigures(s.records);
    for (const auto& line : s.preflight)
        std::cout << "pre-flight: " << line << "\n";
    for (const auto& [name, changes] : s.ab) {
        std::cout << fmt::format("\nA/B {} vs {}: {} cell{} changed\n", variants.front().name, name, changes.size(),
                                 changes.size() == 1 ? "" : "s");
        for (const auto& c : changes)
            std::cout << fmt::format("  {:<20} {:<4} {} -> {}  {}  [{}]\n", c.probeId, c.device,
                                     probeResultName(c.before), probeResultName(c.after), c.messageAfter, c.environment);
    }
    for (const auto& f : s.findings)
        std::cout << fmt::format("\nfinding [{}] {}: {}\n  run `stackscope-cli diagnose` for causes and fixes\n",
                                 severityName(f.severity), f.id, f.title);
    std::cout << fmt::format("\n{} result{}, {} not ok, wall time {:.2f} s\n", s.records.size(),
                             s.records.size() == 1 ? "" : "s", s.failures, s.wall);
}

// The whole command after --list; returns the exit code.
int probeNow(const ProbeCliOptions& o)
{
    checkOptions(o);
    std::optional<Snapshot> snapshot;
    ProbeRunOptions run;
    run.devices = o.devices;
    run.variants = resolveVariants(o, snapshot);
    run.probeIds = o.probes;
    run.timeout = std::chrono::milliseconds(static_cast<long long>(o.timeout * 1000));
    run.parallelCells = o.jobs;
    applyTestInjection(run);
    const auto t0 = std::chrono::steady_clock::now();
    // Pre-flight: a GPU another process has filled ends its cells at once, with one line naming the holder.
    auto pre = probePreflight(); // once for every environment of the run
    run.gpusWithoutRoom = pre.gpusWithoutRoom;
    auto runs = environmentRuns(o, run);
    runEnvironments(runs, !o.json);
    auto summary = summarise(runs, run.variants, snapshot,
                             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    summary.preflight = std::move(pre.lines);
    if (o.json)
        printJson(runs, run.variants, summary);
    else
        printText(runs, run.variants, summary);
    return summary.failures ? ExitCheckFailed : ExitOk;
}

void addProbeCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand("probe", "Run the compatibility probes: each op on each device, in child processes");
    auto opts = std::make_shared<ProbeCliOptions>();
    cmd->add_option("--device", opts->devices, "cpu or a GPU index (repeatable; default: the CPU and every GPU libtorch sees)");
    cmd->add_option("--variant", opts->variants,
                    "baseline, rules (every fix of the diagnosis rules that applies here), or one of their names (repeatable)");
    cmd->add_option("--env", opts->envs, "An environment variant NAME=VALUE[,NAME2=VALUE2] (-NAME unsets; repeatable, one variant each)");
    cmd->add_option("--probe", opts->probes, "Run only these probe ids (repeatable; see --list)");
    cmd->add_option("--timeout", opts->timeout, "Seconds a probe may run before it is killed and reported as a hang")
        ->check(CLI::Range(0.1, 3600.0));
    cmd->add_option("--jobs", opts->jobs, "Child processes at once, per environment (environments run side by side); "
                                          "0: half the CPU's threads, 2 to 8")->check(CLI::Range(0, 16));
    cmd->add_flag("--no-baseline", opts->noBaseline, "Run only the variants given");
    cmd->add_flag("--json", opts->json, "Print the results as JSON");
    cmd->add_option("--python", opts->pythons,
                    "Also probe a Python environment's PyTorch: auto (every interpreter with torch found, see `inspect`), "
                    "an interpreter or an environment's folder (repeatable)");
    cmd->add_flag("--libtorch", opts->libtorch, "Probe StackScope's libtorch (the default; with --python it runs too)");
    cmd->add_flag("--no-libtorch", opts->noLibtorch, "Probe only the Python environments");
    auto* list = cmd->add_flag("--list", "Print the catalogue (ids, error models, checks) and exit");
    cmd->callback([opts, list, &ctx] {
        if (*list) {
            printCatalogue();
            ctx.exitCode = ExitOk;
            return;
        }
        ctx.exitCode = probeNow(*opts);
    });
}

const CommandRegistration registration {"probe", 30, &addProbeCommand};

} // namespace

} // namespace stackscope::cli
