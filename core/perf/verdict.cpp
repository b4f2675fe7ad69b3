#include "core/perf/verdict.h"

#include "core/perf/expectation.h"
#include "core/perf/gpu_specs.h"

#include <fmt/format.h>

#include <array>

namespace stackscope::perf {

namespace {

void judge(Figure& f, const Snapshot& s, const std::vector<Figure>& run)
{
    if (f.error) {
        f.verdict = Verdict::Broken;
        f.rule = "the measurement failed: " + *f.error;
        return;
    }
    if (f.skipped) {
        f.verdict = Verdict::Unknown;
        f.rule = "not measured: " + *f.skipped;
        return;
    }
    std::string why;
    f.expected = expectedFor(f, s, run, why);
    if (!f.expected || f.expected->value <= 0) {
        f.verdict = Verdict::Unknown;
        f.rule = "no expected value: " + why;
        return;
    }
    f.ratio = f.value / f.expected->value;
    if (isLinkTransfer(f.test) && f.bytes > 0 && f.bytes < kLinkJudgedFromBytes) {
        f.verdict = Verdict::Unknown;
        f.rule = fmt::format("not judged: one copy of {:g} MiB; a link is judged on copies of {} MiB or more, where a "
                             "healthy link reaches its rate (a small copy's time carries the launch and the "
                             "synchronisation; nvbandwidth times 1 GiB per sample, {})",
                             double(f.bytes) / double(1 << 20), kLinkJudgedFromBytes >> 20, kNvbandwidthSizes);
        return;
    }
    const bool ok = *f.ratio >= kAsExpectedShare;
    f.verdict = ok ? Verdict::AsExpected : Verdict::Degraded;
    f.rule = fmt::format("{:.2f} of the expected {:.1f} {}; {} {:g} of it (DCGM's rule: a pass mark is {:g} of a "
                         "reference, {})", *f.ratio, f.expected->value, info(f.test).unit, ok ? "at least" : "below",
                         kAsExpectedShare, kDcgmFraction, kDcgmSkus);
}

int rank(Verdict v)
{
    switch (v) {
    case Verdict::AsExpected: return 0;
    case Verdict::Unknown: return 1;
    case Verdict::Degraded: return 2;
    case Verdict::Broken: return 3;
    }
    return 1;
}

} // namespace

bool isLinkTransfer(Test t)
{
    return t == Test::H2dPinned || t == Test::D2hPinned || isPeer(t);
}

void judgeRun(std::vector<Figure>& run, const Snapshot& s)
{
    // References first (peer copies, host memcpy), so collectives and pageable copies can lean on them.
    for (auto& f : run)
        if (!isCollective(f.test))
            judge(f, s, run);
    for (auto& f : run) // all_reduce before the two collectives it is the reference of
        if (f.test == Test::AllReduce)
            judge(f, s, run);
    for (auto& f : run)
        if (isCollective(f.test) && f.test != Test::AllReduce)
            judge(f, s, run);
}

std::string verdictSummary(const std::vector<Figure>& run)
{
    std::array<int, 4> n {};
    for (const auto& f : run)
        if (f.test != Test::HostMemcpy) // a reference, not judged
            ++n[static_cast<std::size_t>(f.verdict)];
    std::string out;
    for (auto v : {Verdict::AsExpected, Verdict::Degraded, Verdict::Broken, Verdict::Unknown}) {
        const int k = n[static_cast<std::size_t>(v)];
        if (k)
            out += fmt::format("{}{} {}", out.empty() ? "" : ", ", k, verdictText(v));
    }
    return out.empty() ? "no figures" : out;
}

Verdict worstVerdict(const std::vector<Figure>& run)
{
    bool judged = false;
    Verdict worst = Verdict::AsExpected;
    for (const auto& f : run) {
        if (f.test == Test::HostMemcpy) // a reference, never judged
            continue;
        judged = true;
        if (rank(f.verdict) > rank(worst))
            worst = f.verdict;
    }
    return judged ? worst : Verdict::Unknown;
}

} // namespace stackscope::perf
