// `stackscope-cli diagnose`: the diagnosis rules over a snapshot (this machine's, a file, or the facts the
// logs state) and logs read as bounded streams.
#include "app/cli/command.h"

#include "core/archscan/snapshot_coverage.h"
#include "core/diagnosis/diagnosis.h"
#include "core/diagnosis/log_reader.h"
#include "core/diagnosis/machine_diagnosis.h"
#include "core/inspect/inspector.h"
#include "core/snapshot/snapshot_json.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <filesystem>
#include <fstream>
#include <iostream>

namespace stackscope::cli {

namespace {

// Control bytes from input (ESC sequences, CR, BEL ...) shown as \xNN so they cannot drive the terminal.
std::string safe(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (unsigned char c : s) {
        if (c < 0x20 || c == 0x7f)
            out += fmt::format("\\x{:02x}", c);
        else
            out.push_back(static_cast<char>(c));
    }
    return out;
}

using ReadLog = ReadLogText;

// Closes the descriptor it holds.
struct FdCloser {
    int fd = -1;
    ~FdCloser()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

ReadLog readLog(const std::string& path)
{
    if (path == "-") {
        // `diagnose --log - < /` hands a folder as stdin: reading it fails at once (EISDIR), which must not read as
        // an empty log with no known cause.
        struct stat st {};
        if (::fstat(STDIN_FILENO, &st) == 0 && S_ISDIR(st.st_mode))
            throw UsageError("--log -: stdin is a folder, not a log; pipe the log in (`command 2>&1 | stackscope-cli "
                             "diagnose --log -`), redirect a file (`< FILE`) or give --log FILE");
        auto r = readLogFd(STDIN_FILENO, LogReadLimits {}, interestingLine);
        if (!r.readError.empty())
            throw UsageError(fmt::format("--log -: stdin could not be read ({}); save the log to a file and give "
                                         "--log FILE", safe(r.readError)));
        return {"stdin", std::move(r)};
    }
    // Opened without blocking and checked on the descriptor: a FIFO with no writer (or a path swapped for one after
    // a stat) is refused at once instead of hanging the open.
    FdCloser file {::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (file.fd < 0) {
        const int err = errno;
        if (err == ENOENT || err == ENOTDIR)
            throw UsageError(fmt::format("--log {}: no such file; give the path of a saved log (or - to read stdin)",
                                         safe(path)));
        throw UsageError(fmt::format("--log {}: cannot be opened ({}); check the permissions or copy it somewhere "
                                     "readable", safe(path), std::strerror(err)));
    }
    struct stat st {};
    if (::fstat(file.fd, &st) != 0)
        throw UsageError(fmt::format("--log {}: cannot be examined ({}); copy the log to a local file and try again",
                                     safe(path), std::strerror(errno)));
    if (S_ISDIR(st.st_mode))
        throw UsageError(fmt::format("--log {}: is a folder; give a log file", safe(path)));
    if (!S_ISREG(st.st_mode))
        throw UsageError(fmt::format("--log {}: is not a regular file (a pipe, device or socket would block or never "
                                     "end); save the log to a file, or pipe it in with --log -", safe(path)));
    const int flags = ::fcntl(file.fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(file.fd, F_SETFL, flags & ~O_NONBLOCK);
    auto r = readLogFd(file.fd, LogReadLimits {}, interestingLine);
    if (!r.readError.empty())
        throw UsageError(fmt::format("--log {}: read error ({}); copy the log to a local file and try again", safe(path),
                                     safe(r.readError)));
    return {path, std::move(r)};
}

const char* triState(const std::optional<bool>& b, const char* yes, const char* no, const char* unknown)
{
    return b ? (*b ? yes : no) : unknown;
}

// A system check's finding carries one fix and its evidence is the snapshot itself; a rule's finding carries its
// matches, its rank and its fixes in order. Lines with nothing to say are left out (no empty "fixes, in order:").
void printFinding(const Finding& f)
{
    std::cout << fmt::format("[{}] {}: {}\n", severityName(f.severity), f.id, findingHeadline(f));
    if (!f.rankNote.empty())
        std::cout << fmt::format("  rank: {}\n", f.rankNote);
    std::cout << fmt::format("  confidence {}{}\n  cause: {}\n", confidenceName(f.confidence),
                             f.confidenceNote.empty() ? "" : " (" + f.confidenceNote + ")", f.detail);
    if (f.applies || !f.applicability.empty())
        std::cout << fmt::format("  applies to this snapshot: {}\n", triState(f.applies, "yes", "no", "unknown"));
    for (const auto& a : f.applicability)
        std::cout << "    " << safe(a) << "\n";
    if (f.evidenceCount > 0 || !f.evidence.empty())
        std::cout << fmt::format("  evidence ({} match{}):\n", f.evidenceCount, f.evidenceCount == 1 ? "" : "es");
    const bool guess = isGuessFromWords(f); // the words that made the guess, after its line
    for (const auto& e : f.evidence)
        std::cout << fmt::format("    {}{}: {}{}\n", safe(e.origin), e.line ? fmt::format(":{}", *e.line) : "", safe(e.text),
                                 guess ? " (" + safe(e.signature) + ")" : "");
    if (!f.fix.empty())
        std::cout << fmt::format("  fix: {}\n", f.fix);
    if (!f.fixes.empty())
        std::cout << "  fixes, in order:\n";
    int n = 1;
    for (const auto& fix : f.fixes) {
        std::cout << fmt::format("    {}. {}{}{}\n", n++, fix.text,
                                 fix.applies == std::optional<bool>(false) ? " (not for this GPU)" : "",
                                 fix.env.empty() || fix.diagnostic
                                     ? ""
                                     : fmt::format(" [{}]", triState(fix.verified, "verified here", "did not work here", "not verified")));
    }
    std::cout << fmt::format("  sources: {}\n\n", fmt::join(f.sources, "; "));
}

// What could not be checked, with why and how to check it by hand: unknown, never ok.
void printNotChecked(const std::vector<NotChecked>& notChecked)
{
    if (notChecked.empty())
        return;
    std::cout << "Not checked (unknown):\n";
    for (const auto& n : notChecked)
        std::cout << fmt::format("  {}: {}\n    why: {}\n    to check: {}\n", n.id, n.what, n.why, n.check);
    std::cout << "\n";
}

void printText(const MachineDiagnosis& d, const std::string& snapshotOrigin, const std::vector<ReadLog>& logs)
{
    const auto& findings = d.findings;
    const auto& facts = d.logFacts;
    std::cout << fmt::format("StackScope diagnosis: snapshot {}, {} log{}\n", safe(snapshotOrigin), logs.size(),
                             logs.size() == 1 ? "" : "s");
    for (const auto& l : logs) {
        if (const auto note = l.read.encodingNote(); !note.empty())
            std::cout << fmt::format("  {}: {}\n", safe(l.origin), note);
        if (const auto s = l.read.summary(); !s.empty())
            std::cout << fmt::format("  {}: {}\n", safe(l.origin), s);
    }
    if (!facts.empty()) {
        std::cout << "Facts the logs state:\n";
        for (const auto& f : facts)
            std::cout << "  " << safe(f) << "\n";
    }
    std::cout << fmt::format("\nVerdict: {}\n\n", verdictStateName(d.verdict));
    printNotChecked(d.notChecked);
    const bool claims = std::any_of(findings.begin(), findings.end(), [](const auto& f) { return f.severity != Severity::Info; });
    if (!claims)
        std::cout << (logs.empty() ? "No rule matched.\n\n"
                                   : fmt::format("No known cause: no rule names a cause for this text{}. Search the exact "
                                                 "error message in the tracker of the program that printed it.\n\n",
                                                 facts.empty() ? "" : " (the facts above are what it states)"));
    for (const auto& f : findings)
        printFinding(f);
}

struct Options {
    std::string snapshot;
    std::string root;
    bool noArchscan = false;
    std::vector<std::string> logs;
    bool json = false;
    bool logOnly = false;
};

// The machine to diagnose: a snapshot file, a recorded root or this machine, inspected as the GUI does (the machine,
// then the kernel coverage scan); null with --log-only (the facts the logs state stand in).
std::optional<Snapshot> loadOrInspect(const Options& o, std::string& origin)
{
    if (!o.snapshot.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(o.snapshot, ec))
            throw UsageError(fmt::format("--snapshot {}: no such file; create one with `stackscope-cli inspect --out FILE`",
                                         safe(o.snapshot)));
        try {
            origin = o.snapshot;
            return loadSnapshotFile(o.snapshot);
        } catch (const SnapshotError& e) {
            throw UsageError(fmt::format("--snapshot: {}", safe(e.what())));
        }
    }
    if (o.logOnly) {
        origin = "from the facts the logs state";
        return std::nullopt;
    }
    InspectOptions options;
    if (!o.root.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_directory(o.root, ec))
            throw UsageError(fmt::format("--root {}: not a folder; give the folder of a recorded machine "
                                         "(see packaging/record-root.sh)", safe(o.root)));
        options.root = o.root;
        origin = "of the recorded root " + o.root;
    } else {
        origin = "of this machine";
    }
    Snapshot s = inspectMachine(options);
    if (!o.noArchscan)
        archscan::addArchCoverage(s);
    return s;
}

nlohmann::json notCheckedJson(const std::vector<NotChecked>& notChecked)
{
    auto out = nlohmann::json::array();
    for (const auto& n : notChecked)
        out.push_back({{"id", n.id}, {"what", n.what}, {"why", n.why}, {"check", n.check}});
    return out;
}

void addDiagnoseCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand("diagnose", "Name causes and fixes from a snapshot and logs (rules: resources/rules/diagnosis.json and catalogues/)");
    auto opts = std::make_shared<Options>();
    cmd->add_option("--snapshot", opts->snapshot,
                    "Snapshot JSON (stackscope-cli inspect --json, or --out) to diagnose; default: inspect this machine");
    cmd->add_option("--root", opts->root,
                    "Diagnose the recorded machine under DIR (as `inspect --root DIR` and `stackscope --root DIR`)");
    cmd->add_flag("--no-archscan", opts->noArchscan,
                  "Skip the kernel coverage scan of the inspected machine (its ARCH_NOT_COVERED findings then absent)");
    cmd->add_option("--log", opts->logs, "A log to scan (repeatable; - reads stdin): Python tracebacks, probe stderr, dmesg ...");
    cmd->add_flag("--log-only", opts->logOnly,
                  "Do not inspect this machine: use the facts the logs state (GPUs, torch, ROCm, env) as the snapshot");
    cmd->add_flag("--json", opts->json,
                  "Print {\"verdict\": ..., \"findings\": [...], \"not_checked\": [...], \"facts\": [...], \"logs\": [...]} as JSON");
    cmd->callback([opts, &ctx] {
        if (opts->logOnly && (opts->logs.empty() || !opts->snapshot.empty() || !opts->root.empty()))
            throw UsageError("--log-only needs at least one --log and no --snapshot or --root");
        if (!opts->snapshot.empty() && !opts->root.empty())
            throw UsageError("--snapshot and --root both name the machine to diagnose; give one of them");
        std::vector<ReadLog> logs; // logs first: a wrong path should fail at once, not after inspecting the machine
        for (const auto& path : opts->logs)
            logs.push_back(readLog(path));
        std::string origin;
        const std::optional<Snapshot> snapshot = loadOrInspect(*opts, origin);
        MachineDiagnosisInput input;
        input.snapshot = snapshot ? &*snapshot : nullptr;
        input.logs = logs;
        const MachineDiagnosis d = diagnoseMachine(input);
        if (opts->json) {
            auto j = findingsToJson(d.findings);
            j["verdict"] = verdictStateName(d.verdict);
            j["not_checked"] = notCheckedJson(d.notChecked);
            j["facts"] = d.logFacts;
            j["logs"] = nlohmann::json::array();
            for (const auto& l : logs)
                j["logs"].push_back({{"origin", l.origin}, {"lines_read", l.read.linesRead}, {"bytes_read", l.read.bytesRead},
                                     {"lines_skipped", l.read.linesSkipped}, {"bytes_skipped", l.read.bytesSkipped},
                                     {"skipped", l.read.summary()},
                                     {"encoding", l.read.decodedFrom.empty() ? "UTF-8" : l.read.decodedFrom},
                                     {"decoded", l.read.encodingNote()}});
            std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        } else {
            printText(d, origin, logs);
        }
        ctx.exitCode = ExitOk;
    });
}

const CommandRegistration registration {"diagnose", 40, &addDiagnoseCommand};

} // namespace

} // namespace stackscope::cli
