// The diagnosis rules (resources/rules/diagnosis.json, embedded in the binary), loaded and checked.
#pragma once

#include "core/util/error.h"

#include "core/snapshot/probe_outcome.h"
#include "core/diagnosis/lazy_regex.h"
#include "core/diagnosis/version_range.h"
#include "core/snapshot/snapshot.h"

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace stackscope {

class SignatureIndex;
class SymptomIndex;

// Text that identifies the problem in a log, probe message or probe stderr: an exact text
// (matched after normalisation, across line breaks) or a tolerant ECMAScript pattern (matched
// line by line on the display form, only on lines that contain `anchor`).
struct TextSignature {
    std::string text;           // exact, as written in the rules file
    std::string normalizedText; // text after normalizeSignatureText()
    std::string pattern;
    std::string anchor;         // as written, less its quotes: the longest quote-free piece (quoteFreeAnchor)
    bool ignoreCase = false;
    std::shared_ptr<const LazyRegex> regex; // compiled on first use (checked at load unless the rules are built in)
    // The same pattern ignoring case, for a line retyped all in lower case (SignatureIndex::isRetypedLowerCase); null
    // where the pattern ignores case already.
    std::shared_ptr<const LazyRegex> regexLowerCaseLine;
    std::optional<Confidence> confidence; // overrides the rule's
    std::string note;
    // The cause is presumed from a message that does not name it (the documented usual cause of a wrapper
    // message): a finding with only such evidence ranks with the generic codes, below the causes a line names.
    bool presumed = false;
};

// Facts of a snapshot that raise the rule on their own; every key given must hold.
struct SnapshotTrigger {
    std::optional<int> amdGpusMin;
    std::optional<int> gpusMin;          // GPUs of any vendor the snapshot (or the text) shows
    std::vector<std::string> gpuArchAny; // some GPU's arch token is one of these
    std::vector<std::string> envUnset;   // none of these is set
    std::map<std::string, std::string> envEquals;
    std::map<std::string, std::string> envContains; // the variable is set and contains the text
    std::optional<VersionRange> rocmVersion;        // some installed ROCm (or the HIP runtime) is in range
    std::optional<VersionRange> torchVersion;
    std::optional<std::string> torchBackend;     // "rocm" | "cuda" | "cpu"
    std::optional<std::string> torchBlasBackend; // "hipblaslt", "hipblas", ...
    std::optional<bool> kfdReadWrite;            // /dev/kfd exists and read-write access is this
    std::optional<bool> wsl;                     // host.wsl is this
    std::optional<bool> secureBoot;              // host.secureBoot is this
    std::string kernelCmdlineLacks;              // the kernel command line is known and lacks this word
    std::optional<bool> dkmsAmdgpu;              // an amdgpu DKMS build is present (true) / known absent (false)
    std::optional<bool> amdgpuLoaded;            // the amdgpu module is loaded (rocm.amdgpuDriverVersion known)
    std::optional<bool> torchRocmDiffers;        // torch's ROCm and an installed ROCm differ (versions compared
                                                 // on the components both state; a missing patch counts as 0)
    std::optional<bool> pcieLinkNarrow;          // a link on some GPU's path has fewer lanes than it supports
    std::optional<bool> pcieLinkSlow;            // a link runs slower than both its ends support
    std::optional<bool> gpusHiddenByEnv;         // a visibility variable hides the GPUs the driver shows (visibility_facts.h)
    std::optional<bool> cudaDriverOlderThanTorch; // the driver is below its CUDA torch's branch (cuda_driver_matrix.h)
    std::optional<bool> containerWithoutGpus;     // a pasted log's docker/podman run passes no GPU (host_extras.h)
    std::optional<bool> torchFoundNoGpu;          // a pasted log's own check found no GPU for PyTorch (host_extras.h)
    std::optional<bool> torchForAbsentVendor;     // torch is a ROCm build and every GPU shown is NVIDIA, or a CUDA
                                                  // build and every GPU shown is AMD
    std::optional<Confidence> confidence;
    std::string note;
};

// Probe outcomes that raise the rule on their own (besides their text, which signatures match).
struct ProbeTrigger {
    std::vector<ProbeResult> outcomes;
    std::vector<std::string> deviceArchAny; // the probe's device (snapshot gpus[].index) has one of these archs
    std::vector<std::string> probeIds;      // empty: any probe
    std::optional<Confidence> confidence;
    std::string note;
};

// Where the rule's cause holds. Used to say whether it applies to the snapshot at hand, never to
// hide a finding whose text matched: the log may come from another machine.
struct Applicability {
    std::optional<VersionRange> torch;
    std::optional<VersionRange> torchRocm; // the ROCm torch was built with
    std::optional<VersionRange> rocm;      // the installed ROCm
    std::vector<std::string> archs;
    std::optional<std::string> backend;
    std::vector<std::string> envSet;
    std::string note;
};

// Words a person uses to describe the fault when no message of the stack is in the text (symptom_index.h): each
// group of `words` must have one of its words on one line, and none of `none` may be there. Documented by the rule's
// sources; a finding from them alone is a low-confidence guess that says so.
struct SymptomSet {
    std::vector<std::vector<std::string>> words; // lower case; a trailing '*' lets the word continue ("hibernat*")
    std::vector<std::string> none;
    std::string note; // the documented symptom the words describe
};

struct FixRule {
    std::string text;
    // Environment change that a probe variant can try: a value sets the variable, nullopt unsets it.
    std::map<std::string, std::optional<std::string>> env;
    std::vector<std::string> archs; // the fix is meant for these archs only (empty: any)
    bool diagnostic = false;        // locates the problem rather than fixing it: never "verified"
};

struct DiagnosisRule {
    std::string id;
    std::string title;
    Severity severity = Severity::Info;
    Confidence confidence = Confidence::Medium;
    std::string confidenceNote;
    std::string cause;
    std::vector<TextSignature> signatures;
    std::vector<SnapshotTrigger> snapshotTriggers;
    std::vector<ProbeTrigger> probeTriggers;
    Applicability applicability;
    bool manualOnly = false; // "detection": "manual": no signature is known; listed, never raised
    std::string detectionNote;
    std::vector<FixRule> fixes;
    std::vector<std::string> sources;
    // Rules whose message this rule's cause produces: when both are found, this one ranks first (the
    // text is the other's, the cause is this one's) and takes at least the other's severity.
    std::vector<std::string> explains;
    // "text_and_snapshot": raised only when a signature matched and a snapshot trigger held.
    bool requireTextAndSnapshot = false;
    // Catalogue rules (resources/rules/catalogues/): the catalogue's name, the cause families the entry belongs
    // to ("NVIDIA_XID": a label naming a family counts for every member), and whether the entry is a
    // generic wrapper code (ncclSystemError, cudaErrorUnknown) that ranks below specific causes of its severity.
    std::string catalogue;
    std::vector<std::string> families;
    bool generic = false;
    // A kernel-log event that belongs to the process its line names (NVIDIA's immediate action RESTART_APP or
    // IGNORE: the GPU needs nothing). Seen only in the machine's kernel log, not in the text diagnosed, it is a
    // past fault of that program and reported as info.
    bool processEvent = false;
    std::vector<SymptomSet> symptoms;
};

// A symbolic code of a catalogue's vocabulary and the rule that names its cause: an entry of the catalogue, or a
// hand-written rule of diagnosis.json ("covered_by").
struct CatalogueCode {
    std::string origin; // the file, for messages
    std::string catalogue;
    std::string code;
    std::string ruleId;
};

// One rules text to load: diagnosis.json ("stackscope.diagnosis-rules/1") or a catalogue
// ("stackscope.diagnosis-catalogue/1", resources/rules/catalogues/FORMAT.md); `origin` names it in messages.
struct RulesSource {
    std::string origin;
    std::string text;
};
// The same, read where it lies: the built-in texts stay in the binary's read-only data (a copy of them is pages
// touched at every start).
struct RulesText {
    std::string origin;
    std::string_view text;
};

// A rules file that cannot be used; what() names the origin, the rule id and the key.
class DiagnosisRulesError : public Error {
public:
    explicit DiagnosisRulesError(const std::string& what)
        : Error(what, ErrorKind::Input)
    {
    }
};

class DiagnosisRules {
public:
    // The rules embedded in the binary (parsed once).
    static const DiagnosisRules& builtIn();
    // Throws DiagnosisRulesError; `origin` names the file in messages.
    static DiagnosisRules fromJson(const std::string& text, const std::string& origin);
    // A rules file, or a folder laid out like resources/rules (diagnosis.json plus catalogues/*.json, in file-name
    // order, as the built-in set): a draft of the whole set, scored without a rebuild.
    static DiagnosisRules fromFile(const std::string& path);
    // When the patterns are compiled: at load, so a file with a bad one fails there with its place named; or at
    // first use, for the built-in rules (a test compiles every one of them), so a run pays only for the patterns
    // its text tries.
    enum class PatternCheck { AtLoad, FirstUse };
    // Several rules files and catalogues as one set: ids unique over all, "explains" may point across files.
    static DiagnosisRules fromSources(const std::vector<RulesSource>& sources, PatternCheck check = PatternCheck::AtLoad);
    static DiagnosisRules fromTexts(const std::vector<RulesText>& texts, PatternCheck check = PatternCheck::AtLoad);

    const std::vector<DiagnosisRule>& rules() const { return m_rules; }
    const DiagnosisRule* find(const std::string& id) const;
    // Every code of every catalogue loaded, with the rule that names it.
    const std::vector<CatalogueCode>& catalogueCodes() const { return m_codes; }
    // Whether a finding with this id names the cause `expected`: the same id, or a member of that family.
    bool names(const std::string& findingId, const std::string& expected) const;
    // Every signature's literal in one automaton (built once with the rules).
    const SignatureIndex& signatureIndex() const { return *m_signatures; }
    // Every symptom word of every rule in one automaton (built once with the rules).
    const SymptomIndex& symptomIndex() const { return *m_symptoms; }

private:
    std::shared_ptr<const SignatureIndex> m_signatures;
    std::shared_ptr<const SymptomIndex> m_symptoms;
    std::vector<DiagnosisRule> m_rules;
    std::vector<CatalogueCode> m_codes;
    std::map<std::string, std::size_t> m_index; // id -> position in m_rules
};

// The catalogues built into the binary (resources/rules/catalogues/*.json), in file-name order: where they lie, and
// copied.
std::vector<RulesText> builtInCatalogueTexts();
std::vector<RulesSource> builtInCatalogues();

} // namespace stackscope
