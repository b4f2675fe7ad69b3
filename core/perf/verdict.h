// The verdict on each figure: as expected, degraded or broken, with the rule that decided it.
#pragma once

#include "core/perf/perf_types.h"
#include "core/snapshot/snapshot.h"

#include <cstdint>
#include <vector>

namespace stackscope::perf {

// A figure at or above this share of its reference is as expected: DCGM's pass rule (its minimums are 0.75 of a
// reference measured on a healthy part, nvvs/diag-skus.yaml.in). Below it and measured, it is degraded; a
// measurement that failed, returned wrong data or did not finish is broken; no reference is unknown.
inline constexpr double kAsExpectedShare = 0.75;

// A link (host<->device pinned, peer) is judged on copies of at least this size: a smaller copy's time carries the
// launch and the synchronisation, so it reads below the link's rate on a healthy machine (the 2x H200 reference run,
// tests/fixtures/bandwidth: NVLink copies of 64 MiB read 0.75 of the link, of 256 MiB 0.85; nvbandwidth times 16
// back-to-back copies of 64 MiB, 1 GiB, per sample). A smaller figure keeps its expected value and ratio, unknown.
inline constexpr std::uint64_t kLinkJudgedFromBytes = 256ull << 20;
inline constexpr const char* kNvbandwidthSizes = "https://github.com/NVIDIA/nvbandwidth/blob/main/default_constants.h";

// True for the figures judged against a link's rate (kLinkJudgedFromBytes applies to them).
bool isLinkTransfer(Test t);

// Sets expected, ratio, verdict and rule on every figure of a run (references measured in the run are used).
void judgeRun(std::vector<Figure>& run, const Snapshot& s);

// How many figures have each verdict; "12 as expected, 1 degraded, 2 unknown".
std::string verdictSummary(const std::vector<Figure>& run);

// The worst verdict of a run (broken > degraded > unknown > as expected); Unknown when nothing in it is judged (an
// empty run, or only the host memcpy, which is a reference).
Verdict worstVerdict(const std::vector<Figure>& run);

} // namespace stackscope::perf
