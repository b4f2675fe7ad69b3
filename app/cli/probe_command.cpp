// `stackscope-cli probe`: the compatibility grid (probe x device x environment variant), each cell
// in a child process, with the A/B view between variants and the diagnosis of what failed.
#include "app/cli/command.h"

#include "core/probes/probe_document.h"

#include "core/diagnosis/diagnosis.h"
#include "core/diagnosis/diagnosis_json.h"
#include "core/inspect/inspector.h"
#include "core/probes/probe_catalogue.h"
#include "core/probes/probe_runner.h"
#include "core/probes/probe_variants.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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
    int jobs = 2;
    bool json = false;
    bool noBaseline = false;
};

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

void printGrid(const std::vector<ProbeRecord>& records, const std::vector<ProbeDevice>& devices,
               const std::vector<ProbeVariant>& variants)
{
    std::vector<std::pair<std::string, std::string>> columns; // (variant, device)
    for (const auto& v : variants) {
        for (const auto& d : devices)
            columns.emplace_back(v.name, d.id);
    }
    std::cout << fmt::format("\n{:<20}", "probe");
    for (const auto& [v, d] : columns)
        std::cout << fmt::format(" | {:<18}", (d == "cpu" ? std::string("cpu") : "gpu " + d) + (v == "baseline" ? "" : " *"));
    std::cout << "\n";
    for (const auto& p : probeCatalogue()) {
        std::cout << fmt::format("{:<20}", p.id);
        for (const auto& [v, d] : columns) {
            std::string text = "-";
            for (const auto& r : records) {
                if (r.outcome.probeId == p.id && r.outcome.variant == v && r.outcome.device == d)
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
    const char* spec = std::getenv("STACKSCOPE_TEST_INJECT");
    if (!spec || !*spec)
        return;
    const std::string s(spec);
    const auto colon = s.find(':');
    run.inject = s.substr(0, colon);
    run.injectProbe = colon == std::string::npos ? std::string() : s.substr(colon + 1);
    std::cerr << fmt::format("stackscope-cli probe: STACKSCOPE_TEST_INJECT={} (a test's fault injection) is set\n", s);
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
    cmd->add_option("--jobs", opts->jobs, "Child processes at once")->check(CLI::Range(1, 16));
    cmd->add_flag("--no-baseline", opts->noBaseline, "Run only the variants given");
    cmd->add_flag("--json", opts->json, "Print the results as JSON");
    auto* list = cmd->add_flag("--list", "Print the catalogue (ids, error models, checks) and exit");
    cmd->callback([opts, list, &ctx] {
        if (*list) {
            for (const auto& p : probeCatalogue()) {
                std::cout << fmt::format("{:<20} {:<12} {}{}\n", p.id, p.model, p.checks,
                                         p.scope == ProbeScope::MultiGpu ? " (two or more GPUs)" : "");
            }
            ctx.exitCode = ExitOk;
            return;
        }
        for (const auto& id : opts->probes) {
            if (!findProbe(id))
                throw UsageError(fmt::format("--probe {}: no such probe; `stackscope-cli probe --list` shows the ids", id));
        }
        for (const auto& d : opts->devices) {
            if (d != "cpu" && (d.empty() || d.find_first_not_of("0123456789") != std::string::npos))
                throw UsageError(fmt::format("--device {}: give cpu or a GPU index such as 0", d));
        }
        std::optional<Snapshot> snapshot;
        ProbeRunOptions run;
        run.devices = opts->devices;
        run.variants = resolveVariants(*opts, snapshot);
        run.probeIds = opts->probes;
        run.timeout = std::chrono::milliseconds(static_cast<long long>(opts->timeout * 1000));
        run.parallelCells = opts->jobs;
        applyTestInjection(run);
        ProbeRunner runner(run);
        const auto t0 = std::chrono::steady_clock::now();
        const bool live = !opts->json;
        auto records = runner.run([live](const ProbeRecord& r) {
            if (live)
                std::cout << fmt::format("{:<11} {:<20} {:<4} {:<28} {:>7.3f} s  {}\n", probeResultName(r.outcome.outcome),
                                         r.outcome.probeId, r.outcome.device, r.outcome.variant, r.seconds,
                                         r.outcome.message)
                          << std::flush;
        });
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

        DiagnosisInput input;
        input.snapshot = snapshot ? &*snapshot : nullptr;
        input.probes = probeOutcomes(records);
        const auto findings = diagnose(input);
        std::vector<std::pair<std::string, std::vector<CellChange>>> ab;
        for (const auto& v : run.variants) {
            if (v.name != run.variants.front().name)
                ab.emplace_back(v.name, compareVariants(records, run.variants.front().name, v.name));
        }
        std::size_t failures = 0;
        for (const auto& r : records)
            failures += isFailure(r.outcome.outcome) ? 1 : 0;

        if (opts->json) {
            nlohmann::json j = probeRunDocument(records, runner.devices(), run.variants, runner.listError());
            j["wall_seconds"] = wall;
            j["ab"] = nlohmann::json::array();
            for (const auto& [name, changes] : ab) {
                nlohmann::json c = nlohmann::json::array();
                for (const auto& ch : changes)
                    c.push_back(toJson(ch));
                j["ab"].push_back({{"baseline", run.variants.front().name}, {"variant", name}, {"changes", c}});
            }
            j["findings"] = findingsToJson(findings)["findings"];
            std::cout << j.dump(2) << "\n";
        } else {
            if (!runner.listError().empty())
                std::cout << fmt::format("note: only the CPU was probed: {}\n", runner.listError());
            printGrid(records, runner.devices(), run.variants);
            for (const auto& [name, changes] : ab) {
                std::cout << fmt::format("\nA/B {} vs {}: {} cell{} changed\n", run.variants.front().name, name,
                                         changes.size(), changes.size() == 1 ? "" : "s");
                for (const auto& c : changes)
                    std::cout << fmt::format("  {:<20} {:<4} {} -> {}  {}\n", c.probeId, c.device,
                                             probeResultName(c.before), probeResultName(c.after), c.messageAfter);
            }
            for (const auto& f : findings)
                std::cout << fmt::format("\nfinding [{}] {}: {}\n  run `stackscope-cli diagnose` for causes and fixes\n",
                                         severityName(f.severity), f.ruleId, f.title);
            std::cout << fmt::format("\n{} result{}, {} not ok, wall time {:.2f} s\n", records.size(),
                                     records.size() == 1 ? "" : "s", failures, wall);
        }
        ctx.exitCode = failures ? ExitCheckFailed : ExitOk;
    });
}

const CommandRegistration registration {"probe", 30, &addProbeCommand};

} // namespace

} // namespace stackscope::cli
