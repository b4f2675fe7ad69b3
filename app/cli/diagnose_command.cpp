// `stackscope-cli diagnose`: the diagnosis rules over a snapshot (this machine's or a file) and logs.
#include "app/cli/command.h"

#include "core/diagnosis/diagnosis.h"
#include "core/diagnosis/diagnosis_json.h"
#include "core/inspect/inspector.h"
#include "core/snapshot/snapshot_json.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace stackscope::cli {

namespace {

std::string readLog(const std::string& path)
{
    if (path == "-") {
        std::ostringstream ss;
        ss << std::cin.rdbuf();
        return ss.str();
    }
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        throw UsageError(fmt::format("--log {}: no such file; give the path of a saved log (or - to read stdin)", path));
    if (std::filesystem::is_directory(path, ec))
        throw UsageError(fmt::format("--log {}: is a folder; give a log file", path));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw UsageError(fmt::format("--log {}: cannot be read (permissions?); copy it somewhere readable", path));
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad())
        throw UsageError(fmt::format("--log {}: read error; copy the log to a local file and try again", path));
    return ss.str();
}

const char* triState(const std::optional<bool>& b, const char* yes, const char* no, const char* unknown)
{
    return b ? (*b ? yes : no) : unknown;
}

void printText(const std::vector<DiagnosisFinding>& findings, const std::string& snapshotOrigin, std::size_t logs)
{
    std::cout << fmt::format("StackScope diagnosis: snapshot {}, {} log{}\n\n", snapshotOrigin, logs, logs == 1 ? "" : "s");
    if (findings.empty()) {
        std::cout << "No rule matched.\n";
        return;
    }
    for (const auto& f : findings) {
        std::cout << fmt::format("[{}] {}: {}\n  confidence {}{}\n  cause: {}\n", severityName(f.severity), f.ruleId,
                                 f.title, confidenceName(f.confidence),
                                 f.confidenceNote.empty() ? "" : " (" + f.confidenceNote + ")", f.cause);
        std::cout << fmt::format("  applies to this snapshot: {}\n", triState(f.applies, "yes", "no", "unknown"));
        for (const auto& a : f.applicability)
            std::cout << "    " << a << "\n";
        std::cout << fmt::format("  evidence ({} match{}):\n", f.evidenceCount, f.evidenceCount == 1 ? "" : "es");
        for (const auto& e : f.evidence) {
            std::cout << fmt::format("    {}{}: {}\n", e.origin, e.line ? fmt::format(":{}", *e.line) : "", e.text);
        }
        std::cout << "  fixes, in order:\n";
        int n = 1;
        for (const auto& fix : f.fixes) {
            std::cout << fmt::format("    {}. {}{}{}\n", n++, fix.text,
                                     fix.applies == std::optional<bool>(false) ? " (not for this GPU)" : "",
                                     fix.env.empty() || fix.diagnostic
                                         ? ""
                                         : fmt::format(" [{}]", triState(fix.verified, "verified here", "did not work here",
                                                                        "not verified")));
        }
        std::cout << fmt::format("  sources: {}\n\n", fmt::join(f.sources, "; "));
    }
}

void addDiagnoseCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand("diagnose", "Name causes and fixes from a snapshot and logs (rules: resources/rules/diagnosis.json)");
    struct Options {
        std::string snapshot;
        std::vector<std::string> logs;
        bool json = false;
    };
    auto opts = std::make_shared<Options>();
    cmd->add_option("--snapshot", opts->snapshot,
                    "Snapshot JSON (stackscope-cli inspect --json, or --out) to diagnose; default: inspect this machine");
    cmd->add_option("--log", opts->logs, "A log to scan (repeatable; - reads stdin): Python tracebacks, probe stderr, dmesg ...");
    cmd->add_flag("--json", opts->json, "Print {\"findings\": [...]} as JSON");
    cmd->callback([opts, &ctx] {
        // Logs first: a wrong path should fail at once, not after inspecting the machine.
        DiagnosisInput input;
        for (const auto& path : opts->logs)
            input.logs.push_back({path == "-" ? "stdin" : path, readLog(path)});
        std::optional<Snapshot> snapshot;
        std::string origin;
        if (!opts->snapshot.empty()) {
            std::error_code ec;
            if (!std::filesystem::is_regular_file(opts->snapshot, ec))
                throw UsageError(fmt::format("--snapshot {}: no such file; create one with "
                                             "`stackscope-cli inspect --out FILE`", opts->snapshot));
            try {
                snapshot = loadSnapshotFile(opts->snapshot);
            } catch (const SnapshotError& e) {
                throw UsageError(fmt::format("--snapshot: {}", e.what()));
            }
            origin = opts->snapshot;
        } else {
            snapshot = inspectMachine(InspectOptions {});
            origin = "of this machine";
        }
        input.snapshot = &*snapshot;
        const auto findings = diagnose(input);
        if (opts->json)
            std::cout << findingsToJson(findings).dump(2) << "\n";
        else
            printText(findings, origin, input.logs.size());
        ctx.exitCode = ExitOk;
    });
}

const CommandRegistration registration {"diagnose", 40, &addDiagnoseCommand};

} // namespace

} // namespace stackscope::cli
