// `stackscope-cli bench bandwidth`: the bandwidth and compute suite (host<->device, device, peer, triad, GEMM,
// collectives), each figure beside what the link or the GPU model should reach and a verdict (core/perf).
#include "app/cli/command.h"

#include "core/inspect/inspector.h"
#include "core/perf/perf_json.h"
#include "core/perf/suite_run.h"
#include "core/perf/verdict.h"

#include <fmt/format.h>

#include <iostream>

namespace stackscope::cli {

namespace {

struct BenchBandwidthOptions {
    std::vector<int> gpus;
    std::vector<std::string> tests;
    std::int64_t maxMiB = 1024;
    int trials = 5;
    bool json = false;
    bool sweep = false;
};

void printRun(const perf::SuiteRun& run)
{
    for (const auto& line : run.preflight)
        std::cout << "pre-flight: " << line << "\n";
    std::cout << fmt::format("{:<16} {:<9} {:<18} {:>9} {:>11} {:>10} {:>6}  {}\n", "test", "dtype", "where", "size",
                             "measured", "expected", "ratio", "verdict");
    for (const auto& f : run.figures) {
        const auto& i = perf::info(f.test);
        const std::string measured = f.error || f.skipped ? "-" : fmt::format("{:.1f}", f.value);
        const std::string expected = f.expected ? fmt::format("{:.1f}", f.expected->value) : "?";
        const std::string ratio = f.ratio ? fmt::format("{:.2f}", *f.ratio) : "-";
        std::cout << fmt::format("{:<16} {:<9} {:<18} {:>9} {:>11} {:>10} {:>6}  {} ({})\n", i.id, f.dtype,
                                 perf::figureWhere(f), f.bytes ? perf::sizeText(f.bytes) : "-", measured, expected, ratio,
                                 perf::verdictText(f.verdict), i.unit);
        if (!f.clockEventReasons.empty()) {
            std::string reasons;
            for (const auto& r : f.clockEventReasons)
                reasons += (reasons.empty() ? "" : ", ") + r;
            std::cout << "    clocks held down while it ran: " << reasons << "\n";
        }
        if (f.verdict != perf::Verdict::AsExpected && f.test != perf::Test::HostMemcpy)
            std::cout << "    " << f.rule << "\n";
        else if (f.expected)
            std::cout << "    expected: " << f.expected->basis << "\n";
    }
    if (run.gpuCount == 0)
        std::cout << fmt::format("no GPU is visible to this libtorch ({}): only the host was measured; "
                                 "`stackscope-cli inspect` says why (a CPU build of PyTorch, the driver, "
                                 "*_VISIBLE_DEVICES)\n", run.torchVersion.empty() ? "version unknown" : "torch " + run.torchVersion);
    std::cout << fmt::format("bench bandwidth: {}{}\n", perf::verdictSummary(run.figures),
                             run.clockEventsSampled ? "" : " (clock-event reasons not sampled: NVML not available)");
}

void printSweeps(const perf::SuiteRun& run)
{
    for (const auto& f : run.figures) {
        if (f.sweep.size() < 2)
            continue;
        std::cout << fmt::format("sweep {} {}:", perf::info(f.test).id, perf::figureWhere(f));
        for (const auto& p : f.sweep)
            std::cout << fmt::format(" {}={:.1f}", perf::sizeText(p.bytes), p.value);
        std::cout << "\n";
    }
}

void addBenchBandwidth(CLI::App& bench, CommandContext& ctx)
{
    auto* cmd = bench.add_subcommand("bandwidth", "Host<->device, device, peer, triad, GEMM and collective figures, "
                                                  "each judged against what the link or the GPU should reach");
    auto o = std::make_shared<BenchBandwidthOptions>();
    cmd->add_option("--gpus", o->gpus, "GPUs to measure (torch indices); default: all")->delimiter(',');
    std::string testIds;
    for (const auto& t : perf::testCatalogue())
        testIds += (testIds.empty() ? "" : ", ") + std::string(t.id);
    cmd->add_option("--tests", o->tests, "Tests to run (" + testIds + "); default: all")->delimiter(',');
    cmd->add_option("--max-mib", o->maxMiB, "Largest size of the sweep, MiB (4 KiB up by fours)")->check(CLI::Range(1, 8192));
    cmd->add_option("--trials", o->trials, "Timed trials per size after a warm-up; the median is the figure")
        ->check(CLI::Range(1, 1000));
    cmd->add_flag("--json", o->json, "Print the run as JSON (schema stackscope.bandwidth/1)");
    cmd->add_flag("--sweep", o->sweep, "Also print every size of each sweep");
    cmd->callback([o, &ctx] {
        for (const auto& t : o->tests)
            if (!perf::testFromId(t))
                throw UsageError("--tests: '" + t + "' is not a test; choose from `bench bandwidth --help`");
        perf::SuiteOptions so;
        so.gpus = o->gpus;
        so.tests = o->tests;
        so.maxBytes = o->maxMiB << 20;
        so.trials = o->trials;
        const auto snapshot = inspectMachine(InspectOptions {});
        perf::SuiteRun run;
        try {
            run = perf::runSuite(so, snapshot);
        } catch (const perf::SuiteError& e) {
            std::cerr << "bench bandwidth: " << e.what() << "\n";
            ctx.exitCode = ExitCheckFailed;
            return;
        }
        if (o->json) {
            std::cout << perf::toJson(run).dump(1) << "\n";
        } else {
            printRun(run);
            if (o->sweep)
                printSweeps(run);
        }
        ctx.exitCode = perf::worstVerdict(run.figures) == perf::Verdict::Broken ? ExitCheckFailed : ExitOk;
    });
}

const BenchRegistration registration {"bandwidth", 15, &addBenchBandwidth};

} // namespace

} // namespace stackscope::cli
