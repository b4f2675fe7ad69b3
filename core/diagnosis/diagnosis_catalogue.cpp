// Turns a catalogue's entries into rules: codes become whole-identifier patterns, messages exact texts (and their
// wrapped forms, "wrappers"), the catalogue's defaults and sources are merged into each entry.
#include "core/diagnosis/diagnosis_catalogue.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace stackscope {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& origin, const std::string& where, const std::string& problem)
{
    throw DiagnosisRulesError(fmt::format("{}: {}: {}; fix the catalogue (format: resources/rules/catalogues/FORMAT.md)",
                                          origin, where, problem));
}

const std::set<std::string> kTopKeys {"schema", "catalogue", "title", "vendor", "about", "sources", "defaults", "entries", "covered_by",
                                      "wrappers"};
const std::set<std::string> kDefaultKeys {"severity", "confidence", "applicability"};
// Keys an entry has beyond a rule's own (a rule's keys are checked by the rule reader).
const std::set<std::string> kEntryOnlyKeys {"codes", "messages", "patterns"};

bool isIdentifierChar(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// A symbolic code as a whole identifier: \b on both sides (an underscore is a word character, so
// HSA_STATUS_ERROR_INVALID_ISA never matches ..._INVALID_ISA_NAME).
json codeSignature(const std::string& code, const std::string& origin, const std::string& where)
{
    if (code.size() < 4)
        fail(origin, where, fmt::format("code '{}' is too short to identify anything", code));
    for (char c : code) {
        if (!isIdentifierChar(c))
            fail(origin, where, fmt::format("code '{}' is not an identifier (letters, digits, _)", code));
    }
    return json {{"pattern", "\\b" + code + "\\b"}, {"anchor", code}, {"note", "the code " + code}};
}

// A program that prints this vocabulary's messages behind its own prefix ("Triton Error [CUDA]: " + cuGetErrorString):
// every message that starts with one of `prefixes` is also matched with `as` in their place.
struct Wrapper {
    std::vector<std::string> prefixes;
    std::string as;
    std::string source; // the code that prints the prefix: a source of every entry it wraps a message of
};

std::vector<std::string> stringList(const json& j, const std::string& key, const std::string& origin, const std::string& where)
{
    std::vector<std::string> out;
    const auto it = j.find(key);
    if (it == j.end())
        return out;
    if (!it->is_array())
        fail(origin, where + "." + key, "must be an array of strings");
    for (const auto& v : *it) {
        if (!v.is_string())
            fail(origin, where + "." + key, "must be an array of strings");
        out.push_back(v.get<std::string>());
    }
    return out;
}

// The messages as written, then each wrapped form a wrapper gives that is not already there (its source goes to
// `wrapperSources`).
std::vector<std::string> messagesWithWrappers(const std::vector<std::string>& messages, const std::vector<Wrapper>& wrappers,
                                              std::vector<std::string>& wrapperSources)
{
    std::vector<std::string> out = messages;
    for (const auto& m : messages) {
        for (const auto& w : wrappers) {
            for (const auto& prefix : w.prefixes) {
                if (m.size() <= prefix.size() || m.compare(0, prefix.size(), prefix) != 0)
                    continue;
                std::string wrapped = w.as + m.substr(prefix.size());
                if (std::find(out.begin(), out.end(), wrapped) != out.end())
                    continue;
                out.push_back(std::move(wrapped));
                if (std::find(wrapperSources.begin(), wrapperSources.end(), w.source) == wrapperSources.end())
                    wrapperSources.push_back(w.source);
            }
        }
    }
    return out;
}

std::vector<Wrapper> readWrappers(const json& catalogue, const std::string& origin)
{
    std::vector<Wrapper> out;
    const auto it = catalogue.find("wrappers");
    if (it == catalogue.end())
        return out;
    if (!it->is_array())
        fail(origin, "wrappers", "must be an array of {\"prefixes\", \"as\", \"source\"} objects");
    for (std::size_t i = 0; i < it->size(); ++i) {
        const auto& w = (*it)[i];
        const std::string where = fmt::format("wrappers[{}]", i);
        if (!w.is_object() || !w.contains("as") || !w["as"].is_string() || w["as"].get<std::string>().size() < 4)
            fail(origin, where, "needs \"as\": the prefix the wrapping program prints (4 characters or more)");
        if (!w.contains("source") || !w["source"].is_string() || w["source"].get<std::string>().rfind("https://", 0) != 0)
            fail(origin, where, "needs \"source\": the https URL of the code that prints the prefix");
        Wrapper out1 {stringList(w, "prefixes", origin, where), w["as"].get<std::string>(), w["source"].get<std::string>()};
        if (out1.prefixes.empty())
            fail(origin, where, "needs \"prefixes\": the message prefixes it replaces");
        out.push_back(std::move(out1));
    }
    return out;
}

// The entry's own keys are moved into the rule (the catalogue is the caller's copy, read once).
json entryToRule(json& entry, const json& defaults, const std::vector<std::string>& sources,
                 const std::vector<Wrapper>& wrappers, const std::string& catalogue, const std::string& origin,
                 const std::string& where, std::vector<CatalogueCode>& codes)
{
    if (!entry.is_object())
        fail(origin, where, "must be a JSON object");
    const std::string id = entry.contains("id") && entry["id"].is_string() ? entry["id"].get<std::string>() : std::string();
    json signatures = json::array();
    for (const auto& code : stringList(entry, "codes", origin, where)) {
        signatures.push_back(codeSignature(code, origin, where + ".codes"));
        codes.push_back({origin, catalogue, code, id});
    }
    std::vector<std::string> wrapperSources;
    for (auto& message : messagesWithWrappers(stringList(entry, "messages", origin, where), wrappers, wrapperSources))
        signatures.push_back(json {{"text", std::move(message)}});
    if (const auto it = entry.find("patterns"); it != entry.end()) {
        if (!it->is_array())
            fail(origin, where + ".patterns", "must be an array of {\"pattern\", \"anchor\"} objects");
        for (auto& p : *it)
            signatures.push_back(std::move(p));
    }
    if (signatures.empty() && !entry.contains("snapshot_triggers"))
        fail(origin, where, "an entry needs at least one of codes, messages or patterns");
    std::vector<std::string> all = stringList(entry, "sources", origin, where);
    all.insert(all.end(), wrapperSources.begin(), wrapperSources.end());
    for (const auto& s : sources) {
        if (std::find(all.begin(), all.end(), s) == all.end())
            all.push_back(s);
    }
    json rule = json::object();
    for (auto& [k, v] : entry.items()) {
        if (!kEntryOnlyKeys.count(k))
            rule[k] = std::move(v);
    }
    if (!signatures.empty())
        rule["signatures"] = std::move(signatures);
    for (const auto& [k, v] : defaults.items()) {
        if (!rule.contains(k))
            rule[k] = v;
    }
    rule["sources"] = std::move(all);
    rule["catalogue"] = catalogue;
    return rule;
}

} // namespace

