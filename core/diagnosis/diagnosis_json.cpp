// Findings as JSON (`{"findings": [...]}`); null means unknown, never "false".
#include "core/diagnosis/diagnosis_json.h"

#include <nlohmann/json.hpp>

namespace stackscope {

using nlohmann::json;

namespace {

json optBool(const std::optional<bool>& b)
{
    return b ? json(*b) : json(nullptr);
}

} // namespace

json toJson(const Evidence& e)
{
    return {{"source", e.source},         {"origin", e.origin},
            {"line", e.line ? json(*e.line) : json(nullptr)},
            {"text", e.text},             {"signature", e.signature},
            {"confidence", confidenceName(e.confidence)}, {"note", e.note}};
}

json toJson(const DiagnosisFinding& f)
{
    json evidence = json::array();
    for (const auto& e : f.evidence)
        evidence.push_back(toJson(e));
    json fixes = json::array();
    for (const auto& fix : f.fixes) {
        json env = json::object();
        for (const auto& [k, v] : fix.env)
            env[k] = v ? json(*v) : json(nullptr);
        fixes.push_back({{"text", fix.text}, {"env", env}, {"diagnostic", fix.diagnostic},
                         {"applies", optBool(fix.applies)}, {"verified", optBool(fix.verified)},
                         {"verified_detail", fix.verifiedDetail}});
    }
    return {{"rule", f.ruleId},
            {"title", f.title},
            {"severity", severityName(f.severity)},
            {"confidence", confidenceName(f.confidence)},
            {"confidence_note", f.confidenceNote},
            {"evidence", evidence},
            {"evidence_count", f.evidenceCount},
            {"cause", f.cause},
            {"applies", optBool(f.applies)},
            {"applicability", f.applicability},
            {"fixes", fixes},
            {"sources", f.sources},
            {"verified", optBool(f.verified)},
            {"explains", f.explains},
            {"rank_note", f.rankNote}};
}

json findingsToJson(const std::vector<DiagnosisFinding>& findings)
{
    json list = json::array();
    for (const auto& f : findings)
        list.push_back(toJson(f));
    return {{"findings", list}};
}

} // namespace stackscope
