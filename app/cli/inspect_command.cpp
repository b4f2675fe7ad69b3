// `stackscope-cli inspect`: the snapshot of this machine (or of a recorded root) as text or JSON.
#include "app/cli/command.h"

#include "core/diagnosis/machine_diagnosis.h"

#include "core/archscan/snapshot_coverage.h"
#include "core/inspect/inspector.h"
#include "core/perf/expectation.h"
#include "core/perf/perf_json.h"
#include "core/python/python_envs.h"
#include "core/snapshot/pcie_links.h"
#include "core/snapshot/snapshot_json.h"
#include "core/snapshot/stack_rows.h"
#include "core/util/text_escape.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>

namespace stackscope::cli {

namespace {

void printPythonEnvs(const nlohmann::json& envs)
{
    if (envs.is_null())
        return;
    std::cout << "\nPython environments\n";
    if (envs.empty())
        std::cout << "  none found\n";
    for (const auto& e : envs) {
        // Every value came from files or interpreters anybody may have put there: escaped before the terminal sees it.
        const auto str = [&](const char* k) {
            return e.contains(k) && e[k].is_string() ? escapeControl(e[k].get<std::string>()) : std::string();
        };
        std::string torch = e.value("has_torch", nlohmann::json()) == true
            ? fmt::format("torch {} ({}{})", str("torch_version"), str("build"),
                          !str("hip_version").empty() ? " HIP " + str("hip_version")
                                                      : !str("cuda_version").empty() ? " CUDA " + str("cuda_version") : "")
            : e.value("has_torch", nlohmann::json()) == false ? "no torch"
            : !str("not_started").empty()                  ? "not started: " + str("not_started")
                                                           : "not usable: " + str("error");
        std::cout << fmt::format("  {:<44} {:<12} python {:<8} {}\n", str("path"), str("source"), str("python_version"), torch);
        if (!str("probe_command").empty())
            std::cout << fmt::format("      to look inside it: {}\n", str("probe_command"));
        if (!str("torch_version_note").empty())
            std::cout << fmt::format("      torch version unknown: {}\n", str("torch_version_note"));
        if (e.contains("arch_list") && e["arch_list"].is_array())
            std::cout << fmt::format("      arch list: {}\n", escapeControl(e["arch_list"].dump()));
        for (const auto& d : e.value("devices", nlohmann::json::array()))
            std::cout << fmt::format("      [{}] {} {}\n", d.value("index", 0), escapeControl(d.value("name", std::string())),
                                     d.contains("gcnArchName") && d["gcnArchName"].is_string()
                                         ? escapeControl(d["gcnArchName"].get<std::string>())
                                         : "");
        if (!str("blas_backend").empty())
            std::cout << fmt::format("      preferred BLAS: {}\n", str("blas_backend"));
        for (const char* m : {"amdsmi", "pynvml"}) {
            if (!str(m).empty())
                std::cout << fmt::format("      import {}: {}\n", m, str(m));
        }
        for (const char* k : {"details_error", "import_error", "collect_env_error"}) {
            if (!str(k).empty())
                std::cout << fmt::format("      {}: {}\n", k, str(k));
        }
    }
}

void printGpuExtras(const GpuInfo& g)
{
    if (!g.firmware.empty()) {
        std::vector<std::string> fw;
        for (const auto& [block, version] : g.firmware)
            fw.push_back(block + " " + version);
        std::cout << fmt::format("      firmware: {}\n", fmt::join(fw, ", "));
    }
    for (const auto& l : g.pcieLinks)
        std::cout << fmt::format("      PCIe {}: {}\n", l.device.empty() ? "link" : l.device, describeLink(l));
}

// What each link should carry, from its state (core/perf, as `bench bandwidth` judges it); measured by bench bandwidth.
void printLinkExpectations(const Snapshot& s)
{
    const auto links = perf::linkExpectations(s);
    if (links.empty())
        return;
    std::cout << "\nLinks (what each should carry each way; `stackscope-cli bench bandwidth` measures them)\n";
    for (const auto& f : links)
        std::cout << fmt::format("  {:<11} {:<16} {}\n", perf::info(f.test).id, perf::figureWhere(f), f.rule);
}

// The snapshot as JSON, with the expected value of each link (figures of stackscope.bandwidth/1, not measured).
nlohmann::json inspectJson(const Snapshot& s)
{
    auto j = toJson(s);
    j["link_expectations"] = nlohmann::json::array();
    for (const auto& f : perf::linkExpectations(s))
        j["link_expectations"].push_back(perf::toJson(f));
    return j;
}

// What the stack rows do not show: `dkms status` output and the kernel log lines themselves.
void printHostExtras(const HostExtras& h)
{
    if (h.dkmsStatus.empty() && h.kernelLogGpuLines.empty())
        return;
    std::cout << "\nHost\n";
    for (const auto& line : h.dkmsStatus)
        std::cout << fmt::format("  dkms status: {}\n", escapeControl(line));
    if (!h.kernelLogGpuLines.empty())
        std::cout << fmt::format("  amdgpu/KFD kernel log lines ({}):\n", h.kernelLogSource.value_or("?"));
    for (const auto& line : h.kernelLogGpuLines)
        std::cout << fmt::format("    {}\n", escapeControl(line));
}

void printText(const Snapshot& s)
{
    std::cout << fmt::format("StackScope snapshot {}{}\n\n", s.capturedAt, s.root ? " of recorded root " + *s.root : "");
    std::cout << "GPUs\n";
    if (s.gpus.empty())
        std::cout << "  none visible\n";
    for (const auto& g : s.gpus) {
        std::string vram = g.vramTotalBytes ? formatBytes(*g.vramTotalBytes) : "VRAM unknown";
        if (g.vramUsedBytes)
            vram += fmt::format(" ({} used)", formatBytes(*g.vramUsedBytes));
        std::cout << fmt::format("  [{}] {} {}  {}  {}  {}  driver {}  (from {})\n", g.index, g.vendor, g.name,
                                 g.arch.value_or("arch unknown"), vram, g.pciBus.value_or("bus unknown"),
                                 g.driverVersion.value_or("-"), g.source);
        printGpuExtras(g);
    }
    printLinkExpectations(s);
    // The checks and what the rules say about this snapshot (the one diagnosis): the System page shows the same.
    MachineDiagnosisInput input;
    input.snapshot = &s;
    const MachineDiagnosis d = diagnoseMachine(input);
    const auto& findings = d.findings;
    std::cout << "\nStack\n";
    for (const auto& r : stackRows(s, findings)) {
        std::cout << fmt::format("  {:<18} {:<28} {:<8} {}{}\n", r.component, r.version, stackStatusName(r.status),
                                 r.location, r.note.empty() ? "" : "  (" + r.note + ")");
    }
    printHostExtras(s.hostExtras);
    std::cout << "\nDevice access\n";
    auto node = [](const DeviceNode& n) {
        if (!n.exists)
            return fmt::format("  {} absent\n", n.path);
        return fmt::format("  {} mode {} group {} read-write {}\n", n.path, n.mode.value_or("unknown"), n.group.value_or("unknown"),
                           n.readWrite ? (*n.readWrite ? "yes" : "NO") : "unknown");
    };
    std::cout << node(s.access.kfd);
    for (const auto& r : s.access.renderNodes)
        std::cout << node(r);
    if (s.access.user)
        std::cout << fmt::format("  user {} in groups: {}\n", *s.access.user, fmt::join(s.access.userGroups, ", "));
    else
        std::cout << fmt::format("  user and groups unknown ({})\n", s.root ? "not recorded: .stackscope/id" : "could not be read");
    std::cout << "\nEnvironment (GPU-related, set)\n";
    if (s.env.empty())
        std::cout << "  none set\n";
    for (const auto& [k, v] : s.env)
        std::cout << fmt::format("  {}={}\n", escapeControl(k), escapeControl(v));
    printPythonEnvs(s.pythonEnvs);
    std::cout << "\nFindings\n";
    if (findings.empty())
        std::cout << "  none\n";
    for (const auto& f : findings) {
        std::cout << fmt::format("  [{}] {}: {}\n      {}\n      Fix: {}\n      Sources: {}\n", severityName(f.severity), f.id,
                                 f.title, f.detail, firstFix(f), fmt::join(f.sources, "; "));
    }
    if (!d.notChecked.empty())
        std::cout << "\nNot checked (unknown)\n";
    for (const auto& n : d.notChecked)
        std::cout << fmt::format("  {}: {}\n      why: {}\n      to check: {}\n", n.id, n.what, n.why, n.check);
    std::cout << fmt::format("\nVerdict: {}\n", verdictStateName(d.verdict));
    std::cout << "\n" << stackSummary(s, findings) << "\n";
}

} // namespace

namespace {

void addInspectCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand("inspect", "Show the GPUs, ROCm/CUDA/libtorch versions, device access and findings");
    struct Options {
        bool json = false;
        bool noArchscan = false;
        std::string root;
        std::string out;
        std::vector<std::string> pythons;
        bool noPython = false;
        bool pythonDetails = false;
        bool collectEnv = false;
    };
    auto opts = std::make_shared<Options>();
    cmd->add_flag("--json", opts->json, "Print the snapshot as JSON (schema stackscope.snapshot/1)");
    cmd->add_option("--root", opts->root,
                    "Read file-based facts (/opt, /sys, /proc, /etc, /dev listing) under DIR instead of /; "
                    "run-time library facts are then null");
    cmd->add_option("--out", opts->out, "Also write the JSON snapshot to FILE (atomically)");
    cmd->add_option("--python", opts->pythons, "Also look at this interpreter or environment folder (repeatable)");
    cmd->add_flag("--no-python", opts->noPython, "Do not look for Python environments (python_envs is then null)");
    cmd->add_flag("--python-details", opts->pythonDetails,
                  "Import torch in each Python environment: arch list, devices, BLAS backend, amdsmi/pynvml (seconds each)");
    cmd->add_flag("--collect-env", opts->collectEnv,
                  "Also keep `python -m torch.utils.collect_env` of each environment (slow: for reports)");
    cmd->add_flag("--no-archscan", opts->noArchscan,
                  "Skip the kernel coverage scan (arch_coverage is then null); it takes a few seconds on large libraries");
    cmd->callback([opts, &ctx] {
        InspectOptions o;
        if (!opts->root.empty()) {
            std::error_code ec;
            if (!std::filesystem::is_directory(opts->root, ec))
                throw UsageError(fmt::format("--root {}: not a folder; give the folder of a recorded machine "
                                             "(see packaging/record-root.sh)", opts->root));
            o.root = opts->root;
        }
        Snapshot s = inspectMachine(o);
        if (!opts->noArchscan)
            archscan::addArchCoverage(s);
        if (!opts->noPython && opts->root.empty()) {
            PythonPlaces places = PythonPlaces::fromEnvironment();
            places.userAdded = opts->pythons;
            PythonQueryOptions q;
            q.details = opts->pythonDetails || opts->collectEnv;
            q.collectEnv = opts->collectEnv;
            s.pythonEnvs = queryPythonEnvs(pythonCandidates(places), q);
        }
        if (!opts->out.empty())
            saveSnapshotFile(s, opts->out);
        if (opts->json)
            std::cout << inspectJson(s).dump(2) << "\n";
        else
            printText(s);
        ctx.exitCode = ExitOk;
    });
}

const CommandRegistration registration {"inspect", 10, &addInspectCommand};

} // namespace

} // namespace stackscope::cli
