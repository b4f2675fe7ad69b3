// Coverage scan -> snapshot section and findings.
#include "core/archscan/snapshot_coverage.h"

#include "core/archscan/arch_scan.h"
#include "core/inspect/system_checks.h"

#include <fmt/format.h>

namespace stackscope::archscan {

void addArchCoverage(Snapshot& snapshot)
{
    if (snapshot.root)
        return;
    snapshot.archCoverage = scanCoverage(snapshot);
    const ArchCoverage& coverage = *snapshot.archCoverage;
    const auto& catalogue = CheckCatalogue::builtIn();
    for (const auto& lib : coverage.libraries) {
        for (const auto& [device, verdict] : lib.covers) {
            if (verdict.coverage != Coverage::No)
                continue;
            snapshot.findings.push_back(catalogue.make("ARCH_NOT_COVERED", fmt::format(
                "{} ({}) carries no code for {}. {}", lib.path, libraryKindName(lib.kind), device, verdict.explanation)));
        }
    }
}

} // namespace stackscope::archscan
