// Diagnosis: rules matched against logs, a snapshot and probe outcomes, producing findings with evidence.
#pragma once

#include "core/diagnosis/diagnosis_rules.h"
#include "core/diagnosis/probe_outcome.h"
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

// What matched, and where, so a person can check it.
struct Evidence {
    std::string source; // "log" | "probe" | "snapshot"
    std::string origin; // the log's origin; "probe matmul_fp16 on device 0 (baseline), stderr"; "snapshot"
    std::optional<int> line; // 1-based line in the log or probe text
    std::string text;        // the matching line(s), or the snapshot facts
    std::string signature;   // the exact text, pattern or trigger note that matched
    Confidence confidence = Confidence::Medium;
    std::string note;
};

struct FixAdvice {
    std::string text;
    std::map<std::string, std::optional<std::string>> env;
    bool diagnostic = false;
    std::optional<bool> applies; // false when the snapshot's archs are known and none is one the fix is for
    // true: a probe variant with this env change turned the affected probes ok (and the signature
    // went away); false: it was tried and did not; null: not tried (or a diagnostic step).
    std::optional<bool> verified;
    std::string verifiedDetail;
};

struct DiagnosisFinding {
    std::string ruleId;
    std::string title;
    Severity severity = Severity::Info;
    Confidence confidence = Confidence::Medium;
    std::string confidenceNote;
    std::vector<Evidence> evidence; // at most kMaxEvidence
    std::size_t evidenceCount = 0;  // all matches, including those left out
    std::string cause;
    std::optional<bool> applies;          // the rule's applicability against the snapshot (null: unknown)
    std::vector<std::string> applicability; // why it does or does not apply
    std::vector<FixAdvice> fixes;         // in the order to try them
    std::vector<std::string> sources;
    std::optional<bool> verified; // true if some fix is verified; false if fixes were tried and none worked
    std::vector<std::string> explains; // findings of this diagnosis whose message this finding's cause explains
    std::string rankNote;              // why this finding ranks where it does
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

// Findings ordered by severity (errors first); a finding that explains another's message ranks right above it
// (taking at least its severity); otherwise the rules file's order. Each says why in rankNote.
std::vector<DiagnosisFinding> diagnose(const DiagnosisInput& input,
                                       const DiagnosisRules& rules = DiagnosisRules::builtIn());

// "gfx90a:sramecc+:xnack-" -> "gfx90a"; the whole token is compared, so gfx110 never matches gfx1100.
std::string archToken(const std::string& gcnArchName);

} // namespace stackscope
