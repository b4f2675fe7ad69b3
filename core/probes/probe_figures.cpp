#include "core/probes/probe_figures.h"

#include "core/perf/link_matrix.h"
#include "core/perf/perf_json.h"
#include "core/perf/verdict.h"

#include <fmt/format.h>

namespace stackscope {

namespace {

// The peer copy probe's size in records written before it said so (probe_ops.cpp: 16 Mi floats).
constexpr std::uint64_t kPeerProbeBytes = 64ull << 20;

std::optional<int> gpuIndex(const std::string& device)
{
    if (device.empty() || device.find_first_not_of("0123456789") != std::string::npos || device.size() > 4)
        return std::nullopt;
    return std::stoi(device);
}

} // namespace

std::optional<perf::Figure> probeFigure(const ProbeRecord& r)
{
    const auto& id = r.outcome.probeId;
    const auto gpu = gpuIndex(r.outcome.device);
    if (!gpu || r.outcome.outcome != ProbeResult::Ok || (id != "copy_h2d" && id != "copy_d2h" && id != "peer_copy"))
        return std::nullopt;
    const auto gbs = r.details.find("gb_per_s");
    if (gbs == r.details.end() || !gbs->is_number() || gbs->get<double>() <= 0)
        return std::nullopt;
    perf::Figure f;
    f.test = id == "copy_h2d" ? perf::Test::H2dPinned : id == "copy_d2h" ? perf::Test::D2hPinned : perf::Test::PeerCe;
    f.gpu = *gpu;
    if (f.test == perf::Test::PeerCe) {
        const auto peer = r.details.find("peer");
        if (peer == r.details.end() || !peer->is_number_integer())
            return std::nullopt;
        f.peer = peer->get<int>();
    }
    const auto bytes = r.details.find("bytes");
    f.bytes = bytes != r.details.end() && bytes->is_number_unsigned() ? bytes->get<std::uint64_t>()
              : f.test == perf::Test::PeerCe                          ? kPeerProbeBytes
                                                                      : 0;
    f.value = f.low = f.high = gbs->get<double>();
    f.trials = 5; // the probes' median of 5 after a warm-up (probe_ops.cpp medianSeconds)
    f.sweep = {{f.bytes, f.value}};
    return f;
}

int judgeCopyProbes(std::vector<ProbeRecord>& records, const Snapshot& snapshot)
{
    std::vector<perf::Figure> figures;
    std::vector<std::size_t> owners;
    for (std::size_t i = 0; i < records.size(); ++i)
        if (auto f = probeFigure(records[i])) {
            figures.push_back(std::move(*f));
            owners.push_back(i);
        }
    perf::judgeRun(figures, snapshot);
    for (std::size_t k = 0; k < figures.size(); ++k)
        records[owners[k]].details[kProbeFigureKey] = perf::toJson(figures[k]);
    return static_cast<int>(figures.size());
}

std::optional<perf::Figure> judgedFigure(const ProbeRecord& r)
{
    const auto it = r.details.find(kProbeFigureKey);
    if (it == r.details.end() || !it->is_object())
        return std::nullopt;
    return perf::figureFromJson(*it, "details.figure");
}

std::string probeFigureText(const ProbeRecord& r, const perf::Figure& f)
{
    std::string text = fmt::format("{:<10} {:<16} {:<30} {} {}", r.outcome.probeId, perf::figureWhere(f),
                                   perf::valueText(f), perf::verdictMarker(f.verdict), perf::verdictText(f.verdict));
    if (f.verdict != perf::Verdict::AsExpected && !f.rule.empty())
        text += "\n    " + f.rule;
    else if (f.expected)
        text += "\n    expected: " + f.expected->basis;
    return text;
}

} // namespace stackscope
