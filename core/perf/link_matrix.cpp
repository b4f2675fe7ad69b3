#include "core/perf/link_matrix.h"

#include "core/perf/gpu_specs.h"
#include "core/perf/verdict.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace stackscope::perf {

namespace {

// Peer copies first (copy engine, kernel, both ways), as nvbandwidth lists them.
int order(Test t)
{
    switch (t) {
    case Test::PeerCe: return 0;
    case Test::PeerKernel: return 1;
    case Test::PeerBidirCe: return 2;
    default: return 3;
    }
}

std::string number(double v)
{
    return fmt::format("{:.1f}", v);
}

} // namespace

LinkMatrix linkMatrix(const std::vector<Figure>& run, const std::vector<int>& alsoGpus)
{
    std::set<int> gpus(alsoGpus.begin(), alsoGpus.end());
    for (const auto& f : run) {
        if (isCollective(f.test))
            continue;
        if (f.gpu >= 0)
            gpus.insert(f.gpu);
        if (f.peer >= 0)
            gpus.insert(f.peer);
    }
    LinkMatrix m;
    m.gpus.assign(gpus.begin(), gpus.end());
    const auto n = static_cast<std::size_t>(m.size());
    m.cells.assign(n, std::vector<LinkCell>(n));
    auto slot = [&m](int gpu) {
        return static_cast<std::size_t>(std::find(m.gpus.begin(), m.gpus.end(), gpu) - m.gpus.begin());
    };
    const std::size_t host = n - 1;
    std::vector<Figure> collectives, rest;
    for (const auto& f : run) {
        switch (f.test) {
        case Test::PeerCe:
        case Test::PeerKernel:
            m.cells[slot(f.gpu)][slot(f.peer)].figures.push_back(f);
            break;
        case Test::PeerBidirCe: // both directions at once: the same figure in both cells of the pair
            m.cells[slot(f.gpu)][slot(f.peer)].figures.push_back(f);
            m.cells[slot(f.peer)][slot(f.gpu)].figures.push_back(f);
            break;
        case Test::D2d: m.cells[slot(f.gpu)][slot(f.gpu)].figures.push_back(f); break;
        case Test::D2hPinned: m.cells[slot(f.gpu)][host].figures.push_back(f); break;
        case Test::H2dPinned: m.cells[host][slot(f.gpu)].figures.push_back(f); break;
        case Test::HostMemcpy: m.cells[host][host].figures.push_back(f); break;
        default: (isCollective(f.test) ? collectives : rest).push_back(f); break;
        }
    }
    for (auto& row : m.cells)
        for (auto& cell : row) {
            std::stable_sort(cell.figures.begin(), cell.figures.end(),
                             [](const Figure& a, const Figure& b) { return order(a.test) < order(b.test); });
            cell.verdict = worstVerdict(cell.figures);
        }
    m.others = std::move(collectives);
    m.others.insert(m.others.end(), rest.begin(), rest.end());
    return m;
}

const char* verdictMarker(Verdict v)
{
    switch (v) {
    case Verdict::AsExpected: return "\u2713";
    case Verdict::Degraded: return "\u25bc";
    case Verdict::Broken: return "\u2717";
    case Verdict::Unknown: break;
    }
    return "?";
}

std::string cellLabel(const Figure& f)
{
    switch (f.test) {
    case Test::PeerCe: return "copy engine";
    case Test::PeerKernel: return "kernel";
    case Test::PeerBidirCe: return "both ways";
    case Test::D2d: return "device copy";
    case Test::H2dPinned:
    case Test::D2hPinned: return "pinned";
    case Test::HostMemcpy: return "memcpy";
    default: break;
    }
    return info(f.test).id;
}

std::string valueText(const Figure& f, bool withUnit)
{
    if (f.error)
        return "failed";
    if (f.skipped)
        return "not measured";
    const std::string unit = withUnit ? std::string(" ") + info(f.test).unit : std::string();
    if (!f.expected)
        return fmt::format("{}{}, {}", number(f.value), unit,
                           f.test == Test::HostMemcpy ? "a reference" : "no expected value");
    return fmt::format("{} of {}{} \u00b7 {:.2f}", number(f.value), number(f.expected->value), unit, f.ratio.value_or(0));
}

std::string cellLine(const Figure& f, bool withUnit)
{
    return fmt::format("{} {} {}", verdictMarker(f.verdict), cellLabel(f), valueText(f, withUnit));
}

std::string figureDetails(const Figure& f)
{
    std::string out = fmt::format("{}{}, {}", info(f.test).title, f.dtype.empty() ? "" : " " + f.dtype, figureWhere(f));
    if (f.error)
        out += "\nfailed: " + *f.error;
    else if (f.skipped)
        out += "\nnot measured: " + *f.skipped;
    else
        out += fmt::format("\nmeasured {} {} at {} (median of {} trials, {}-{})", number(f.value), info(f.test).unit,
                           sizeText(f.bytes), f.trials, number(f.low), number(f.high));
    if (f.expected)
        out += fmt::format("\nexpected {} {}: {}", number(f.expected->value), info(f.test).unit, f.expected->basis);
    if (f.ratio)
        out += fmt::format("\nratio {:.2f}", *f.ratio);
    out += fmt::format("\nverdict: {} {}", verdictMarker(f.verdict), verdictText(f.verdict));
    if (!f.rule.empty())
        out += "\nwhy: " + f.rule;
    if (!f.clockEventReasons.empty()) {
        std::string reasons;
        for (const auto& r : f.clockEventReasons)
            reasons += (reasons.empty() ? "" : ", ") + r;
        out += "\nclocks held down while it ran: " + reasons;
    }
    if (f.expected && !f.expected->sources.empty()) {
        out += "\nsources:";
        for (const auto& s : f.expected->sources)
            out += "\n  " + s;
    }
    return out;
}

std::string verdictRuleText()
{
    return fmt::format("{} as expected: at least {:g} of the expected value; {} degraded: below it; {} broken: the "
                       "measurement failed; {} unknown: no expected value or not measured. The {:g} is DCGM's pass "
                       "rule (a minimum is {:g} of a reference measured on a healthy part): {}",
                       verdictMarker(Verdict::AsExpected), kAsExpectedShare, verdictMarker(Verdict::Degraded),
                       verdictMarker(Verdict::Broken), verdictMarker(Verdict::Unknown), kAsExpectedShare, kDcgmFraction,
                       kDcgmSkus);
}

} // namespace stackscope::perf
