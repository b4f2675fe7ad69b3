// Findings <-> JSON, one shape for system checks and diagnosis rules; null means unknown, never "false".
#include "core/snapshot/json_read.h"
#include "core/snapshot/snapshot_json.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace stackscope {

using nlohmann::json;
using jsonread::readOpt;
using jsonread::readOr;

const char* severityName(Severity s)
{
    switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
    }
    return "info";
}

std::optional<Severity> severityFromName(const std::string& name)
{
    for (auto s : {Severity::Info, Severity::Warning, Severity::Error})
        if (name == severityName(s))
            return s;
    return std::nullopt;
}

const char* confidenceName(Confidence c)
{
    switch (c) {
    case Confidence::Informational: return "informational";
    case Confidence::Low: return "low";
    case Confidence::Medium: return "medium";
    case Confidence::High: return "high";
    }
    return "low";
}

std::optional<Confidence> confidenceFromName(const std::string& name)
{
    for (auto c : {Confidence::Informational, Confidence::Low, Confidence::Medium, Confidence::High})
        if (name == confidenceName(c))
            return c;
    return std::nullopt;
}

namespace {

json optBool(const std::optional<bool>& b)
{
    return b ? json(*b) : json(nullptr);
}

json toJson(const FixAdvice& fix)
{
    json env = json::object();
    for (const auto& [k, v] : fix.env)
        env[k] = v ? json(*v) : json(nullptr);
    return {{"text", fix.text}, {"env", env}, {"diagnostic", fix.diagnostic}, {"applies", optBool(fix.applies)},
            {"verified", optBool(fix.verified)}, {"verified_detail", fix.verifiedDetail}};
}

const json& listAt(const json& obj, const char* key, const std::string& field)
{
    static const json empty = json::array();
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return empty;
    if (!it->is_array())
        throw SnapshotError(fmt::format("'{}.{}' must be an array, found {}", field, key, it->type_name()));
    return *it;
}

const json& objectIn(const json& list, std::size_t i, const std::string& field)
{
    if (!list[i].is_object())
        throw SnapshotError(fmt::format("'{}' must be an object, found {}", field, list[i].type_name()));
    return list[i];
}

Confidence readConfidence(const json& j, const std::string& field, Confidence fallback)
{
    const auto name = readOpt<std::string>(j, "confidence", field);
    if (!name)
        return fallback;
    const auto parsed = confidenceFromName(*name);
    if (!parsed)
        throw SnapshotError(fmt::format("'{}.confidence' is '{}'; use high, medium, low or informational", field, *name));
    return *parsed;
}

Evidence evidenceFromJson(const json& j, const std::string& field)
{
    Evidence e;
    e.source = readOr<std::string>(j, "source", field, "");
    e.origin = readOr<std::string>(j, "origin", field, "");
    e.line = readOpt<int>(j, "line", field);
    e.text = readOr<std::string>(j, "text", field, "");
    e.signature = readOr<std::string>(j, "signature", field, "");
    e.confidence = readConfidence(j, field, Confidence::Medium);
    e.note = readOr<std::string>(j, "note", field, "");
    return e;
}

FixAdvice fixFromJson(const json& j, const std::string& field)
{
    FixAdvice fix;
    fix.text = readOr<std::string>(j, "text", field, "");
    if (auto env = j.find("env"); env != j.end() && !env->is_null()) {
        if (!env->is_object())
            throw SnapshotError(fmt::format("'{}.env' must be an object, found {}", field, env->type_name()));
        for (const auto& [k, v] : env->items()) {
            if (!v.is_null() && !v.is_string())
                throw SnapshotError(fmt::format("'{}.env.{}' must be a string or null (unset), found {}", field, k, v.type_name()));
            fix.env[k] = v.is_null() ? std::nullopt : std::optional<std::string>(v.get<std::string>());
        }
    }
    fix.diagnostic = readOr<bool>(j, "diagnostic", field, false);
    fix.applies = readOpt<bool>(j, "applies", field);
    fix.verified = readOpt<bool>(j, "verified", field);
    fix.verifiedDetail = readOr<std::string>(j, "verified_detail", field, "");
    return fix;
}

// A key of today's shape, or the one the same value had in a diagnosis file before issue 19.
std::string readRenamed(const json& j, const char* key, const char* oldKey, const std::string& field)
{
    if (auto now = readOpt<std::string>(j, key, field))
        return *now;
    return readOr<std::string>(j, oldKey, field, "");
}

// What diagnose() adds to a finding: evidence, applicability, fixes, verification and rank.
void readDiagnosisParts(const json& j, const std::string& field, Finding& f)
{
    f.confidence = readConfidence(j, field, Confidence::High);
    f.confidenceNote = readOr<std::string>(j, "confidence_note", field, "");
    const auto& evidence = listAt(j, "evidence", field);
    for (std::size_t i = 0; i < evidence.size(); ++i) {
        const auto at = fmt::format("{}.evidence[{}]", field, i);
        f.evidence.push_back(evidenceFromJson(objectIn(evidence, i, at), at));
    }
    f.evidenceCount = readOr<std::size_t>(j, "evidence_count", field, f.evidence.size());
    f.applies = readOpt<bool>(j, "applies", field);
    f.applicability = readOr<std::vector<std::string>>(j, "applicability", field, {});
    const auto& fixes = listAt(j, "fixes", field);
    for (std::size_t i = 0; i < fixes.size(); ++i) {
        const auto at = fmt::format("{}.fixes[{}]", field, i);
        f.fixes.push_back(fixFromJson(objectIn(fixes, i, at), at));
    }
    f.verified = readOpt<bool>(j, "verified", field);
    f.explains = readOr<std::vector<std::string>>(j, "explains", field, {});
    f.rankNote = readOr<std::string>(j, "rank_note", field, "");
}

} // namespace

