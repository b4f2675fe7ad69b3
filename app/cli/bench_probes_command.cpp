// `stackscope-cli bench probes`: wall time of the default probe grid (CPU and every GPU, baseline).
#include "app/cli/command.h"

#include "core/probes/probe_runner.h"
#include "core/probes/probe_variants.h"

#include <fmt/format.h>

#include <chrono>
#include <iostream>

namespace stackscope::cli {

namespace {

void addBenchProbes(CLI::App& bench, CommandContext& ctx)
{
    auto* cmd = bench.add_subcommand("probes", "Wall time of the default probe grid (goal: at most 15 s)");
    auto repeats = std::make_shared<int>(3);
    auto jobs = std::make_shared<int>(0);
    cmd->add_option("--repeat", *repeats, "Runs to time")->check(CLI::Range(1, 50));
    cmd->add_option("--jobs", *jobs, "Child processes at once; 0: half the CPU's threads, 2 to 8")->check(CLI::Range(0, 16));
    cmd->callback([repeats, jobs, &ctx] {
        double best = 1e300, total = 0;
        std::size_t failures = 0, cells = 0;
        for (int i = 0; i < *repeats; ++i) {
            ProbeRunOptions o;
            o.parallelCells = *jobs;
            ProbeRunner runner(o);
            const auto t0 = std::chrono::steady_clock::now();
            const auto records = runner.run();
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            best = std::min(best, s);
            total += s;
            cells = records.size();
            failures = 0;
            for (const auto& r : records)
                failures += isFailure(r.outcome.outcome) ? 1 : 0;
            std::cout << fmt::format("run {}: {:.2f} s wall, {} results over {} device(s), {} not ok\n", i + 1, s,
                                     records.size(), runner.devices().size(), failures);
        }
        std::cout << fmt::format("bench probes: best {:.2f} s, mean {:.2f} s over {} runs ({} results per run, --jobs {})\n",
                                 best, total / *repeats, *repeats, cells, *jobs);
        ctx.exitCode = ExitOk;
    });
}

const BenchRegistration registration {"probes", 20, &addBenchProbes};

} // namespace

} // namespace stackscope::cli
