// The matcher: text signatures over logs and probe output, snapshot and probe triggers (the facts they read:
// snapshot_facts.h), symptom words when nothing else names a cause, ranking, and fix verification from probe variants.
#include "core/diagnosis/diagnosis.h"

#include "core/diagnosis/oom_facts.h"
#include "core/diagnosis/signature_index.h"
#include "core/diagnosis/snapshot_facts.h"
#include "core/diagnosis/symptom_index.h"
#include "core/diagnosis/text_normalizer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

namespace stackscope {

std::string archToken(const std::string& gcnArchName)
{
    const auto colon = gcnArchName.find(':');
    std::string token = gcnArchName.substr(0, colon);
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back())))
        token.pop_back();
    return token;
}

namespace {

constexpr std::size_t kMaxEvidenceText = 600;
constexpr const char* kCutMessageNote = "the line holds the start of this message and ends there (cut short, as in an "
                                        "issue title): paste the whole message to confirm";

std::string clip(std::string s)
{
    if (s.size() > kMaxEvidenceText) {
        s.resize(kMaxEvidenceText);
        s += "...";
    }
    return s;
}

std::string lower(std::string s)
{
    for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool contains(const std::vector<std::string>& list, const std::string& value)
{
    return std::find(list.begin(), list.end(), value) != list.end();
}

// A text to search: a log, or one stream of one probe outcome.
struct SearchText {
    std::string source; // "log" | "probe"
    std::string origin;
    NormalizedText text;
    std::optional<std::size_t> probeIndex;
};

// Everything found for one rule while scanning.
struct Collected {
    std::vector<Evidence> evidence;
    std::set<std::pair<std::string, int>> seenLines; // (origin, line): one evidence per line
    std::size_t count = 0;
    std::set<std::size_t> probes; // indexes of probe outcomes that showed the problem
    Confidence confidence = Confidence::Informational; // the highest of all matches, kept or not
    bool named = false; // some match names the cause (not only presumed signatures: TextSignature::presumed)

    void add(Evidence e, std::optional<std::size_t> probeIndex, bool presumed = false)
    {
        if (e.line && !seenLines.insert({e.origin, *e.line}).second)
            return;
        ++count;
        named = named || !presumed;
        confidence = std::max(confidence, e.confidence);
        if (probeIndex)
            probes.insert(*probeIndex);
        if (evidence.size() < kMaxEvidence)
            evidence.push_back(std::move(e));
    }
};

// The regex runs only on windows around the first occurrences of its literal anchor (kAnchorWindowBefore
// bytes before, kAnchorWindowAfter after), so one line costs O(line) for the finds plus a bounded regex
// run per window whatever the line's length: matching is linear in the text.
bool regexNearAnchor(const std::string& line, const std::string& hay, const std::string& anchor, const std::regex& re)
{
    std::size_t from = 0;
    for (int n = 0; n < kMaxAnchorWindows; ++n) {
        const auto pos = hay.find(anchor, from);
        if (pos == std::string::npos)
            return false;
        const std::size_t begin = pos > kAnchorWindowBefore ? pos - kAnchorWindowBefore : 0;
        const std::size_t end = std::min(line.size(), pos + anchor.size() + kAnchorWindowAfter);
        if (std::regex_search(line.begin() + static_cast<std::ptrdiff_t>(begin), line.begin() + static_cast<std::ptrdiff_t>(end), re))
            return true;
        from = pos + std::max<std::size_t>(1, anchor.size());
    }
    return false;
}

// How signatures are read. As written first, over every rule; then, only on the lines no signature claimed as
// written, in the forms people paste: a message cut at the line end (an issue title), a line retyped in lower case.
// Why in that order: a tolerant reading must not outvote the message a line states (a program that prints in lower
// case, a shorter message that begins a longer one).
enum class Reading { AsWritten, PastedForms };

// `anchor` is lower-cased already where the signature ignores case.
bool patternMatchesNearAnchor(const std::string& line, const std::string& anchor, const TextSignature& sig, Reading reading)
{
    if (reading == Reading::PastedForms) {
        if (sig.ignoreCase || line.find(anchor) != std::string::npos || !SignatureIndex::isRetypedLowerCase(line))
            return false;
        return regexNearAnchor(line, line, lower(anchor), sig.regexLowerCaseLine->get());
    }
    if (sig.ignoreCase)
        return regexNearAnchor(line, lower(line), anchor, sig.regex->get());
    return regexNearAnchor(line, line, anchor, sig.regex->get());
}

// Only signatures whose literal occurs are tried, and an anchored pattern only on the lines holding its anchor.
// `claimed` (by line of the text): lines a signature matched as written; marked when reading AsWritten, skipped when
// reading PastedForms.
void matchSignatures(const SignatureIndex& index, std::size_t r, const DiagnosisRule& rule, const SearchText& st,
                     const SignatureIndex::Hits& hits, Reading reading, std::vector<char>& claimed, Collected& c)
{
    const auto& lines = st.text.lines();
    const bool asWritten = reading == Reading::AsWritten;
    for (std::size_t k = 0; k < rule.signatures.size(); ++k) {
        const auto& sig = rule.signatures[k];
        const auto literal = index.literalOf(r, k);
        const Confidence conf = sig.confidence.value_or(rule.confidence);
        if (!sig.normalizedText.empty()) {
            if (!asWritten) {
                const auto at = hits.cutAt[literal];
                if (hits.inFlat[literal] || at == std::string::npos || claimed[st.text.lineIndexAt(at)])
                    continue;
                const auto& line = lines[st.text.lineIndexAt(at)];
                c.add({st.source, st.origin, line.number, clip(line.display), sig.text, std::min(conf, Confidence::Medium),
                       kCutMessageNote},
                      st.probeIndex, sig.presumed);
                continue;
            }
            if (!hits.inFlat[literal])
                continue;
            const std::string& flat = st.text.flat();
            for (auto pos = SignatureIndex::findExactText(flat, sig.normalizedText); pos != std::string::npos;
                 pos = SignatureIndex::findExactText(flat, sig.normalizedText, pos + 1)) {
                const auto first = st.text.lineIndexAt(pos);
                const auto last = st.text.lineIndexAt(pos + sig.normalizedText.size() - 1);
                std::string shown;
                for (auto i = first; i <= last; ++i) {
                    shown += (shown.empty() ? "" : " ") + lines[i].display;
                    claimed[i] = 1;
                }
                c.add({st.source, st.origin, lines[first].number, clip(shown), sig.text, conf, sig.note}, st.probeIndex, sig.presumed);
            }
            continue;
        }
        if (literal == SignatureIndex::kNoLiteral) {
            for (std::size_t i = 0; asWritten && i < lines.size(); ++i) {
                const auto& line = lines[i];
                if (line.display.size() <= kMaxPatternLineLength && std::regex_search(line.display, sig.regex->get())) {
                    claimed[i] = 1;
                    c.add({st.source, st.origin, line.number, clip(line.display), sig.pattern, conf, sig.note}, st.probeIndex, sig.presumed);
                }
            }
            continue;
        }
        const std::string anchor = sig.ignoreCase ? lower(sig.anchor) : sig.anchor;
        for (const auto i : hits.lines[literal]) {
            const auto& line = lines[i];
            if ((asWritten || !claimed[i]) && patternMatchesNearAnchor(line.display, anchor, sig, reading)) {
                if (asWritten)
                    claimed[i] = 1;
                c.add({st.source, st.origin, line.number, clip(line.display), sig.pattern, conf, sig.note}, st.probeIndex, sig.presumed);
            }
        }
    }
}

bool envSatisfies(const std::map<std::string, std::string>& env, const std::map<std::string, std::optional<std::string>>& change)
{
    for (const auto& [k, v] : change) {
        auto it = env.find(k);
        if (v ? (it == env.end() || it->second != *v) : it != env.end())
            return false;
    }
    return true;
}

std::string describeEnv(const std::map<std::string, std::optional<std::string>>& env)
{
    std::vector<std::string> parts;
    for (const auto& [k, v] : env)
        parts.push_back(v ? k + "=" + *v : "unset " + k);
    return fmt::format("{}", fmt::join(parts, " "));
}

void verifyFixes(const std::vector<ProbeOutcome>& probes, const Collected& c, Finding& out)
{
    std::set<std::pair<std::string, std::string>> affected; // (probe id, device)
    for (auto i : c.probes)
        affected.insert({probes[i].probeId, probes[i].device});
    for (auto& fix : out.fixes) {
        if (fix.env.empty() || fix.diagnostic || affected.empty())
            continue;
        std::vector<std::string> worked, failed;
        for (std::size_t i = 0; i < probes.size(); ++i) {
            const auto& p = probes[i];
            if (!affected.count({p.probeId, p.device}) || !envSatisfies(p.env, fix.env))
                continue;
            const std::string where = fmt::format("{} on device {} ({})", p.probeId, p.device, p.variant);
            if (p.outcome == ProbeResult::Ok && !c.probes.count(i))
                worked.push_back(where);
            else
                failed.push_back(fmt::format("{}: {}{}", where, probeResultName(p.outcome),
                                             c.probes.count(i) ? ", the problem's text still appears" : ""));
        }
        if (worked.empty() && failed.empty()) {
            fix.verifiedDetail = fmt::format("not tried: no probe variant ran the affected probes with {}", describeEnv(fix.env));
            continue;
        }
        fix.verified = failed.empty();
        fix.verifiedDetail = failed.empty()
            ? fmt::format("verified here: with {} ok: {}", describeEnv(fix.env), fmt::join(worked, "; "))
            : fmt::format("did not work here: with {} still failing: {}", describeEnv(fix.env), fmt::join(failed, "; "));
    }
    for (const auto& fix : out.fixes) {
        if (fix.verified == std::optional<bool>(true))
            out.verified = true;
        else if (fix.verified == std::optional<bool>(false) && !out.verified)
            out.verified = false;
    }
}

std::string ordinal(std::size_t i)
{
    return fmt::format("#{}", i + 1);
}

// Orders findings: severity first; a rule that explains another's message goes right before it (and takes
// at least its severity); otherwise the rules file's order. Each finding says why it is where it is.
struct Found {
    std::size_t first;    // the rule's index in the rules file
    Finding second;
    bool presumed = false; // every match came from a presumed signature
    std::optional<int> describedAt; // a guess from the description's words (symptom_index.h): its first line
};

std::vector<Finding> rankFindings(std::vector<Found> found, const DiagnosisRules& rules)
{
    std::map<std::string, std::size_t> indexOf;
    for (std::size_t i = 0; i < found.size(); ++i)
        indexOf[found[i].second.id] = i;
    std::vector<double> position(found.size());
    std::vector<std::string> explainedBy(found.size());
    for (std::size_t i = 0; i < found.size(); ++i) {
        position[i] = static_cast<double>(found[i].first);
        const auto* rule = rules.find(found[i].second.id);
        for (const auto& id : rule ? rule->explains : std::vector<std::string>()) {
            const auto it = indexOf.find(id);
            if (it == indexOf.end())
                continue;
            auto& mine = found[i].second;
            auto& other = found[it->second];
            // A presumed cause stands for the wrapper only on the lines it read; a wrapper line it did not read
            // (a WARN naming the failing call) keeps the wrapper first.
            if (found[i].presumed && other.second.evidenceCount > mine.evidenceCount)
                continue;
            mine.severity = std::max(mine.severity, other.second.severity);
            position[i] = std::min(position[i], static_cast<double>(other.first) - 0.5);
            mine.explains.push_back(id);
            explainedBy[it->second] = mine.id;
        }
    }
    std::vector<std::size_t> order(found.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::vector<bool> generic(found.size());
    for (std::size_t i = 0; i < found.size(); ++i) {
        const auto* rule = rules.find(found[i].second.id);
        generic[i] = (rule && rule->generic) || found[i].presumed;
    }
    // A finding whose condition the facts contradict (applies == false: "HSA_OVERRIDE_GFX_VERSION is not set")
    // ranks below the others of its severity: its text matched, but the facts point elsewhere.
    const auto contradicted = [&](std::size_t i) { return found[i].second.applies == std::optional<bool>(false); };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (found[a].second.severity != found[b].second.severity)
            return found[a].second.severity > found[b].second.severity;
        if (contradicted(a) != contradicted(b))
            return !contradicted(a);
        if (generic[a] != generic[b])
            return !generic[a];
        if (found[a].describedAt && found[b].describedAt && *found[a].describedAt != *found[b].describedAt)
            return *found[a].describedAt < *found[b].describedAt; // the words the person wrote first
        return position[a] < position[b];
    });
    std::vector<Finding> out;
    for (std::size_t k = 0; k < order.size(); ++k) {
        auto f = std::move(found[order[k]].second);
        std::string why = fmt::format("{} of {}: severity {}", ordinal(k), order.size(), severityName(f.severity));
        if (const auto at = found[order[k]].describedAt)
            why += fmt::format("; a guess from the words of line {} (no message of the stack, fact or probe named a cause)"
                               "{}", *at, k > 0 ? "; after the guesses from earlier lines" : "");
        else if (found[order[k]].presumed)
            why += f.explains.empty()
                ? std::string("; presumed from a message that does not name its cause: below the causes a line names")
                : fmt::format("; presumed (no line names it): the documented usual cause of {}, ranked above it and below "
                              "the causes a line names", fmt::join(f.explains, ", "));
        else if (!f.explains.empty())
            why += fmt::format("; ranks above {} because its cause produces that message and the facts here point to it",
                               fmt::join(f.explains, ", "));
        else if (!explainedBy[order[k]].empty())
            why += fmt::format("; below {}, which explains this message", explainedBy[order[k]]);
        else if (f.applies == std::optional<bool>(false))
            why += "; the facts here contradict its condition (see applies): below the others of its severity";
        else if (generic[order[k]])
            why += "; a generic code (the library's wrapper for many causes): below the specific causes of its severity";
        else if (k > 0 && out.back().severity == f.severity)
            why += "; same severity as the one above, ordered by the rules file (more specific rules first)";
        else if (k > 0)
            why += "; lower severity than the ones above";
        f.rankNote = why;
        out.push_back(std::move(f));
    }
    return out;
}

} // namespace

