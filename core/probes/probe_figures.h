// The copy probes' figures (copy_h2d, copy_d2h, peer_copy on a GPU) judged by core/perf against the snapshot: the same
// expected value, ratio, verdict and rule as `bench bandwidth` gives (one judge), kept in each record's details.
#pragma once

#include "core/perf/perf_types.h"
#include "core/probes/probe_runner.h"
#include "core/snapshot/snapshot.h"

#include <optional>
#include <string>
#include <vector>

namespace stackscope {

// The key of a record's details that holds its judged figure (a stackscope.bandwidth/1 figure object).
inline constexpr const char* kProbeFigureKey = "figure";

// The figure a copy probe measured on a GPU (not judged yet); nullopt for another probe, the CPU, a probe that did
// not end ok, or a record without its GB/s.
std::optional<perf::Figure> probeFigure(const ProbeRecord& record);

// Judges the figure of every copy probe in `records` against `snapshot` (perf::judgeRun) and puts it in the record's
// details[kProbeFigureKey]; returns how many records got one.
int judgeCopyProbes(std::vector<ProbeRecord>& records, const Snapshot& snapshot);

// The judged figure of a record (from its details), nullopt where it has none; throws perf::PerfJsonError naming the
// key when the figure there is damaged.
std::optional<perf::Figure> judgedFigure(const ProbeRecord& record);

// "copy_h2d   GPU 0            53.9 of 57.6 GB/s · 0.94  ✓ as expected", and the rule on a second line when the
// verdict is not as expected: the human `probe` output.
std::string probeFigureText(const ProbeRecord& record, const perf::Figure& figure);

} // namespace stackscope
