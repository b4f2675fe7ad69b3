// Diagnosis: rules matched against logs, a snapshot and probe outcomes, producing findings with evidence.
#pragma once

#include "core/diagnosis/diagnosis_rules.h"
#include "core/snapshot/probe_outcome.h"
#include "core/snapshot/host_extras.h"
#include "core/snapshot/snapshot.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stackscope {

struct LogText {
    std::string origin; // file path, "pasted text", ...
    std::string text;
};

struct DiagnosisInput {
    // Facts for triggers and applicability, host extras (kernel command line, Secure Boot, WSL, dkms) included,
    // whether inspected live, loaded from a file or stated in a log; may be null.
    const Snapshot* snapshot = nullptr;
    std::vector<LogText> logs;
    std::vector<ProbeOutcome> probes;
};

inline constexpr std::size_t kMaxEvidence = 20;
// Lines longer than this are matched by exact texts only when a pattern has no anchor: libstdc++'s regex
// recurses per character.
inline constexpr std::size_t kMaxPatternLineLength = 16 * 1024;
// Patterns with an anchor run on windows around the anchor's first occurrences in a line: a rule's
// match spans at most a few hundred bytes around its literal piece (the longest pattern prefix before
// an anchor in the rules is 32 bytes; paths after it stay well under the window).
inline constexpr std::size_t kAnchorWindowBefore = 256;
inline constexpr std::size_t kAnchorWindowAfter = 768;
inline constexpr int kMaxAnchorWindows = 4;

// Findings (core/snapshot/finding.h) ordered by severity (errors first); a finding that explains another's message
// ranks right above it (taking at least its severity); otherwise the rules file's order. Each says why in rankNote.
std::vector<Finding> diagnose(const DiagnosisInput& input, const DiagnosisRules& rules = DiagnosisRules::builtIn());

// The evidence signature of a guess from symptom words ("words: bus error + docker"), and whether a finding is such a
// guess (low confidence: nothing but the description's words named it), for the views that must say so.
inline constexpr const char* kSymptomSignaturePrefix = "words: ";
bool isGuessFromWords(const Finding& f);
// The finding's title as every view shows it: a guess from words says so first ("Guess from the words: <title>").
std::string findingHeadline(const Finding& f);

// The texts a snapshot carries that rules read like logs: its kernel-log lines (amdgpu/KFD/NVIDIA), when any.
std::optional<LogText> snapshotKernelLog(const Snapshot& s);
// The origin snapshotKernelLog gives its text (the evidence of a finding found there names it).
inline constexpr const char* kKernelLogOrigin = "kernel log (amdgpu/KFD/NVIDIA lines)";

// "gfx90a:sramecc+:xnack-" -> "gfx90a"; the whole token is compared, so gfx110 never matches gfx1100.
std::string archToken(const std::string& gcnArchName);

} // namespace stackscope
