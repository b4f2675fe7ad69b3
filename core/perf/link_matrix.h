// The topology view's content as plain values (the System page draws it, tests read it): a GPU x GPU matrix of a run's
// link figures with the host as one more row and column, the figures that are no link beside it, and their texts.
#pragma once

#include "core/perf/perf_types.h"

#include <string>
#include <vector>

namespace stackscope::perf {

struct LinkCell {
    std::vector<Figure> figures; // in the order shown
    Verdict verdict = Verdict::Unknown; // the worst of them; Unknown when empty or only a reference
};

// Rows are sources, columns destinations. Row/column i < gpus.size() is GPU gpus[i], the last one the host:
//   GPU i -> GPU j: peer copies (copy engine, kernel) and the both-ways copy of the pair (shown in both cells);
//   GPU i -> GPU i: the device-to-device copy;  GPU i -> host: d2h pinned;  host -> GPU j: h2d pinned;
//   host -> host: the one-thread host memcpy (the pageable copies' reference, not judged).
struct LinkMatrix {
    std::vector<int> gpus;
    std::vector<std::vector<LinkCell>> cells; // (gpus.size() + 1) squared
    std::vector<Figure> others;               // collectives first, then the rest in run order (pageable, triad, GEMM)
    int size() const { return static_cast<int>(gpus.size()) + 1; }
    int hostIndex() const { return static_cast<int>(gpus.size()); }
    const LinkCell& at(int row, int column) const { return cells[std::size_t(row)][std::size_t(column)]; }
};

// `alsoGpus`: GPUs to show even where the run measured nothing on them (the snapshot's), so a GPU left out shows.
LinkMatrix linkMatrix(const std::vector<Figure>& run, const std::vector<int>& alsoGpus = {});

// A mark that reads without colour: "✓" as expected, "▼" degraded, "✗" broken, "?" unknown.
const char* verdictMarker(Verdict v);
// What a figure is within its cell: "copy engine", "kernel", "both ways", "device copy", "pinned", "memcpy".
std::string cellLabel(const Figure& f);
// "392.8 of 450.0 GB/s · 0.87", "9.9 GB/s, no expected value", "not measured", "failed"; without the unit where the
// view states it once.
std::string valueText(const Figure& f, bool withUnit = true);
// One line of a cell: marker, label, value: "✓ copy engine 392.8 of 450.0 GB/s · 0.87".
std::string cellLine(const Figure& f, bool withUnit = true);
// Everything behind a figure, for a tooltip: what and where, the measurement, the expected value and its basis,
// the ratio and verdict, the rule, the sources (public URLs).
std::string figureDetails(const Figure& f);
// The rule every verdict follows, with its public source.
std::string verdictRuleText();

} // namespace stackscope::perf
