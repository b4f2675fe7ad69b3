// Loads and checks diagnosis rules: unknown keys, wrong types, missing sources or fixes are errors
// that name the rule id and the key, so a typo in the rules file never silently disables a rule.
#include "core/diagnosis/diagnosis_rules.h"

#include "core/util/public_url.h"
#include "core/util/file_read.h"
#include "core/util/task_runner.h"

#include "core/diagnosis/diagnosis_catalogue.h"
#include "core/diagnosis/signature_index.h"
#include "core/diagnosis/symptom_index.h"
#include "core/diagnosis/text_normalizer.h"
#include "core/snapshot/snapshot_json.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

extern const char* const stackscope_diagnosis_rules_json;

namespace stackscope {

using nlohmann::json;

namespace {

// Reads one JSON object, remembering where it is for error messages and which keys were used.
class ObjectReader {
public:
    ObjectReader(const json& j, std::string origin, std::string ruleId, std::string path)
        : m_j(j), m_origin(std::move(origin)), m_ruleId(std::move(ruleId)), m_path(std::move(path))
    {
        if (!m_j.is_object())
            fail("", fmt::format("must be a JSON object, found {}", m_j.type_name()));
    }

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const
    {
        std::string where = m_path;
        if (!key.empty())
            where += (where.empty() ? "" : ".") + key;
        throw DiagnosisRulesError(fmt::format("{}: rule '{}', key '{}': {}; fix the rules file (format: "
                                              "resources/rules/README.md)",
                                              m_origin, m_ruleId.empty() ? "?" : m_ruleId, where, problem));
    }

    const json* get(const char* key)
    {
        m_used.push_back(key);
        auto it = m_j.find(key);
        return it == m_j.end() || it->is_null() ? nullptr : &*it;
    }

    std::string str(const char* key, bool required)
    {
        const json* v = get(key);
        if (!v) {
            if (required)
                fail(key, "is missing");
            return {};
        }
        if (!v->is_string())
            fail(key, fmt::format("must be a string, found {}", v->type_name()));
        auto s = v->get<std::string>();
        if (required && s.empty())
            fail(key, "must not be empty");
        return s;
    }

    std::vector<std::string> strings(const char* key, bool required)
    {
        const json* v = get(key);
        std::vector<std::string> out;
        if (!v) {
            if (required)
                fail(key, "is missing");
            return out;
        }
        if (!v->is_array())
            fail(key, fmt::format("must be an array of strings, found {}", v->type_name()));
        for (std::size_t i = 0; i < v->size(); ++i) {
            if (!(*v)[i].is_string() || (*v)[i].get<std::string>().empty())
                fail(fmt::format("{}[{}]", key, i), "must be a non-empty string");
            out.push_back((*v)[i].get<std::string>());
        }
        if (required && out.empty())
            fail(key, "must list at least one entry");
        return out;
    }

    // One string, or an array of them ("family": a cause may belong to two families).
    std::vector<std::string> stringOrStrings(const char* key)
    {
        if (const json* v = get(key); v && v->is_string())
            return {str(key, true)};
        return strings(key, false);
    }

    std::optional<bool> boolean(const char* key)
    {
        const json* v = get(key);
        if (!v)
            return std::nullopt;
        if (!v->is_boolean())
            fail(key, fmt::format("must be true or false, found {}", v->type_name()));
        return v->get<bool>();
    }

    std::optional<VersionRange> range(const char* key)
    {
        const auto s = str(key, false);
        if (s.empty())
            return std::nullopt;
        try {
            return VersionRange::parse(s);
        } catch (const std::invalid_argument& e) {
            fail(key, e.what());
        }
    }

    std::optional<Confidence> confidence(const char* key, bool required)
    {
        const auto s = str(key, required);
        if (s.empty())
            return std::nullopt;
        auto c = confidenceFromName(s);
        if (!c)
            fail(key, fmt::format("is '{}'; expected high, medium, low or informational", s));
        return c;
    }

