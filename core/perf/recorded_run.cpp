#include "core/perf/recorded_run.h"

#include "core/perf/verdict.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace stackscope::perf {

std::vector<int> measuredGpus(const SuiteRun& run)
{
    std::set<int> gpus;
    for (const auto& f : run.figures) {
        if (f.gpu >= 0)
            gpus.insert(f.gpu);
        if (f.peer >= 0)
            gpus.insert(f.peer);
        for (int r = 0; isCollective(f.test) && r < f.ranks; ++r)
            gpus.insert(r);
    }
    return {gpus.begin(), gpus.end()};
}

std::string whyNotItsMachine(const SuiteRun& run, const Snapshot& s)
{
    if (!run.host.empty() && s.host.hostname && !s.host.hostname->empty() && *s.host.hostname != run.host)
        return fmt::format("it was measured on host '{}', the snapshot is of '{}'", run.host, *s.host.hostname);
    for (const int index : measuredGpus(run)) {
        const auto g = std::find_if(s.gpus.begin(), s.gpus.end(), [index](const GpuInfo& x) { return x.index == index; });
        if (g == s.gpus.end())
            return fmt::format("it measured GPU {}, the snapshot lists {} GPU{}", index, s.gpus.size(),
                               s.gpus.size() == 1 ? "" : "s");
        const auto i = static_cast<std::size_t>(index);
        if (i < run.gpuNames.size() && !run.gpuNames[i].empty() && run.gpuNames[i] != g->name)
            return fmt::format("its GPU {} was '{}', the snapshot's is '{}'", index, run.gpuNames[i], g->name);
    }
    return {};
}

JudgedRun judgeRecordedRun(SuiteRun run, const Snapshot* snapshot, const std::string& label)
{
    JudgedRun out;
    const std::string why = snapshot ? whyNotItsMachine(run, *snapshot) : "there is no snapshot to judge it against";
    if (!why.empty()) {
        out.note = fmt::format("verdicts as recorded on the machine that ran it ({}: {})", label, why);
        out.run = std::move(run);
        return out;
    }
    for (auto& f : run.figures) {
        f.expected.reset();
        f.ratio.reset();
        f.verdict = Verdict::Unknown;
        f.rule.clear();
    }
    judgeRun(run.figures, *snapshot);
    out.run = std::move(run);
    out.rejudged = true;
    out.note = out.run.host.empty() && out.run.gpuNames.empty()
                   ? "judged against " + label + " by this StackScope, taken to be the machine that ran it: the run "
                         "does not name its machine (recorded before runs did), so check that it is that machine"
                   : "judged against " + label + " (the machine that ran it) by this StackScope";
    return out;
}

} // namespace stackscope::perf
