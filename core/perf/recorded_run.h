// A recorded run shown beside a snapshot (the System page, a support report): judged again by today's model when the
// snapshot is the machine that ran it, else kept with the verdicts it was recorded with; either way it says which.
#pragma once

#include "core/perf/suite_run.h"
#include "core/snapshot/snapshot.h"

#include <string>
#include <vector>

namespace stackscope::perf {

struct JudgedRun {
    SuiteRun run;
    bool rejudged = false; // judged against the snapshot given (else: the verdicts it was recorded with)
    std::string note;      // how the verdicts were reached, one line for people
};

// The GPU indices a run measured (sources, peers, a collective's ranks), ascending.
std::vector<int> measuredGpus(const SuiteRun& run);

// Why `snapshot` is not the machine that ran `run` ("" when it is, or may be): a GPU the run measured is not in it, or
// has another name than the run recorded, or the host names differ where both are known. A run recorded before runs
// named their machine cannot be told apart: it is taken to be the snapshot's, and the note says so.
std::string whyNotItsMachine(const SuiteRun& run, const Snapshot& snapshot);

// Judges `run` again (judgeRun, the one judge) against `snapshot` when it is the run's machine; `label` names the
// snapshot in the note ("the snapshot shown", "the report's snapshot"). A null snapshot keeps the recorded verdicts.
JudgedRun judgeRecordedRun(SuiteRun run, const Snapshot* snapshot, const std::string& label);

} // namespace stackscope::perf
