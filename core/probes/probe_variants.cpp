// Probe variants from the rules' fix environment changes, and the A/B comparison of grid cells.
#include "core/probes/probe_variants.h"

#include "core/diagnosis/diagnosis.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace stackscope {

ProbeVariant variantFromEnvSpec(const std::string& spec)
{
    ProbeVariant v;
    std::size_t pos = 0;
    while (pos <= spec.size()) {
        const auto comma = spec.find(',', pos);
        const std::string part = spec.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        pos = comma == std::string::npos ? spec.size() + 1 : comma + 1;
        if (part.empty())
            continue;
        if (part.front() == '-' && part.find('=') == std::string::npos && part.size() > 1) {
            v.env[part.substr(1)] = std::nullopt;
            continue;
        }
        const auto eq = part.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == part.size())
            throw std::invalid_argument(fmt::format("'{}' is not an environment change: write NAME=VALUE (several "
                                                    "joined with commas), or -NAME to unset one", part));
        v.env[part.substr(0, eq)] = part.substr(eq + 1);
    }
    if (v.env.empty())
        throw std::invalid_argument("an empty environment change: write NAME=VALUE, e.g. TORCH_BLAS_PREFER_HIPBLASLT=0");
    v.name = variantName(v.env);
    return v;
}

std::string variantName(const std::map<std::string, std::optional<std::string>>& env)
{
    std::string out;
    for (const auto& [k, v] : env) {
        if (!out.empty())
            out += ",";
        out += v ? k + "=" + *v : "unset " + k;
    }
    return out.empty() ? "baseline" : out;
}

namespace {

void addVariant(std::vector<ProbeVariant>& out, std::map<std::string, std::optional<std::string>> env,
                const std::string& ruleId)
{
    const std::string name = variantName(env);
    auto it = std::find_if(out.begin(), out.end(), [&](const ProbeVariant& v) { return v.name == name; });
    if (it == out.end()) {
        out.push_back({name, std::move(env), {}});
        it = out.end() - 1;
    }
    if (std::find(it->ruleIds.begin(), it->ruleIds.end(), ruleId) == it->ruleIds.end())
        it->ruleIds.push_back(ruleId);
}

} // namespace

std::vector<ProbeVariant> candidateVariants(const Snapshot& snapshot, const DiagnosisRules& rules)
{
    std::vector<ProbeVariant> out;
    const auto backend = snapshot.torch.backend;
    std::vector<std::string> archs;
    for (const auto& g : snapshot.gpus) {
        if (g.arch)
            archs.push_back(archToken(*g.arch));
    }
    for (const auto& rule : rules.rules()) {
        const auto& ruleBackend = rule.applicability.backend;
        const bool cudaCounterpart = backend == std::optional<std::string>("cuda") && ruleBackend == std::optional<std::string>("rocm");
        if (ruleBackend && backend && *ruleBackend != *backend && !cudaCounterpart)
            continue;
        for (const auto& fix : rule.fixes) {
            if (fix.env.empty())
                continue;
            if (!fix.archs.empty() && std::none_of(fix.archs.begin(), fix.archs.end(), [&](const std::string& a) {
                    return std::find(archs.begin(), archs.end(), a) != archs.end();
                }))
                continue;
            if (!cudaCounterpart) {
                addVariant(out, fix.env, rule.id);
                continue;
            }
            // hipBLASLt switches have cuBLASLt twins in the same PyTorch code (Context.cpp, Blas.cpp).
            for (const auto& [k, v] : fix.env) {
                if (k == "TORCH_BLAS_PREFER_HIPBLASLT" && v) {
                    addVariant(out, {{"TORCH_BLAS_PREFER_CUBLASLT", *v}}, rule.id);
                    addVariant(out, {{"TORCH_BLAS_PREFER_CUBLASLT", *v == "0" ? "1" : "0"}}, rule.id);
                } else if ((k == "DISABLE_ADDMM_CUDA_LT" || k == "DISABLE_ADDMM_HIP_LT") && v) {
                    addVariant(out, {{"DISABLE_ADDMM_CUDA_LT", *v}}, rule.id);
                }
            }
        }
    }
    return out;
}

std::vector<CellChange> compareVariants(const std::vector<ProbeRecord>& records, const std::string& a,
                                        const std::string& b)
{
    std::vector<CellChange> out;
    for (const auto& ra : records) {
        if (ra.outcome.variant != a)
            continue;
        for (const auto& rb : records) {
            if (rb.outcome.variant != b || rb.outcome.probeId != ra.outcome.probeId || rb.outcome.device != ra.outcome.device ||
                rb.outcome.environment != ra.outcome.environment)
                continue;
            if (ra.outcome.outcome != rb.outcome.outcome)
                out.push_back({ra.outcome.probeId, ra.outcome.device, ra.outcome.outcome, rb.outcome.outcome,
                               rb.outcome.message, ra.seconds, rb.seconds, ra.outcome.environment});
        }
    }
    return out;
}

std::vector<ProbeOutcome> probeOutcomes(const std::vector<ProbeRecord>& records)
{
    std::vector<ProbeOutcome> out;
    out.reserve(records.size());
    for (const auto& r : records)
        out.push_back(r.outcome);
    return out;
}

nlohmann::json toJson(const ProbeRecord& r)
{
    auto j = toJson(r.outcome);
    j["seconds"] = r.seconds;
    j["ended_s"] = r.endedAt;
    j["max_error"] = r.maxError ? nlohmann::json(*r.maxError) : nlohmann::json(nullptr);
    j["tolerance"] = r.tolerance ? nlohmann::json(*r.tolerance) : nlohmann::json(nullptr);
    j["error_ratio"] = r.errorRatio ? nlohmann::json(*r.errorRatio) : nlohmann::json(nullptr);
    j["details"] = r.details;
    return j;
}

nlohmann::json toJson(const ProbeVariant& v)
{
    nlohmann::json env = nlohmann::json::object();
    for (const auto& [k, val] : v.env)
        env[k] = val ? nlohmann::json(*val) : nlohmann::json(nullptr);
    return {{"name", v.name}, {"env", env}, {"rules", v.ruleIds}};
}

nlohmann::json toJson(const CellChange& c)
{
    return {{"probe", c.probeId},         {"device", c.device},   {"before", probeResultName(c.before)},
            {"after", probeResultName(c.after)}, {"message_after", c.messageAfter},
            {"seconds_before", c.secondsBefore}, {"seconds_after", c.secondsAfter}, {"environment", c.environment}};
}

} // namespace stackscope
