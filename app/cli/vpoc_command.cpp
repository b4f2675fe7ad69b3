// `stackscope-cli vpoc`: volume profiles, POC and value area per session from a bars or trades CSV.
#include "app/cli/command.h"

#include "core/util/atomic_file.h"
#include "core/util/text_escape.h"
#include "core/vpoc/csv_reader.h"
#include "core/vpoc/vpoc_engine.h"
#include "core/vpoc/vpoc_output.h"
#include "core/util/task_runner.h"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <optional>

namespace stackscope::cli {

namespace {

struct VpocCliOptions {
    std::string input;
    std::string format = "auto";
    std::string tick = "0.25";
    std::string session = "globex";
    std::string sessionTz = "America/New_York";
    std::string tz = "America/New_York";
    std::string distribution = "uniform";
    double va = 70;
    std::string vaMethod = "dual";
    std::string backend = "auto";
    uint64_t vramBudget = 1024;
    int64_t gpuSessionRows = int64_t(1) << 22;
    std::string developing;
    bool json = false;
    std::string csv;
    bool skipBad = false;
    bool profiles = false;
    std::string threads = "0";
};

// --threads: a whole number (0 = all); one beyond what an unsigned holds is a number too, capped like any large one
// by runVpoc at the machine's threads. Anything else (a sign, letters, empty) is a usage error.
unsigned parseThreadCount(const std::string& text)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        throw UsageError(fmt::format("--threads {}: not a thread count; give a whole number such as 4, or 0 for "
                                     "every hardware thread ({} here)",
                                     escapeControl(text), usableThreads()));
    uint64_t v = 0;
    for (char c : text) {
        v = v * 10 + static_cast<uint64_t>(c - '0');
        if (v > UINT32_MAX)
            return UINT32_MAX;
    }
    return static_cast<unsigned>(v);
}

void printText(const vpoc::VpocResult& r)
{
    const auto& tick = r.options.read.tick;
    std::cout << fmt::format("VPOC of {} ({}, {} rows, session {} in {}, backend {})\n", r.options.input,
                             vpoc::formatName(r.format), r.rows, r.options.session, r.options.sessionTimeZone,
                             r.backend);
    if (!r.backendNote.empty())
        std::cout << "  " << r.backendNote << "\n";
    std::cout << fmt::format("{:<10} {:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n", "date", "bars", "volume", "low",
                             "high", "val", "poc", "vah");
    auto p = [&](int64_t t) { return fmt::format("{:.{}f}", tick.price(t), tick.decimals); };
    for (const auto& s : r.sessions)
        std::cout << fmt::format("{:<10} {:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n", vpoc::formatDate(s.day),
                                 s.bars, s.volume, p(s.lowTick), p(s.highTick), p(s.valTick), p(s.pocTick),
                                 p(s.vahTick));
    std::cout << fmt::format("{} sessions; {} rows outside every session", r.sessions.size(), r.outsideSessions);
    if (r.skipped.count)
        std::cout << fmt::format("; {} bad rows skipped", r.skipped.count);
    std::cout << "\n";
}

// The command line as the engine's options; a bad tick, value area or input path is a usage error.
vpoc::VpocOptions engineOptions(const VpocCliOptions& o, bool tzGiven)
{
    vpoc::VpocOptions v;
    v.input = o.input;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(o.input, ec))
        throw UsageError(fmt::format("--input {}: no such file (or not a regular file); give the path of a "
                                     "file of bars or trades (or make one with stackscope-cli sample-data "
                                     "--out FILE)",
                                     o.input));
    try {
        v.read.tick = vpoc::Tick::parse(o.tick);
        v.profile.vaBasisPoints = vpoc::percentToBasisPoints(o.va);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    static const std::map<std::string, vpoc::DataFormat> formats {
        {"auto", vpoc::DataFormat::Auto}, {"bars", vpoc::DataFormat::Bars}, {"trades", vpoc::DataFormat::Trades}};
    static const std::map<std::string, vpoc::Distribution> distributions {
        {"uniform", vpoc::Distribution::Uniform}, {"close", vpoc::Distribution::Close},
        {"typical", vpoc::Distribution::Typical}};
    static const std::map<std::string, vpoc::Backend> backends {
        {"auto", vpoc::Backend::Auto}, {"cpu", vpoc::Backend::Cpu}, {"gpu", vpoc::Backend::Gpu}};
    v.read.format = formats.at(o.format);
    v.read.timeZone = o.tz;
    v.read.timeZoneGiven = tzGiven;
    v.read.skipBad = o.skipBad;
    v.session = o.session;
    v.sessionTimeZone = o.sessionTz;
    v.profile.distribution = distributions.at(o.distribution);
    v.profile.method = o.vaMethod == "single" ? vpoc::ValueAreaMethod::Single : vpoc::ValueAreaMethod::Dual;
    v.profile.keepProfiles = o.profiles;
    v.valueAreaPercent = o.va;
    v.backend = backends.at(o.backend);
    v.vramBudgetMiB = o.vramBudget;
    v.maxGpuSessionRows = o.gpuSessionRows;
    v.developing = !o.developing.empty();
    v.threads = parseThreadCount(o.threads);
    return v;
}

// Runs the engine and writes the outputs asked for, all of them or none.
void vpocNow(const VpocCliOptions& o, vpoc::VpocOptions v)
{
    // Both outputs appear together or neither does (an unwritable --csv leaves no --developing behind): both
    // are opened before the run (a bad target fails at once), the developing rows are written to their
    // temporary file as they are made (memory: a piece of kDevelopingPiece values), and commit() renames both.
    StagedOutputs outputs;
    std::optional<std::size_t> developingOut, csvOut;
    if (!o.csv.empty())
        csvOut = outputs.open(o.csv);
    std::optional<vpoc::DevelopingCsv> developingCsv;
    if (!o.developing.empty()) {
        developingOut = outputs.open(o.developing);
        outputs.append(*developingOut, vpoc::DevelopingCsv::header());
        v.developingSink = [&](int32_t day, const vpoc::DevelopingPoint* points, std::size_t count) {
            outputs.append(*developingOut, developingCsv->rows(day, points, count));
        };
    }
    std::shared_ptr<const vpoc::VpocResult> r;
    try {
        if (developingOut)
            developingCsv.emplace(v); // parses --session: a bad one is bad usage like in runVpoc
        r = vpoc::runVpoc(v);
    } catch (const vpoc::InputError& e) {
        throw UsageError(e.what());
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if (!r->threadsNote.empty())
        std::cerr << "note: " << r->threadsNote << "\n";
    for (const auto& s : r->skipped.first)
        std::cerr << "skipped " << escapeControl(s) << "\n"; // rows quote the file: no raw ESC
    if (r->skipped.count > static_cast<int64_t>(r->skipped.first.size()))
        std::cerr << fmt::format("skipped {} bad rows in all\n", r->skipped.count);
    if (csvOut)
        outputs.append(*csvOut, vpoc::sessionsCsv(*r));
    outputs.commit();
    if (o.json)
        std::cout << vpoc::toJson(*r, o.profiles).dump(2) << "\n";
    else if (o.csv.empty())
        printText(*r);
}

void addVpocCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand("vpoc", "Volume profile, POC and value area per trading session from a CSV of "
                                           "bars or trades");
    auto o = std::make_shared<VpocCliOptions>();
    cmd->add_option("--input", o->input, "Bars or trades: CSV (timestamp,open,high,low,close,volume or "
                                         "timestamp,price,size), NinjaTrader text, Databento DBN (.zst too) or "
                                         "Sierra Chart .scid, recognised by content")
        ->required();
    cmd->add_option("--format", o->format, "auto, bars or trades")->check(CLI::IsMember({"auto", "bars", "trades"}));
    cmd->add_option("--tick", o->tick, "Price step (ES: 0.25)");
    cmd->add_option("--session", o->session, "globex (18:00-17:00), rth (09:30-16:00) or HH:MM-HH:MM");
    cmd->add_option("--session-tz", o->sessionTz, "Time zone of the session window (tz database name)");
    cmd->add_option("--tz", o->tz, "Time zone of timestamps written without an offset");
    cmd->add_option("--distribution", o->distribution, "How a bar's volume goes to ticks: uniform, close, typical")
        ->check(CLI::IsMember({"uniform", "close", "typical"}));
    cmd->add_option("--va", o->va, "Value area percentage");
    cmd->add_option("--va-method", o->vaMethod, "dual (two levels a side) or single")
        ->check(CLI::IsMember({"dual", "single"}));
    cmd->add_option("--backend", o->backend, "auto (the CPU: faster end to end from a file, as measured), cpu or gpu")
        ->check(CLI::IsMember({"auto", "cpu", "gpu"}));
    cmd->add_option("--vram-budget", o->vramBudget, "GPU memory to use in MiB, allocated once");
    cmd->add_option("--gpu-session-rows", o->gpuSessionRows,
                    "With the GPU: a session of more rows is profiled on the CPU (memory: its price range, not its "
                    "rows; 32 B a row on the GPU path)")
        ->check(CLI::Range(int64_t(1), int64_t(1) << 40));
    cmd->add_option("--developing", o->developing, "Write POC/VAH/VAL after each bar to this CSV file");
    auto* json = cmd->add_flag("--json", o->json, "Print the results as JSON");
    cmd->add_option("--csv", o->csv, "Write the session table to this CSV file")->excludes(json);
    cmd->add_flag("--skip-bad", o->skipBad, "Skip bad rows (reported) instead of stopping at the first");
    cmd->add_flag("--profiles", o->profiles, "Include each session's dense profile in the JSON");
    cmd->add_option("--threads", o->threads, "CPU threads for reading and profiles (0 = all; more than the machine's hardware threads "
                                     "are capped at them, with a note)");
    cmd->callback([o, cmd, &ctx] {
        vpocNow(*o, engineOptions(*o, cmd->count("--tz") > 0));
        ctx.exitCode = ExitOk;
    });
}

const CommandRegistration registration {"vpoc", 40, &addVpocCommand};

} // namespace

} // namespace stackscope::cli
