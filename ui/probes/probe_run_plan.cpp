// The Probes page's runs from its form's choices; no widgets, so the mapping is tested with data rows.
#include "ui/probes/probe_run_plan.h"

#include "core/diagnosis/diagnosis.h"
#include "core/probes/probe_variants.h"

#include <map>
#include <set>
#include <utility>

namespace stackscope::ui {

ProbeRunOptions baseRunOptions(double timeoutS)
{
    ProbeRunOptions o;
    o.timeout = std::chrono::milliseconds(static_cast<long long>(timeoutS * 1000));
    return o;
}

std::vector<ProbeRunOptions> environmentRuns(const QStringList& environments, double timeoutS)
{
    std::vector<ProbeRunOptions> out;
    for (const auto& env : environments) {
        ProbeRunOptions o = baseRunOptions(timeoutS);
        if (env != QLatin1String("libtorch"))
            o.python = env.mid(env.indexOf(QLatin1Char(':')) + 1).toStdString();
        out.push_back(std::move(o));
    }
    return out;
}

std::vector<ProbeVariant> gridVariants(bool ruleVariants, const Snapshot* thisMachine)
{
    std::vector<ProbeVariant> out {ProbeVariant {}};
    if (ruleVariants && thisMachine) {
        for (auto& v : candidateVariants(*thisMachine, DiagnosisRules::builtIn()))
            out.push_back(std::move(v));
    }
    return out;
}

FixTrial fixTrial(const std::vector<ProbeRecord>& records, const Finding& finding, int fixIndex, double timeoutS)
{
    FixTrial trial;
    if (fixIndex < 0 || fixIndex >= static_cast<int>(finding.fixes.size()))
        return trial;
    const auto& fix = finding.fixes[static_cast<std::size_t>(fixIndex)];
    // The cells that failed in the baseline are the ones the fix has to turn ok, in the environment they failed in.
    std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> failed; // env -> devices, probes
    std::set<std::string> probes;
    for (const auto& r : records) {
        if (r.outcome.variant == "baseline" && isFailure(r.outcome.outcome)) {
            failed[r.outcome.environment].first.insert(r.outcome.device);
            failed[r.outcome.environment].second.insert(r.outcome.probeId);
            probes.insert(r.outcome.probeId);
        }
    }
    ProbeVariant v;
    v.env = fix.env;
    v.name = variantName(fix.env);
    v.ruleIds = {finding.id};
    trial.variant = QString::fromStdString(v.name);
    trial.failingProbes = probes.size();
    for (const auto& [env, cells] : failed) {
        ProbeRunOptions o = baseRunOptions(timeoutS);
        const std::string prefix = "python:";
        if (env.compare(0, prefix.size(), prefix) == 0)
            o.python = env.substr(prefix.size());
        o.devices.assign(cells.first.begin(), cells.first.end());
        o.probeIds.assign(cells.second.begin(), cells.second.end());
        o.variants = {v};
        trial.runs.push_back(std::move(o));
    }
    return trial;
}

} // namespace stackscope::ui
