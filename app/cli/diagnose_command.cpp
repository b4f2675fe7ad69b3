// `stackscope-cli diagnose`: the diagnosis rules over a snapshot (this machine's, a file, or the facts the
// logs state) and logs read as bounded streams.
#include "app/cli/command.h"

#include "core/diagnosis/diagnosis.h"
#include "core/diagnosis/log_facts.h"
#include "core/diagnosis/log_reader.h"
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

struct ReadLog {
    std::string origin;
    LogReadResult read;
};

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

// Evidence lines refer to the kept text; give them the original line numbers.
void remapLines(std::vector<Finding>& findings, const std::vector<ReadLog>& logs)
{
    for (auto& f : findings) {
        for (auto& e : f.evidence) {
            for (const auto& l : logs) {
                if (e.source == "log" && e.origin == l.origin && e.line && *e.line >= 1
                    && static_cast<std::size_t>(*e.line) <= l.read.lineNumbers.size())
                    e.line = static_cast<int>(l.read.lineNumbers[static_cast<std::size_t>(*e.line) - 1]);
            }
        }
    }
}

const char* triState(const std::optional<bool>& b, const char* yes, const char* no, const char* unknown)
{
    return b ? (*b ? yes : no) : unknown;
}

void printFinding(const Finding& f)
{
    std::cout << fmt::format("[{}] {}: {}\n  rank: {}\n  confidence {}{}\n  cause: {}\n", severityName(f.severity), f.id,
                             f.title, f.rankNote, confidenceName(f.confidence),
                             f.confidenceNote.empty() ? "" : " (" + f.confidenceNote + ")", f.detail);
    std::cout << fmt::format("  applies to this snapshot: {}\n", triState(f.applies, "yes", "no", "unknown"));
    for (const auto& a : f.applicability)
        std::cout << "    " << safe(a) << "\n";
    std::cout << fmt::format("  evidence ({} match{}):\n", f.evidenceCount, f.evidenceCount == 1 ? "" : "es");
    for (const auto& e : f.evidence)
        std::cout << fmt::format("    {}{}: {}\n", safe(e.origin), e.line ? fmt::format(":{}", *e.line) : "", safe(e.text));
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

void printText(const std::vector<Finding>& findings, const std::string& snapshotOrigin,
               const std::vector<ReadLog>& logs, const std::vector<std::string>& facts)
{
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
    std::cout << "\n";
    const bool claims = std::any_of(findings.begin(), findings.end(), [](const auto& f) { return f.severity != Severity::Info; });
    if (!claims)
        std::cout << (logs.empty() ? "No rule matched.\n\n"
                                   : "No known cause: no rule names a cause for this text (the facts above are what it "
                                     "states). Search the exact error message in the tracker of the program that printed it.\n\n");
    for (const auto& f : findings)
        printFinding(f);
}

struct Options {
    std::string snapshot;
    std::vector<std::string> logs;
    bool json = false;
    bool logOnly = false;
};

Snapshot loadOrInspect(const Options& o, const std::vector<ReadLog>& logs, std::vector<std::string>& facts, std::string& origin)
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
    std::string all;
    for (const auto& l : logs)
        all += l.read.text;
    auto stated = extractLogFacts(NormalizedText(all));
    facts = std::move(stated.lines);
    if (o.logOnly) {
        origin = "from the facts the logs state";
        return std::move(stated.snapshot);
    }
    origin = "of this machine";
    return inspectMachine(InspectOptions {});
}

void addDiagnoseCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand("diagnose", "Name causes and fixes from a snapshot and logs (rules: resources/rules/diagnosis.json and catalogues/)");
    auto opts = std::make_shared<Options>();
    cmd->add_option("--snapshot", opts->snapshot,
                    "Snapshot JSON (stackscope-cli inspect --json, or --out) to diagnose; default: inspect this machine");
    cmd->add_option("--log", opts->logs, "A log to scan (repeatable; - reads stdin): Python tracebacks, probe stderr, dmesg ...");
    cmd->add_flag("--log-only", opts->logOnly,
                  "Do not inspect this machine: use the facts the logs state (GPUs, torch, ROCm, env) as the snapshot");
    cmd->add_flag("--json", opts->json, "Print {\"findings\": [...], \"facts\": [...], \"logs\": [...]} as JSON");
    cmd->callback([opts, &ctx] {
        if (opts->logOnly && (opts->logs.empty() || !opts->snapshot.empty()))
            throw UsageError("--log-only needs at least one --log and no --snapshot");
        std::vector<ReadLog> logs; // logs first: a wrong path should fail at once, not after inspecting the machine
        for (const auto& path : opts->logs)
            logs.push_back(readLog(path));
        std::vector<std::string> facts;
        std::string origin;
        const Snapshot snapshot = loadOrInspect(*opts, logs, facts, origin);
        DiagnosisInput input;
        input.snapshot = &snapshot; // host extras (Secure Boot, dkms, kernel log ...) included

        for (const auto& l : logs)
            input.logs.push_back({l.origin, l.read.text});
        if (auto kernelLog = snapshotKernelLog(snapshot))
            input.logs.push_back(std::move(*kernelLog));
        auto findings = diagnose(input);
        remapLines(findings, logs);
        if (opts->json) {
            auto j = findingsToJson(findings);
            j["facts"] = facts;
            j["logs"] = nlohmann::json::array();
            for (const auto& l : logs)
                j["logs"].push_back({{"origin", l.origin}, {"lines_read", l.read.linesRead}, {"bytes_read", l.read.bytesRead},
                                     {"lines_skipped", l.read.linesSkipped}, {"bytes_skipped", l.read.bytesSkipped},
                                     {"skipped", l.read.summary()},
                                     {"encoding", l.read.decodedFrom.empty() ? "UTF-8" : l.read.decodedFrom},
                                     {"decoded", l.read.encodingNote()}});
            std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        } else {
            printText(findings, origin, logs, facts);
        }
        ctx.exitCode = ExitOk;
    });
}

const CommandRegistration registration {"diagnose", 40, &addDiagnoseCommand};

} // namespace

} // namespace stackscope::cli