namespace {

// Every text a rule scans (logs, each probe's message and stderr), normalised once.
std::vector<SearchText> searchTexts(const DiagnosisInput& input)
{
    std::vector<SearchText> texts;
    for (const auto& log : input.logs)
        texts.push_back({"log", log.origin, NormalizedText(log.text), std::nullopt});
    for (std::size_t i = 0; i < input.probes.size(); ++i) {
        const auto& p = input.probes[i];
        const auto where = fmt::format("probe {} on device {} ({})", p.probeId, p.device, p.variant);
        if (!p.message.empty())
            texts.push_back({"probe", where + ", message", NormalizedText(p.message), i});
        if (!p.capturedStderr.empty())
            texts.push_back({"probe", where + ", stderr", NormalizedText(p.capturedStderr), i});
    }
    return texts;
}

void matchSnapshotTriggers(const DiagnosisRule& rule, const SnapshotFacts& facts, Collected& c)
{
    for (const auto& t : rule.snapshotTriggers) {
        if (auto held = evaluateTrigger(t, facts))
            c.add({"snapshot", "snapshot", std::nullopt, fmt::format("{}", fmt::join(*held, "; ")), t.note,
                   t.confidence.value_or(rule.confidence), {}},
                  std::nullopt);
    }
}

void matchProbeTriggers(const DiagnosisRule& rule, const std::vector<ProbeOutcome>& probes, const SnapshotFacts* facts,
                        Collected& c)
{
    for (const auto& t : rule.probeTriggers) {
        for (std::size_t i = 0; i < probes.size(); ++i) {
            const auto& p = probes[i];
            if (std::find(t.outcomes.begin(), t.outcomes.end(), p.outcome) == t.outcomes.end())
                continue;
            if (!t.probeIds.empty() && !contains(t.probeIds, p.probeId))
                continue;
            std::optional<std::string> arch;
            if (!t.deviceArchAny.empty()) {
                arch = facts ? facts->archOfDevice(p.device) : std::nullopt;
                if (!arch || !contains(t.deviceArchAny, *arch))
                    continue;
            }
            c.add({"probe", fmt::format("probe {} on device {} ({})", p.probeId, p.device, p.variant), std::nullopt,
                   clip(fmt::format("{}{}: {}", probeResultName(p.outcome), arch ? " on " + *arch : "", p.message)),
                   t.note, t.confidence.value_or(rule.confidence), {}},
                  i);
        }
    }
}

// An out-of-memory finding says what the job asked for and who holds the memory, before the general cause.
void addOomNumbers(Finding& f, const Snapshot* snapshot)
{
    std::optional<OomMessage> message;
    for (const auto& e : f.evidence) {
        if ((message = parseOomMessage(e.text)))
            break;
    }
    const std::string numbers = describeOom(message, snapshot);
    if (!numbers.empty())
        f.detail = numbers + " " + f.detail;
}

// The finding of a rule that matched: what it says, where it applies, its fixes (each for the archs it names).
// A process event (DiagnosisRule::processEvent) seen only in the machine's kernel log: info.
void judgeProcessEvent(const DiagnosisRule& rule, Finding& f)
{
    if (!rule.processEvent || f.evidence.empty())
        return;
    std::set<std::string> pids;
    for (const auto& e : f.evidence) {
        if (e.origin != kKernelLogOrigin)
            return; // the user's own text shows it: it is about their run
        if (const auto p = e.text.find("pid="); p != std::string::npos)
            pids.insert(e.text.substr(p + 4, e.text.find_first_of(", ", p + 4) - p - 4));
    }
    f.severity = Severity::Info;
    f.applicability.push_back(fmt::format(
        "only in this machine's kernel log ({} process{}{}{}): a past fault of the program named, not of the text "
        "diagnosed; NVIDIA's immediate action for it leaves the GPU as it is. If it repeats on one GPU with different "
        "programs, run NVIDIA's diagnostics (dcgmi diag -r 3)",
        pids.empty() ? std::string("no") : std::to_string(pids.size()), pids.size() == 1 ? "" : "es",
        pids.empty() ? "" : ": pid ", fmt::join(pids, ", ")));
}

Finding findingOf(const DiagnosisRule& rule, const Collected& c, const SnapshotFacts* facts)
{
    Finding f;
    f.id = rule.id;
    f.title = rule.title;
    f.severity = rule.severity;
    f.confidence = c.confidence;
    f.confidenceNote = rule.confidenceNote;
    f.evidence = c.evidence;
    f.evidenceCount = c.count;
    f.detail = rule.cause;
    f.sources = rule.sources;
    applyApplicability(rule, facts, f);
    judgeProcessEvent(rule, f);
    for (const auto& fr : rule.fixes) {
        FixAdvice a {fr.text, fr.env, fr.diagnostic, true, std::nullopt, {}};
        if (!fr.archs.empty()) {
            if (!facts || facts->archs.empty())
                a.applies = std::nullopt;
            else
                a.applies = std::any_of(facts->archs.begin(), facts->archs.end(),
                                        [&](const auto& x) { return contains(fr.archs, x); });
        }
        f.fixes.push_back(std::move(a));
    }
    return f;
}

// No message, fact or probe named a cause: the words of the description may (symptom_index.h). Each guess is a
// warning of low confidence that says where its words are and that the message itself would confirm it.
void guessFromSymptoms(const std::vector<SearchText>& texts, const DiagnosisRules& rules, const SnapshotFacts* facts,
                       std::vector<Found>& found)
{
    if (std::any_of(found.begin(), found.end(), [](const Found& f) { return f.second.severity != Severity::Info; }))
        return;
    std::map<std::size_t, std::pair<Collected, int>> guessed; // rule -> its evidence and first line
    for (const auto& st : texts) {
        if (st.source != "log")
            continue;
        for (const auto& hit : rules.symptomIndex().find(st.text)) {
            const auto& rule = rules.rules()[hit.rule];
            if (rule.manualOnly)
                continue;
            const auto& line = st.text.lines()[hit.line];
            auto [it, fresh] = guessed.try_emplace(hit.rule, Collected {}, line.number);
            it->second.second = std::min(it->second.second, line.number);
            it->second.first.add({st.source, st.origin, line.number, clip(line.display),
                                  fmt::format("{}{}", kSymptomSignaturePrefix, fmt::join(hit.words, " + ")), Confidence::Low,
                                  rule.symptoms[hit.set].note},
                                 std::nullopt);
        }
    }
    for (auto& [r, cl] : guessed) {
        const auto& rule = rules.rules()[r];
        Finding f = findingOf(rule, cl.first, facts);
        f.severity = std::min(f.severity, Severity::Warning);
        f.confidence = Confidence::Low;
        f.confidenceNote = "A guess from the words of the description, not from a message of the stack: paste the "
                           "program's complete output (or run diagnose on the machine) to confirm or replace it.";
        found.push_back({r, std::move(f), false, cl.second});
    }
}

} // namespace

