// `stackscope-cli vpoc`: volume profiles, POC and value area per session from a bars or trades CSV.
#include "app/cli/command.h"
#include "app/cli/vpoc_flags.h"

#include "core/util/atomic_file.h"
#include "core/util/text_escape.h"
#include "core/vpoc/csv_reader.h"
#include "core/vpoc/vpoc_engine.h"
#include "core/vpoc/vpoc_options.h"
#include "core/vpoc/vpoc_output.h"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

namespace stackscope::cli {

namespace {

void printText(const vpoc::VpocResult& r)
{
    const auto& tick = r.options.read.tick;
    std::cout << fmt::format("VPOC of {} ({}, {} rows, session {} in {}, backend {})\n", r.options.input,
                             vpoc::formatName(r.format), r.rows, r.options.session.name, r.options.session.zoneName,
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

// The input is a file: checked before the other options, as a person reads the command line.
void checkInput(const std::string& input)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(input, ec))
        throw UsageError(fmt::format("--input {}: no such file (or not a regular file); give the path of a "
                                     "file of bars or trades (or make one with stackscope-cli sample-data "
                                     "--out FILE)",
                                     input));
}

// Runs the engine and writes the outputs asked for, all of them or none.
void vpocNow(vpoc::VpocRequest request)
{
    vpoc::VpocOptions& v = request.options;
    const vpoc::VpocOutputs& o = request.outputs;
    // Both outputs appear together or neither does (an unwritable --csv leaves no --developing behind): both
    // are opened before the run (a bad target fails at once), the developing rows are written to their
    // temporary file as they are made (memory: a piece of kDevelopingPiece values), and commit() renames both.
    StagedOutputs outputs;
    std::optional<std::size_t> developingOut, csvOut;
    if (!o.sessionsCsv.empty())
        csvOut = outputs.open(o.sessionsCsv);
    std::optional<vpoc::DevelopingCsv> developingCsv;
    if (!o.developingCsv.empty()) {
        developingOut = outputs.open(o.developingCsv);
        outputs.append(*developingOut, vpoc::DevelopingCsv::header());
        developingCsv.emplace(v);
        v.developingSink = [&](int32_t day, const vpoc::DevelopingPoint* points, std::size_t count) {
            outputs.append(*developingOut, developingCsv->rows(day, points, count));
        };
    }
    std::shared_ptr<const vpoc::VpocResult> r;
    try {
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
        std::cout << vpoc::toJson(*r, v.profile.keepProfiles).dump(2) << "\n";
    else if (o.sessionsCsv.empty())
        printText(*r);
}

void addVpocCommand(CLI::App& app, CommandContext& ctx)
{
    auto* cmd = app.add_subcommand("vpoc", "Volume profile, POC and value area per trading session from a CSV of "
                                           "bars or trades");
    auto flags = std::make_shared<VpocFlags>();
    flags->add(cmd); // every field of core/vpoc/vpoc_options.h's table that the command line has
    cmd->callback([flags, &ctx] {
        checkInput(flags->text("input"));
        vpocNow(flags->request());
        ctx.exitCode = ExitOk;
    });
}

const CommandRegistration registration {"vpoc", 40, &addVpocCommand};

} // namespace

} // namespace stackscope::cli
