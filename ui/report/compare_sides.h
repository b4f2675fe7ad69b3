// Compare's work off the GUI thread: each side read (a snapshot .json, a report.json, its folder or .zip; or this
// machine's snapshot), diagnosed as the System page diagnoses it, and the two compared. No widget is touched here.
#pragma once

#include "core/diagnosis/machine_diagnosis.h"
#include "core/report/snapshot_diff.h"
#include "core/util/cancel_token.h"
#include "core/util/error.h"

#include <QString>

#include <memory>
#include <vector>

namespace stackscope::ui {

// One side as the System page shows it when that file is opened: the snapshot with this version's checks (the file's
// own were made by the version that wrote it) and the one diagnosis (diagnoseMachine) over it, with the report's
// pasted logs and probe results.
struct CompareSide {
    Snapshot snapshot;
    MachineDiagnosis diagnosis;
};

// What a side holds before it is diagnosed: the snapshot, and for a report its pasted logs and probe results.
struct SideInputs {
    Snapshot snapshot;
    std::vector<ReadLogText> logs;
    std::vector<ProbeOutcome> probes;
};

// Throws the loader's Error (its kind says whether the file is at fault) when the file cannot be read.
SideInputs readSideInputs(const std::string& path);
// This version's checks and the one diagnosis. Throws only for StackScope's own fault (a built-in rule that does not
// load), never for the file's.
CompareSide diagnoseSide(SideInputs inputs);

// A side is a path to read or, for this machine, a snapshot already inspected.
struct CompareInput {
    QString path;
    std::shared_ptr<const Snapshot> machine; // set: this machine, `path` is only its label
};

struct CompareResult {
    std::vector<report::DiffRow> rows;
    CompareSide a, b;
    // A side that could not be read or diagnosed: "A" or "B", its path, the error's kind and the text; empty when
    // both were read (then rows, a and b are set). Diagnosing fails only by StackScope's fault (kind Failed).
    QString failedSide;
    bool failedDiagnosing = false;
    QString failedPath;
    QString error;
    ErrorKind errorKind = ErrorKind::Input;
    bool cancelled = false;
};

// Reads A then B (the first that fails is named), then diffs the snapshots. Never throws: a failure is in the result.
CompareResult compareSides(const CompareInput& a, const CompareInput& b, const CancelToken& cancel);

} // namespace stackscope::ui