    std::map<std::string, std::string> stringMap(const char* key)
    {
        std::map<std::string, std::string> out;
        const json* v = get(key);
        if (!v)
            return out;
        if (!v->is_object())
            fail(key, "must be an object of strings");
        for (const auto& [k, val] : v->items()) {
            if (!val.is_string())
                fail(std::string(key) + "." + k, "must be a string");
            out[k] = val.get<std::string>();
        }
        return out;
    }

    ObjectReader child(const json& j, const std::string& key) const
    {
        return ObjectReader(j, m_origin, m_ruleId, m_path.empty() ? key : m_path + "." + key);
    }

    // Call last: any key not read is a typo or an unsupported feature.
    void rejectUnknownKeys() const
    {
        for (const auto& [k, v] : m_j.items()) {
            if (std::none_of(m_used.begin(), m_used.end(), [&k = k](const char* used) { return k == used; }))
                fail(k, "is not a known key");
        }
    }

    const json& value() const { return m_j; }

private:
    const json& m_j;
    std::string m_origin;
    std::string m_ruleId;
    std::string m_path;
    std::vector<const char*> m_used; // keys are literals of this file; a reader reads a handful
};

std::vector<const json*> arrayOfObjects(ObjectReader& r, const char* key)
{
    std::vector<const json*> out;
    const json* v = r.get(key);
    if (!v)
        return out;
    if (!v->is_array())
        r.fail(key, fmt::format("must be an array, found {}", v->type_name()));
    for (const auto& e : *v)
        out.push_back(&e);
    return out;
}

std::string lowerIf(std::string s, bool lower)
{
    if (lower) {
        for (auto& c : s)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return s;
}

TextSignature readSignature(ObjectReader r)
{
    TextSignature s;
    s.text = r.str("text", false);
    s.pattern = r.str("pattern", false);
    s.anchor = r.str("anchor", false);
    s.ignoreCase = r.boolean("icase").value_or(false);
    s.confidence = r.confidence("confidence", false);
    s.note = r.str("note", false);
    s.presumed = r.boolean("presumed").value_or(false);
    r.rejectUnknownKeys();
    if (s.presumed && s.note.empty())
        r.fail("note", "a presumed signature says why its cause is the usual one for that message (\"note\")");
    if (s.text.empty() == s.pattern.empty())
        r.fail("", "give exactly one of \"text\" (exact) or \"pattern\" (tolerant)");
    if (!s.text.empty()) {
        if (!s.anchor.empty())
            r.fail("anchor", "only patterns take an anchor (an exact text is its own anchor)");
        s.normalizedText = normalizeSignatureText(s.text);
        if (s.normalizedText.size() < 8)
            r.fail("text", "is too short to identify a problem (8 characters at least)");
    } else {
        auto flags = std::regex::ECMAScript | std::regex::optimize;
        if (s.ignoreCase)
            flags |= std::regex::icase;
        s.regex = std::make_shared<const LazyRegex>(quoteTolerantPattern(s.pattern), flags);
        if (!s.ignoreCase)
            s.regexLowerCaseLine = std::make_shared<const LazyRegex>(quoteTolerantPattern(s.pattern), flags | std::regex::icase);
        // The anchor prefilters lines; one that drifted from the pattern would silently stop it matching.
        if (!s.anchor.empty() && lowerIf(s.pattern, s.ignoreCase).find(lowerIf(s.anchor, s.ignoreCase)) == std::string::npos)
            r.fail("anchor", fmt::format("'{}' does not appear literally in the pattern; use a plain piece of it", s.anchor));
        // A line retyped without the quotes must still be tried.
        if (const std::string piece = quoteFreeAnchor(s.anchor); piece != s.anchor) {
            s.anchor = piece;
            if (s.anchor.size() < 4)
                r.fail("anchor", "needs a piece of 4 characters or more without quotes (the lines it prefilters may have lost them)");
        }
    }
    return s;
}

SnapshotTrigger readSnapshotTrigger(ObjectReader r)
{
    SnapshotTrigger t;
    if (const json* v = r.get("amd_gpus_min")) {
        if (!v->is_number_integer() || v->get<int>() < 1)
            r.fail("amd_gpus_min", "must be a positive integer");
        t.amdGpusMin = v->get<int>();
    }
    if (const json* v = r.get("gpus_min")) {
        if (!v->is_number_integer() || v->get<int>() < 1)
            r.fail("gpus_min", "must be a positive integer");
        t.gpusMin = v->get<int>();
    }
    t.gpuArchAny = r.strings("gpu_arch_any", false);
    t.envUnset = r.strings("env_unset", false);
    t.envEquals = r.stringMap("env_equals");
    t.envContains = r.stringMap("env_contains");
    t.rocmVersion = r.range("rocm_version");
    t.torchVersion = r.range("torch_version");
    if (auto s = r.str("torch_backend", false); !s.empty())
        t.torchBackend = s;
    if (auto s = r.str("torch_blas_backend", false); !s.empty())
        t.torchBlasBackend = s;
    t.kfdReadWrite = r.boolean("kfd_read_write");
    t.wsl = r.boolean("wsl");
    t.secureBoot = r.boolean("secure_boot");
    t.kernelCmdlineLacks = r.str("kernel_cmdline_lacks", false);
    t.dkmsAmdgpu = r.boolean("dkms_amdgpu");
    t.amdgpuLoaded = r.boolean("amdgpu_loaded");
    t.torchRocmDiffers = r.boolean("torch_rocm_differs_from_installed");
    t.pcieLinkNarrow = r.boolean("pcie_link_narrow");
    t.pcieLinkSlow = r.boolean("pcie_link_slow");
    t.gpusHiddenByEnv = r.boolean("gpus_hidden_by_env");
    t.cudaDriverOlderThanTorch = r.boolean("cuda_driver_older_than_torch");
    t.containerWithoutGpus = r.boolean("container_without_gpus");
    t.torchFoundNoGpu = r.boolean("torch_found_no_gpu");
    t.torchForAbsentVendor = r.boolean("torch_for_absent_vendor");
    t.confidence = r.confidence("confidence", false);
    t.note = r.str("note", true);
    r.rejectUnknownKeys();
    const bool any = t.amdGpusMin || t.gpusMin || t.containerWithoutGpus || t.torchFoundNoGpu || t.torchForAbsentVendor || !t.gpuArchAny.empty() || !t.envUnset.empty() || !t.envEquals.empty()
        || !t.envContains.empty() || t.rocmVersion || t.torchVersion || t.torchBackend || t.torchBlasBackend
        || t.kfdReadWrite || t.wsl || t.secureBoot || !t.kernelCmdlineLacks.empty() || t.dkmsAmdgpu || t.amdgpuLoaded || t.torchRocmDiffers || t.pcieLinkNarrow || t.pcieLinkSlow || t.gpusHiddenByEnv || t.cudaDriverOlderThanTorch;
    if (!any)
        r.fail("", "a snapshot trigger needs at least one condition");
    return t;
}

ProbeTrigger readProbeTrigger(ObjectReader r)
{
    ProbeTrigger t;
    for (const auto& name : r.strings("outcomes", true)) {
        auto o = probeResultFromName(name);
        if (!o)
            r.fail("outcomes", fmt::format("'{}' is not ok, error, crash, hang, wrong or unsupported", name));
        t.outcomes.push_back(*o);
    }
    t.deviceArchAny = r.strings("device_arch_any", false);
    t.probeIds = r.strings("probe_ids", false);
    t.confidence = r.confidence("confidence", false);
    t.note = r.str("note", true);
    r.rejectUnknownKeys();
    return t;
}

Applicability readApplicability(ObjectReader r)
{
    Applicability a;
    a.torch = r.range("torch");
    a.torchRocm = r.range("torch_rocm");
    a.rocm = r.range("rocm");
    a.archs = r.strings("archs", false);
    if (auto s = r.str("backend", false); !s.empty()) {
        if (s != "rocm" && s != "cuda" && s != "cpu")
            r.fail("backend", fmt::format("is '{}'; expected rocm, cuda or cpu", s));
        a.backend = s;
    }
    a.envSet = r.strings("env_set", false);
    a.note = r.str("note", false);
    r.rejectUnknownKeys();
    return a;
}

// {"words": [["bus error"], ["shared memory", "shm"]], "none": [...], "note": "..."}: at least two groups, or one
// whose every word is long enough (12 characters) not to be a common word.
SymptomSet readSymptomSet(ObjectReader r)
{
    SymptomSet s;
    const json* words = r.get("words");
    if (!words || !words->is_array() || words->empty())
        r.fail("words", "must be a non-empty array of word groups (arrays of strings)");
    const auto word = [&](const json& w, const std::string& where) {
        std::string text;
        bool prefix = false;
        if (!w.is_string() || !parseSymptomWord(w.get<std::string>(), text, prefix))
            r.fail(where, "must hold lower-case words of 3 characters or more, '*' only at the end");
        if (w.get<std::string>() != text + (prefix ? "*" : ""))
            r.fail(where, fmt::format("'{}' must be written in lower case", w.get<std::string>()));
        return w.get<std::string>();
    };
    for (const auto& g : *words) {
        if (!g.is_array() || g.empty())
            r.fail("words", "each group must be a non-empty array of strings (one of them must be on the line)");
        auto& group = s.words.emplace_back();
        for (const auto& w : g)
            group.push_back(word(w, "words"));
    }
    if (const json* none = r.get("none")) {
        if (!none->is_array())
            r.fail("none", "must be an array of words");
        for (const auto& w : *none)
            s.none.push_back(word(w, "none"));
    }
    s.note = r.str("note", true);
    r.rejectUnknownKeys();
    std::size_t shortest = std::string::npos; // of the words that must be there (not of `none`)
    for (const auto& group : s.words) {
        for (const auto& w : group)
            shortest = std::min(shortest, w.size() - (w.back() == '*' ? 1 : 0));
    }
    if (s.words.size() < 2 && shortest < 12)
        r.fail("words", "a single group must hold only words of 12 characters or more; add a second group");
    return s;
}

FixRule readFix(ObjectReader r)
{
    FixRule f;
    f.text = r.str("text", true);
    if (const json* env = r.get("env")) {
        if (!env->is_object() || env->empty())
            r.fail("env", "must be a non-empty object: variable -> value (a string) or null (unset)");
        for (const auto& [k, v] : env->items()) {
            if (v.is_null())
                f.env[k] = std::nullopt;
            else if (v.is_string())
                f.env[k] = v.get<std::string>();
            else
                r.fail("env." + k, "must be a string or null (unset)");
        }
    }
    f.archs = r.strings("archs", false);
    f.diagnostic = r.boolean("diagnostic").value_or(false);
    r.rejectUnknownKeys();
    return f;
}

bool isRuleId(const std::string& id)
{
    if (id.empty() || !(id[0] >= 'A' && id[0] <= 'Z'))
        return false;
    for (char c : id) {
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    }
    return true;
}

DiagnosisRule readRule(const json& j, const std::string& origin, std::size_t index)
{
    std::string id;
    if (j.is_object() && j.contains("id") && j["id"].is_string())
        id = j["id"].get<std::string>();
    ObjectReader r(j, origin, id.empty() ? fmt::format("#{}", index) : id, "");
    DiagnosisRule rule;
    rule.id = r.str("id", true);
    if (!isRuleId(rule.id))
        r.fail("id", "must be UPPER_SNAKE_CASE like the facts file's ids");
    rule.title = r.str("title", true);
    const auto severity = r.str("severity", true);
    const auto sev = severityFromName(severity);
    if (!sev)
        r.fail("severity", fmt::format("is '{}'; expected info, warning or error", severity));
    rule.severity = *sev;
    rule.confidence = *r.confidence("confidence", true);
    rule.confidenceNote = r.str("confidence_note", false);
    rule.cause = r.str("cause", true);
    const auto sigs = arrayOfObjects(r, "signatures");
    for (std::size_t i = 0; i < sigs.size(); ++i)
        rule.signatures.push_back(readSignature(r.child(*sigs[i], fmt::format("signatures[{}]", i))));
    const auto snaps = arrayOfObjects(r, "snapshot_triggers");
    for (std::size_t i = 0; i < snaps.size(); ++i)
        rule.snapshotTriggers.push_back(readSnapshotTrigger(r.child(*snaps[i], fmt::format("snapshot_triggers[{}]", i))));
    const auto probes = arrayOfObjects(r, "probe_triggers");
    for (std::size_t i = 0; i < probes.size(); ++i)
        rule.probeTriggers.push_back(readProbeTrigger(r.child(*probes[i], fmt::format("probe_triggers[{}]", i))));
    if (const json* a = r.get("applicability"))
        rule.applicability = readApplicability(r.child(*a, "applicability"));
    const auto detection = r.str("detection", false);
    if (!detection.empty() && detection != "manual")
        r.fail("detection", fmt::format("is '{}'; the only value is \"manual\" (leave it out for automatic rules)", detection));
    rule.manualOnly = detection == "manual";
    rule.detectionNote = r.str("detection_note", rule.manualOnly);
    const auto fixes = arrayOfObjects(r, "fixes");
    if (fixes.empty())
        r.fail("fixes", "must list at least one fix, in the order to try them");
    for (std::size_t i = 0; i < fixes.size(); ++i)
        rule.fixes.push_back(readFix(r.child(*fixes[i], fmt::format("fixes[{}]", i))));
    rule.sources = r.strings("sources", true);
    for (std::size_t i = 0; i < rule.sources.size(); ++i) {
        const auto& src = rule.sources[i];
        if (!isPublicUrl(src))
            r.fail(fmt::format("sources[{}]", i), fmt::format("'{}' is not a public http(s) URL; a user must be able to "
                                                             "open every source (cite the primary source's URL)",
                                                             src));
    }
    rule.explains = r.strings("explains", false);
    const auto require = r.str("require", false);
    if (!require.empty() && require != "text_and_snapshot")
        r.fail("require", fmt::format("is '{}'; the only value is \"text_and_snapshot\"", require));
    rule.requireTextAndSnapshot = require == "text_and_snapshot";
    rule.catalogue = r.str("catalogue", false);
    rule.families = r.stringOrStrings("family");
    for (const auto& family : rule.families)
        if (!isRuleId(family))
            r.fail("family", "must be UPPER_SNAKE_CASE (a cause id of tests/fixtures/diagnosis/cause-ids.md)");
    rule.generic = r.boolean("generic").value_or(false);
    rule.processEvent = r.boolean("process_event").value_or(false);
    const auto symptoms = arrayOfObjects(r, "symptoms");
    for (std::size_t i = 0; i < symptoms.size(); ++i)
        rule.symptoms.push_back(readSymptomSet(r.child(*symptoms[i], fmt::format("symptoms[{}]", i))));
    r.rejectUnknownKeys();
    if (rule.requireTextAndSnapshot && (rule.signatures.empty() || rule.snapshotTriggers.empty()))
        r.fail("require", "\"text_and_snapshot\" needs both signatures and snapshot_triggers");
    const bool detectable = !rule.signatures.empty() || !rule.snapshotTriggers.empty() || !rule.probeTriggers.empty();
    if (rule.manualOnly && detectable)
        r.fail("detection", "a manual rule must not have signatures or triggers");
    if (!rule.manualOnly && !detectable)
        r.fail("signatures", "the rule has no signatures, snapshot_triggers or probe_triggers; add one, or mark it "
                             "\"detection\": \"manual\" with a detection_note saying why");
    return rule;
}

} // namespace

const DiagnosisRules& DiagnosisRules::builtIn()
{
    static const DiagnosisRules rules = [] {
        std::vector<RulesText> texts {{"resources/rules/diagnosis.json (built in)", stackscope_diagnosis_rules_json}};
        for (auto& c : builtInCatalogueTexts())
            texts.push_back(std::move(c));
        return fromTexts(texts, PatternCheck::FirstUse);
    }();
    return rules;
}

std::vector<RulesSource> builtInCatalogues()
{
    std::vector<RulesSource> sources;
    for (const auto& t : builtInCatalogueTexts())
        sources.push_back({t.origin, std::string(t.text)});
    return sources;
}

DiagnosisRules DiagnosisRules::fromJson(const std::string& text, const std::string& origin)
{
    return fromSources({{origin, text}});
}

namespace {

// The rule objects of one source: diagnosis.json's "rules", or a catalogue's entries turned into rules.
std::vector<json> ruleObjects(const RulesText& source, std::vector<CatalogueCode>& codes)
{
    const auto& origin = source.origin;
    json j;
    try {
        j = json::parse(source.text);
    } catch (const json::parse_error& e) {
        throw DiagnosisRulesError(fmt::format("{}: not valid JSON ({}); fix the rules file", origin, e.what()));
    }
    const std::string schema = j.is_object() && j.contains("schema") && j["schema"].is_string() ? j["schema"].get<std::string>() : "";
    if (schema == kCatalogueSchema) {
        auto c = catalogueToRules(std::move(j), origin);
        codes.insert(codes.end(), std::make_move_iterator(c.codes.begin()), std::make_move_iterator(c.codes.end()));
        return std::move(c.rules);
    }
    if (!j.is_object() || !j.contains("rules") || !j["rules"].is_array())
        throw DiagnosisRulesError(fmt::format("{}: expected an object with a \"rules\" array", origin));
    if (schema != "stackscope.diagnosis-rules/1")
        throw DiagnosisRulesError(fmt::format("{}: \"schema\" must be \"stackscope.diagnosis-rules/1\" (or \"{}\" for a "
                                              "catalogue)", origin, kCatalogueSchema));
    for (const auto& [k, v] : j.items()) {
        if (k != "schema" && k != "about" && k != "rules")
            throw DiagnosisRulesError(fmt::format("{}: top-level key '{}' is not known (schema, about, rules)", origin, k));
    }
    return std::move(j["rules"].get_ref<json::array_t&>());
}

} // namespace

namespace {

void compilePatterns(const DiagnosisRule& rule, const std::string& origin)
{
    for (std::size_t k = 0; k < rule.signatures.size(); ++k) {
        const auto& sig = rule.signatures[k];
        if (!sig.regex)
            continue;
        try {
            sig.regex->get();
        } catch (const std::regex_error& e) {
            throw DiagnosisRulesError(fmt::format("{}: rule '{}', key 'signatures[{}].pattern': is not a valid ECMAScript "
                                                  "regular expression ({}); fix the rules file (format: "
                                                  "resources/rules/README.md)",
                                                  origin, rule.id, k, e.what()));
        }
    }
}

} // namespace

namespace {

// One source's rules and codes, read on its own (a thread of the shared runner each).
struct SourceRules {
    std::vector<DiagnosisRule> rules;
    std::vector<CatalogueCode> codes;
};

SourceRules readSource(const RulesText& source, DiagnosisRules::PatternCheck check)
{
    SourceRules out;
    const auto objects = ruleObjects(source, out.codes);
    out.rules.reserve(objects.size());
    for (std::size_t i = 0; i < objects.size(); ++i) {
        out.rules.push_back(readRule(objects[i], source.origin, i));
        if (check == DiagnosisRules::PatternCheck::AtLoad)
            compilePatterns(out.rules.back(), source.origin);
    }
    return out;
}

} // namespace

// The sources are parsed and read at the same time (about 1 MB of JSON for the built-in rules: most of a start's
// time), then joined in their order, so ids, errors and the rules' order are those of reading them one after another
// (forEach throws the lowest source's error).
DiagnosisRules DiagnosisRules::fromSources(const std::vector<RulesSource>& sources, PatternCheck check)
{
    std::vector<RulesText> texts;
    texts.reserve(sources.size());
    for (const auto& s : sources)
        texts.push_back({s.origin, s.text});
    return fromTexts(texts, check);
}

DiagnosisRules DiagnosisRules::fromTexts(const std::vector<RulesText>& sources, PatternCheck check)
{
    std::vector<SourceRules> read(sources.size());
    TaskRunner::shared().forEach(sources.size(), [&](std::size_t i) { read[i] = readSource(sources[i], check); });
    DiagnosisRules out;
    std::size_t total = 0;
    for (const auto& r : read)
        total += r.rules.size();
    out.m_rules.reserve(total);
    std::vector<std::size_t> sourceOf; // by rule: the source it came from
    sourceOf.reserve(total);
    for (std::size_t s = 0; s < sources.size(); ++s) {
        for (auto& rule : read[s].rules) {
            const auto [at, added] = out.m_index.emplace(rule.id, out.m_rules.size());
            if (!added)
                throw DiagnosisRulesError(fmt::format("{}: rule '{}', key 'id': the id is used twice (first in {}); ids must "
                                                      "be unique over all rules files and catalogues",
                                                      sources[s].origin, rule.id, sources[sourceOf[at->second]].origin));
            sourceOf.push_back(s);
            out.m_rules.push_back(std::move(rule));
        }
        out.m_codes.insert(out.m_codes.end(), std::make_move_iterator(read[s].codes.begin()),
                           std::make_move_iterator(read[s].codes.end()));
    }
    for (std::size_t r = 0; r < out.m_rules.size(); ++r) {
        const auto& rule = out.m_rules[r];
        for (const auto& id : rule.explains) {
            if (!out.m_index.count(id) || id == rule.id)
                throw DiagnosisRulesError(fmt::format("{}: rule '{}', key 'explains': '{}' is not another rule's id",
                                                      sources[sourceOf[r]].origin, rule.id, id));
        }
    }
    for (const auto& code : out.m_codes) {
        if (!out.m_index.count(code.ruleId))
            throw DiagnosisRulesError(fmt::format("{}: catalogue '{}': code '{}' is covered by '{}', which is no rule's id; "
                                                  "fix covered_by", code.origin, code.catalogue, code.code, code.ruleId));
    }
    // The two automata at the same time.
    TaskRunner::shared().forEach(2, [&](std::size_t i) {
        if (i == 0)
            out.m_signatures = std::make_shared<const SignatureIndex>(out.m_rules);
        else
            out.m_symptoms = std::make_shared<const SymptomIndex>(out.m_rules);
    });
    return out;
}

bool DiagnosisRules::names(const std::string& findingId, const std::string& expected) const
{
    if (findingId == expected)
        return true;
    const auto* rule = find(findingId);
    return rule && std::find(rule->families.begin(), rule->families.end(), expected) != rule->families.end();
}

namespace {

RulesSource readRulesSource(const std::string& path)
{
    std::string why;
    auto text = readRegularFile(path, kWrittenFileCap, &why);
    if (!text)
        throw DiagnosisRulesError(fmt::format("{}: cannot read the rules file ({}); check the path given to --rules",
                                              path, why));
    return {path, std::move(*text)};
}

// diagnosis.json, then catalogues/*.json sorted by name: the order builtInCatalogues() embeds them in.
std::vector<RulesSource> readRulesFolder(const std::filesystem::path& dir)
{
    std::vector<RulesSource> sources {readRulesSource((dir / "diagnosis.json").string())};
    std::vector<std::filesystem::path> catalogues;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir / "catalogues", ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".json")
            catalogues.push_back(it->path());
    }
    if (ec && ec != std::errc::no_such_file_or_directory)
        throw DiagnosisRulesError(fmt::format("{}: cannot list the catalogues ({}); check the folder given to --rules",
                                              (dir / "catalogues").string(), ec.message()));
    std::sort(catalogues.begin(), catalogues.end());
    for (const auto& c : catalogues)
        sources.push_back(readRulesSource(c.string()));
    return sources;
}

} // namespace

DiagnosisRules DiagnosisRules::fromFile(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return fromSources(readRulesFolder(path));
    auto source = readRulesSource(path);
    return fromJson(source.text, source.origin);
}

const DiagnosisRule* DiagnosisRules::find(const std::string& id) const
{
    const auto it = m_index.find(id);
    return it == m_index.end() ? nullptr : &m_rules[it->second];
}

} // namespace stackscope
