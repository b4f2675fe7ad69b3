// ProbeOutcome names and JSON (the same field names the probe worker's JSON lines use).
#include "core/snapshot/probe_outcome.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <stdexcept>

namespace stackscope {

bool isFailure(ProbeResult r)
{
    return r != ProbeResult::Ok && r != ProbeResult::Unsupported;
}

const char* probeResultName(ProbeResult r)
{
    switch (r) {
    case ProbeResult::Ok: return "ok";
    case ProbeResult::Error: return "error";
    case ProbeResult::Crash: return "crash";
    case ProbeResult::Hang: return "hang";
    case ProbeResult::Wrong: return "wrong";
    case ProbeResult::Unsupported: return "unsupported";
    }
    return "error";
}

std::optional<ProbeResult> probeResultFromName(const std::string& name)
{
    for (auto r : {ProbeResult::Ok, ProbeResult::Error, ProbeResult::Crash, ProbeResult::Hang, ProbeResult::Wrong,
                   ProbeResult::Unsupported}) {
        if (name == probeResultName(r))
            return r;
    }
    return std::nullopt;
}

nlohmann::json toJson(const ProbeOutcome& p)
{
    return {{"probe", p.probeId}, {"device", p.device},   {"variant", p.variant},
            {"env", p.env},       {"outcome", probeResultName(p.outcome)}, {"message", p.message},
            {"stderr", p.capturedStderr}, {"environment", p.environment}};
}

ProbeOutcome probeOutcomeFromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        throw std::runtime_error("probe outcome: expected a JSON object");
    auto str = [&](const char* key, bool required) -> std::string {
        auto it = j.find(key);
        if (it == j.end() || it->is_null()) {
            if (required)
                throw std::runtime_error(fmt::format("probe outcome: key '{}' is missing", key));
            return {};
        }
        if (!it->is_string())
            throw std::runtime_error(fmt::format("probe outcome: key '{}' must be a string", key));
        return it->get<std::string>();
    };
    ProbeOutcome p;
    p.probeId = str("probe", true);
    p.device = str("device", true);
    p.variant = str("variant", false);
    if (p.variant.empty())
        p.variant = "baseline";
    const auto outcome = str("outcome", true);
    const auto r = probeResultFromName(outcome);
    if (!r)
        throw std::runtime_error(fmt::format("probe outcome: 'outcome' is '{}'; expected ok, error, crash, hang, wrong "
                                             "or unsupported", outcome));
    p.outcome = *r;
    p.message = str("message", false);
    p.capturedStderr = str("stderr", false);
    p.environment = str("environment", false); // documents from before Python environments lack it
    if (p.environment.empty())
        p.environment = "libtorch";
    if (auto it = j.find("env"); it != j.end() && !it->is_null()) {
        if (!it->is_object())
            throw std::runtime_error("probe outcome: 'env' must be an object of strings");
        for (const auto& [k, v] : it->items()) {
            if (!v.is_string())
                throw std::runtime_error(fmt::format("probe outcome: 'env.{}' must be a string", k));
            p.env[k] = v.get<std::string>();
        }
    }
    return p;
}

} // namespace stackscope