json toJson(const Evidence& e)
{
    return {{"source", e.source},         {"origin", e.origin},
            {"line", e.line ? json(*e.line) : json(nullptr)},
            {"text", e.text},             {"signature", e.signature},
            {"confidence", confidenceName(e.confidence)}, {"note", e.note}};
}

json toJson(const Finding& f)
{
    json evidence = json::array();
    for (const auto& e : f.evidence)
        evidence.push_back(toJson(e));
    json fixes = json::array();
    for (const auto& fix : f.fixes)
        fixes.push_back(toJson(fix));
    return {{"id", f.id},
            {"severity", severityName(f.severity)},
            {"title", f.title},
            {"detail", f.detail},
            {"fix", f.fix},
            {"sources", f.sources},
            {"confidence", confidenceName(f.confidence)},
            {"confidence_note", f.confidenceNote},
            {"evidence", evidence},
            {"evidence_count", f.evidenceCount},
            {"applies", optBool(f.applies)},
            {"applicability", f.applicability},
            {"fixes", fixes},
            {"verified", optBool(f.verified)},
            {"explains", f.explains},
            {"rank_note", f.rankNote}};
}

Finding findingFromJson(const json& j, const std::string& field)
{
    if (!j.is_object())
        throw SnapshotError(fmt::format("'{}': a finding must be an object, found {}", field, j.type_name()));
    Finding f;
    f.id = readRenamed(j, "id", "rule", field);
    const auto sev = readOr<std::string>(j, "severity", field, "info");
    const auto parsed = severityFromName(sev);
    if (!parsed)
        throw SnapshotError(fmt::format("finding '{}' has severity '{}'; use error, warning or info", f.id, sev));
    f.severity = *parsed;
    f.title = readOr<std::string>(j, "title", field, "");
    f.detail = readRenamed(j, "detail", "cause", field);
    f.fix = readOr<std::string>(j, "fix", field, "");
    f.sources = readOr<std::vector<std::string>>(j, "sources", field, {});
    readDiagnosisParts(j, field, f);
    return f;
}

std::vector<Finding> findingsFromJson(const json& list, const std::string& field)
{
    if (list.is_null())
        return {};
    if (!list.is_array())
        throw SnapshotError(fmt::format("'{}' must be an array of findings, found {}", field, list.type_name()));
    std::vector<Finding> out;
    for (std::size_t i = 0; i < list.size(); ++i)
        out.push_back(findingFromJson(list[i], fmt::format("{}[{}]", field, i)));
    return out;
}

json findingsToJson(const std::vector<Finding>& findings)
{
    json list = json::array();
    for (const auto& f : findings)
        list.push_back(toJson(f));
    return {{"findings", list}};
}

} // namespace stackscope
