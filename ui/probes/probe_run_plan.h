// What the Probes page starts, as plain values: the runs of "Run all probes" (one per checked environment) with their
// variants, and the runs of "Try this fix" (the baseline's failing cells, per environment, with the fix's variant).
#pragma once

#include "core/probes/probe_runner.h"
#include "core/snapshot/finding.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace stackscope {
struct Snapshot;
}

namespace stackscope::ui {

// A run with the page's per-probe timeout (seconds, as the form shows them) and nothing else set.
ProbeRunOptions baseRunOptions(double timeoutS);

// One run per environment in `environments` ("libtorch", "python:/path/to/python3"), in their order; no variants.
std::vector<ProbeRunOptions> environmentRuns(const QStringList& environments, double timeoutS);

// The baseline, then with `ruleVariants` every environment change a rule proposes for `thisMachine` (null: this
// machine is not inspected, so none).
std::vector<ProbeVariant> gridVariants(bool ruleVariants, const Snapshot* thisMachine);

// "Try this fix": the cells that failed in the baseline, re-run in the environment they failed in with the fix's
// environment change as the only variant.
struct FixTrial {
    QString variant;                  // the fix's variant name ("TORCH_BLAS_PREFER_HIPBLASLT=0")
    std::size_t failingProbes = 0;    // 0: nothing failed in the baseline, so there is nothing to try
    std::vector<ProbeRunOptions> runs; // one per environment with a failing cell
};
// Empty (no variant) when `fixIndex` names no fix of `finding`.
FixTrial fixTrial(const std::vector<ProbeRecord>& records, const Finding& finding, int fixIndex, double timeoutS);

} // namespace stackscope::ui