CatalogueRules catalogueToRules(json catalogue, const std::string& origin)
{
    if (!catalogue.is_object())
        fail(origin, "top level", "must be a JSON object");
    for (const auto& [k, v] : catalogue.items()) {
        if (!kTopKeys.count(k))
            fail(origin, "top level", fmt::format("key '{}' is not known", k));
    }
    const auto nameIt = catalogue.find("catalogue");
    const std::string name = nameIt != catalogue.end() && nameIt->is_string() ? nameIt->get<std::string>() : std::string();
    if (name.empty())
        fail(origin, "catalogue", "must name the catalogue (the file name without .json)");
    const auto sources = stringList(catalogue, "sources", origin, "sources");
    json defaults = catalogue.value("defaults", json::object());
    if (!defaults.is_object())
        fail(origin, "defaults", "must be an object");
    for (const auto& [k, v] : defaults.items()) {
        if (!kDefaultKeys.count(k))
            fail(origin, "defaults", fmt::format("key '{}' is not known (severity, confidence, applicability)", k));
    }
    const auto entries = catalogue.find("entries");
    if (entries == catalogue.end() || !entries->is_array() || entries->empty())
        fail(origin, "entries", "must be a non-empty array");
    const auto wrappers = readWrappers(catalogue, origin);
    CatalogueRules out;
    out.rules.reserve(entries->size());
    for (std::size_t i = 0; i < entries->size(); ++i) {
        auto& e = (*entries)[i];
        const bool named = e.is_object() && e.contains("id") && e["id"].is_string();
        const std::string where = fmt::format("entries[{}] ('{}')", i, named ? e["id"].get<std::string>() : "?");
        out.rules.push_back(entryToRule(e, defaults, sources, wrappers, name, origin, where, out.codes));
    }
    if (const auto covered = catalogue.find("covered_by"); covered != catalogue.end()) {
        if (!covered->is_object())
            fail(origin, "covered_by", "must be an object: code -> the diagnosis.json rule id that names it");
        for (const auto& [code, id] : covered->items()) {
            if (!id.is_string())
                fail(origin, "covered_by." + code, "must be a rule id");
            out.codes.push_back({origin, name, code, id.get<std::string>()});
        }
    }
    return out;
}

} // namespace stackscope
