// A finding: what a system check (core/inspect/system_checks) or a diagnosis rule (core/diagnosis) found, one type
// for both so that the snapshot, `diagnose --json`, reports and the GUI's tables show the same thing.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stackscope {

enum class Severity { Info, Warning, Error };
const char* severityName(Severity s);
std::optional<Severity> severityFromName(const std::string& name);

// How sure the facts are that the cause is right. Informational rules explain rather than diagnose.
enum class Confidence { Informational, Low, Medium, High };
const char* confidenceName(Confidence c);
std::optional<Confidence> confidenceFromName(const std::string& name);

// What matched, and where, so a person can check it.
struct Evidence {
    std::string source; // "log" | "probe" | "snapshot"
    std::string origin; // the log's origin; "probe matmul_fp16 on device 0 (baseline), stderr"; "snapshot"
    std::optional<int> line; // 1-based line in the log or probe text
    std::string text;        // the matching line(s), or the snapshot facts
    std::string signature;   // the exact text, pattern or trigger note that matched
    Confidence confidence = Confidence::Medium;
    std::string note;
    bool operator==(const Evidence& o) const
    {
        return source == o.source && origin == o.origin && line == o.line && text == o.text && signature == o.signature
            && confidence == o.confidence && note == o.note;
    }
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
    bool operator==(const FixAdvice& o) const
    {
        return text == o.text && env == o.env && diagnostic == o.diagnostic && applies == o.applies
            && verified == o.verified && verifiedDetail == o.verifiedDetail;
    }
};

// JSON (finding_json.h): one object, "id" its key; files written before issue 19 named a diagnosis finding's
// id "rule" and its detail "cause", and are still read.
struct Finding {
    std::string id; // the check's or the rule's id: KFD_ABSENT, NO_CODE_OBJECT_FOR_GPU
    Severity severity = Severity::Info;
    std::string title;
    std::string detail; // what was found and why it matters (a diagnosis rule's cause)
    std::string fix;    // a system check's fix; a diagnosis finding lists its fixes in `fixes`
    std::vector<std::string> sources;
    // A check reads the fact itself; diagnose() sets what its matches support.
    Confidence confidence = Confidence::High;
    std::string confidenceNote;
    std::vector<Evidence> evidence; // at most kMaxEvidence (diagnosis.h)
    std::size_t evidenceCount = 0;  // all matches, including those left out
    std::optional<bool> applies;            // the rule's applicability against the snapshot (null: unknown)
    std::vector<std::string> applicability; // why it does or does not apply
    std::vector<FixAdvice> fixes;           // in the order to try them
    std::optional<bool> verified; // true if some fix is verified; false if fixes were tried and none worked
    std::vector<std::string> explains; // findings of this diagnosis whose message this finding's cause explains
    std::string rankNote;              // why this finding ranks where it does
    bool operator==(const Finding& o) const
    {
        return id == o.id && severity == o.severity && title == o.title && detail == o.detail && fix == o.fix
            && sources == o.sources && confidence == o.confidence && confidenceNote == o.confidenceNote
            && evidence == o.evidence && evidenceCount == o.evidenceCount && applies == o.applies
            && applicability == o.applicability && fixes == o.fixes && verified == o.verified
            && explains == o.explains && rankNote == o.rankNote;
    }
};

// The one fix to show first: a system check's fix, else a diagnosis's first fix that is not a diagnostic step.
inline std::string firstFix(const Finding& f)
{
    if (!f.fix.empty())
        return f.fix;
    for (const auto& a : f.fixes) {
        if (!a.diagnostic)
            return a.text;
    }
    return {};
}

} // namespace stackscope
