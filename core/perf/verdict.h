// The verdict on each figure: as expected, degraded or broken, with the rule that decided it.
#pragma once

#include "core/perf/perf_types.h"
#include "core/snapshot/snapshot.h"

#include <vector>

namespace stackscope::perf {

// A figure at or above this share of its reference is as expected: DCGM's pass rule (its minimums are 0.75 of a
// reference measured on a healthy part, nvvs/diag-skus.yaml.in). Below it and measured, it is degraded; a
// measurement that failed, returned wrong data or did not finish is broken; no reference is unknown.
inline constexpr double kAsExpectedShare = 0.75;

// Sets expected, ratio, verdict and rule on every figure of a run (references measured in the run are used).
void judgeRun(std::vector<Figure>& run, const Snapshot& s);

// How many figures have each verdict; "12 as expected, 1 degraded, 2 unknown".
std::string verdictSummary(const std::vector<Figure>& run);

// The worst verdict of a run (broken > degraded > unknown > as expected); Unknown for an empty run.
Verdict worstVerdict(const std::vector<Figure>& run);

} // namespace stackscope::perf
