// The one diagnosis behind every surface: the System page and its verdict, the paste-a-log dialog, the report and
// `stackscope-cli diagnose` / `inspect` call diagnoseMachine, so the same inputs give the same findings, in the same
// order, with the same list of what could not be checked.
#pragma once

#include "core/diagnosis/diagnosis.h"
#include "core/diagnosis/log_reader.h"

#include <memory>
#include <string>
#include <vector>

namespace stackscope {

// A log as read through the bounded reader (log_reader.h): the kept text and the original line numbers.
struct ReadLogText {
    std::string origin; // the file path, "stdin", "pasted text"
    LogReadResult read;
};

// A pasted or dropped text read as `diagnose --log FILE` reads a file (the same bounds and kept lines).
ReadLogText readLogText(const std::string& text, const std::string& origin);

struct MachineDiagnosisInput {
    // The machine (inspected, a file, a recorded root, a report's); null: the facts the logs state stand in for it,
    // as `diagnose --log-only` does. With both, the logs' facts about the user's process (their torch, the variables
    // they export, their own "no GPU" check) stand in for StackScope's own process (stated_process_facts.h).
    const Snapshot* snapshot = nullptr;
    std::vector<ReadLogText> logs;
    std::vector<ProbeOutcome> probes;
};

// A check that could not be made: shown as unknown with why, never as ok.
struct NotChecked {
    std::string id; // GPU_ACCESS_UNKNOWN, ENVIRONMENT_NOT_RECORDED, RUNTIME_NOT_QUERIED
    std::string what; // "whether this user can open /dev/kfd and /dev/dri/renderD128 read-write"
    std::string why; // what was missing
    std::string check; // how to check it by hand, `command` spans included
};

// What the verdict says first: a problem blocks GPU work (an error finding); no GPU is visible; nothing found blocks
// GPU work but some checks could not be made; or everything that matters was checked and is fine.
enum class VerdictState { Ok, Problem, NoGpu, Unknown };
const char* verdictStateName(VerdictState s); // "ok", "problem", "no_gpu", "unknown"

struct MachineDiagnosis {
    // The snapshot's system checks and what the rules say about the snapshot, its kernel-log lines, the logs and the
    // probes: errors first; within a severity the rules' ranked findings, then the checks they do not name.
    std::vector<Finding> findings;
    std::vector<std::string> logFacts; // the facts the logs state, in words with the line they came from
    std::vector<NotChecked> notChecked;
    VerdictState verdict = VerdictState::Unknown;
    // The facts the logs state as a snapshot, which the findings were made against: set only when the input had no
    // snapshot and some logs.
    std::shared_ptr<const Snapshot> statedFacts;
};

MachineDiagnosis diagnoseMachine(
    const MachineDiagnosisInput& input, const DiagnosisRules& rules = DiagnosisRules::builtIn());

// The checks a snapshot could not make (device access without modes, groups or user; an environment a recording did
// not keep; runtime libraries a recorded machine did not load).
std::vector<NotChecked> notCheckedFacts(const Snapshot& s);

// The findings of a snapshot alone: diagnoseMachine({&s}).findings.
std::vector<Finding> machineFindings(const Snapshot& s, const DiagnosisRules& rules = DiagnosisRules::builtIn());

} // namespace stackscope