std::vector<Finding> diagnose(const DiagnosisInput& input, const DiagnosisRules& rules)
{
    const std::vector<SearchText> texts = searchTexts(input);
    const SignatureIndex& index = rules.signatureIndex();
    std::vector<SignatureIndex::Hits> hits;
    for (const auto& st : texts)
        hits.push_back(index.find(st.text));
    std::optional<SnapshotFacts> facts;
    if (input.snapshot)
        facts.emplace(*input.snapshot);
    const SnapshotFacts* known = facts ? &*facts : nullptr;

    std::vector<Found> found;
    const auto& all = rules.rules();
    std::vector<Collected> collected(all.size());
    std::vector<std::vector<char>> claimed;
    for (const auto& st : texts)
        claimed.emplace_back(st.text.lines().size(), 0);
    for (const Reading reading : {Reading::AsWritten, Reading::PastedForms}) {
        for (std::size_t r = 0; r < all.size(); ++r) {
            for (std::size_t t = 0; t < texts.size() && !all[r].manualOnly; ++t)
                matchSignatures(index, r, all[r], texts[t], hits[t], reading, claimed[t], collected[r]);
        }
    }
    for (std::size_t r = 0; r < all.size(); ++r) {
        const auto& rule = all[r];
        if (rule.manualOnly)
            continue;
        Collected& c = collected[r];
        const std::size_t textMatches = c.count;
        if (known)
            matchSnapshotTriggers(rule, *known, c);
        matchProbeTriggers(rule, input.probes, known, c);
        if (c.count == 0)
            continue;
        if (rule.requireTextAndSnapshot && (textMatches == 0 || textMatches == c.count))
            continue; // needs both the message and the facts that explain it
        Finding f = findingOf(rule, c, known);
        verifyFixes(input.probes, c, f);
        if (rule.id == "CUDA_OOM" || rule.id == "HIP_OOM")
            addOomNumbers(f, input.snapshot);
        found.push_back({r, std::move(f), !c.named, std::nullopt});
    }
    guessFromSymptoms(texts, rules, known, found);
    return rankFindings(std::move(found), rules);
}

bool isGuessFromWords(const Finding& f)
{
    return f.confidence == Confidence::Low && !f.evidence.empty()
        && std::all_of(f.evidence.begin(), f.evidence.end(),
                       [](const Evidence& e) { return e.signature.rfind(kSymptomSignaturePrefix, 0) == 0; });
}

std::string findingHeadline(const Finding& f)
{
    const std::string& title = f.title.empty() ? f.id : f.title;
    return isGuessFromWords(f) ? "Guess from the words: " + title : title;
}

std::optional<LogText> snapshotKernelLog(const Snapshot& s)
{
    std::string text;
    for (const auto& line : s.hostExtras.kernelLogGpuLines)
        text += line + "\n";
    if (text.empty())
        return std::nullopt;
    return LogText {kKernelLogOrigin, std::move(text)};
}

} // namespace stackscope
